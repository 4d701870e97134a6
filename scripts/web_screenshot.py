"""Take the README's screenshot of ``loki web``: a 4-handed table (Loki-1, Loki-2 BR, Loki-1 TA) in teaching mode,
a few hands played by calling, a post-flop explanation opened; saved to docs/loki-web.png.

Needs Debian's chromium (/usr/bin/chromium) and the playwright package (never ``playwright install``)::

    python scripts/web_screenshot.py [OUT.png]
"""

from __future__ import annotations

import sys
import tempfile
import threading
import time
from pathlib import Path

ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def main(out: Path) -> None:
    import uvicorn
    from playwright.sync_api import sync_playwright

    from loki.cli.web import bind_socket
    from loki.web.app import create_app

    app = create_app(Path(tempfile.mkdtemp()))
    sock = bind_socket("127.0.0.1", 0)
    url = f"http://127.0.0.1:{sock.getsockname()[1]}/"
    srv = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True).start()
    while not srv.started:
        time.sleep(0.05)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        pg = b.new_page(viewport={"width": 1360, "height": 900})
        pg.goto(url)
        pg.select_option("[data-testid=bots-count]", "3")
        for seat, spec in ((2, "loki1"), (3, "loki2:BR"), (4, "loki1:TA")):
            pg.fill(f"[data-testid=spec-{seat}]", spec)
        pg.fill("[data-testid=seed]", "4")
        pg.click("[data-testid=start]")
        pg.check("[data-testid=teaching]")
        hands = 0
        while True:
            pg.wait_for_selector("body:not(.busy) [data-testid=act-c], body:not(.busy) [data-testid=next-hand]")
            if pg.locator("[data-testid=next-hand]").count():
                hands += 1
                board = pg.locator("[data-testid=board] .card").count()
                post = pg.locator("[data-testid=decisions] button", has_text="river")
                if hands >= 3 and board == 5 and post.count():
                    post.last.click()
                    break
                pg.click("[data-testid=next-hand]")
                continue
            pg.click("[data-testid=act-c]")
        pg.wait_for_timeout(300)
        pg.screenshot(path=str(out), full_page=True)
        b.close()
    srv.should_exit = True
    print(f"screenshot written to {out} ({hands} hands)")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[1] / "docs" / "loki-web.png")
