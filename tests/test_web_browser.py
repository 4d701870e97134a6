"""loki web in a real browser: Debian's chromium driven by Playwright plays scripted hands.

Needs the ``playwright`` Python package (its driver only: never ``playwright install``) and Chromium at
``/usr/bin/chromium`` (or ``$LOKI_CHROMIUM``); ``.ci/run`` installs both and sets ``LOKI_REQUIRE_BROWSER=1``, so
in CI a missing browser fails instead of skipping.  The screenshot of the table goes to ``$LOKI_TEST_ARTIFACTS``
(default ``test-artifacts/`` at the top of the checkout).
"""

from __future__ import annotations

import os
import re
import shutil
import threading
import time
from pathlib import Path

import pytest

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ROOT = Path(__file__).resolve().parents[1]


def _chromium() -> str | None:
    path = os.environ.get("LOKI_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    return path if Path(path).exists() else None


def _need_browser():
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        why = "the playwright package is not installed"
    else:
        why = None if _chromium() else "no chromium at /usr/bin/chromium (apt-get install chromium)"
    if why:
        if os.environ.get("LOKI_REQUIRE_BROWSER"):
            pytest.fail(f"browser tests required (LOKI_REQUIRE_BROWSER) but {why}")
        pytest.skip(why)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    _need_browser()
    import uvicorn

    from loki.cli.web import bind_socket
    from loki.web.app import create_app
    from loki.web.server import server_config

    out = tmp_path_factory.mktemp("web-out")
    sock = bind_socket("127.0.0.1", 0)
    port = sock.getsockname()[1]
    app = create_app(out, host="127.0.0.1", port=port)
    srv = uvicorn.Server(server_config(app))  # as loki web serves it
    t = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    t.start()
    for _ in range(100):
        if srv.started:
            break
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}", out
    srv.should_exit = True
    t.join(timeout=10)
    sock.close()


@pytest.fixture(scope="module")
def page(server):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=_chromium(), args=CHROMIUM_ARGS)
        pg = browser.new_page(viewport={"width": 1400, "height": 1000})
        pg.set_default_timeout(20000)
        errors: list[str] = []
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pg.errors = errors  # type: ignore[attr-defined]
        yield pg
        browser.close()


def _wait_ready(pg) -> str:
    """Wait until the page offers the person an action or the next hand; returns which."""
    pg.wait_for_selector("body:not(.busy) [data-testid=act-c], body:not(.busy) [data-testid=next-hand]")
    return "next" if pg.locator("[data-testid=next-hand]").count() else "act"


def _heads_up_calling(pg, url: str) -> str:
    """Start a heads-up table against a calling station and wait for the person's turn; returns the session id."""
    pg.goto(url + "/")
    pg.select_option("[data-testid=bots-count]", "1")
    pg.fill("[data-testid=spec-2]", "calling")
    pg.click("[data-testid=start]")
    _wait_ready(pg)
    return pg.evaluate("location.hash.slice(1)")


def test_the_default_bot_is_the_adaptive_loki(server, page):
    """The page's default table seats the adaptive Loki first (heads-up it is the only bot), then Loki-1,
    the specs the server warms up before serving (``WEB_DEFAULT_SPECS``)."""
    from loki.cli.web import WEB_DEFAULT_SPECS

    url, _ = server
    page.goto(url + "/")
    page.select_option("[data-testid=bots-count]", "2")
    seats = [page.locator(f"[data-testid=spec-{k}]").input_value() for k in (2, 3)]
    assert seats == ["loki2:BRS:adaptive", "loki1"] == list(WEB_DEFAULT_SPECS)


def test_bad_request_is_shown(server, page):
    url, _ = server
    page.goto(url + "/")
    page.select_option("[data-testid=bots-count]", "1")
    page.fill("[data-testid=spec-2]", "nobody")
    page.click("[data-testid=start]")
    err = page.locator("[data-testid=error]")
    err.wait_for(state="visible")
    # the field is named as the page labels it (seat 2), not only by its index in the request
    assert "seat 2 (players[0])" in err.inner_text() and "unknown player type" in err.inner_text()
    assert page.locator("[data-testid=setup]").is_visible()


def test_the_largest_seed_starts_a_table(server, page):
    """The page sends the seed as written: as a JavaScript number 2**64 - 1 became 18446744073709552000, which the
    server refused (and seeds above 2**53 silently dealt another seed's cards)."""
    url, _ = server
    page.goto(url + "/")
    page.select_option("[data-testid=bots-count]", "1")
    page.fill("[data-testid=spec-2]", "calling")
    page.fill("[data-testid=seed]", str(2**64 - 1))
    page.click("[data-testid=start]")
    _wait_ready(page)
    assert page.evaluate("location.hash.slice(1)") and not page.locator("[data-testid=error]").is_visible()


def test_play_three_hands_and_see_why(server, page):
    url, out = server
    t0 = time.monotonic()
    page.goto(url + "/")
    page.select_option("[data-testid=bots-count]", "2")
    page.fill("[data-testid=spec-2]", "calling")
    page.fill("[data-testid=spec-3]", "loki1")
    page.fill("[data-testid=seed]", "7")
    page.click("[data-testid=start]")
    hands = 0
    saw = {"raise": False, "teaching": False}
    while hands < 3:
        what = _wait_ready(page)
        if what == "act":
            text = page.locator("[data-testid=table]").inner_text()
            assert "pot" in text
            positions = {page.locator(f"[data-testid=seat-{k}]").get_attribute("data-position") for k in (1, 2, 3)}
            assert positions == {"BTN", "SB", "BB"}
            if hands == 1 and not saw["raise"] and page.locator("[data-testid=act-r]").count():
                page.click("[data-testid=act-r]")  # a raise shows its total in the log
                saw["raise"] = True
            else:
                page.click("[data-testid=act-c]")
            continue
        hands += 1
        assert page.locator("[data-testid=hand-counter]").inner_text().startswith(f"hand {hands}")
        winners = page.locator("[data-testid=winners]").inner_text()
        assert re.search(r"\b(wins|win|split)\b", winners), winners
        assert page.locator("[data-testid=your-result]").inner_text().startswith("you ")
        log = page.locator("[data-testid=log]").inner_text()
        assert re.search(r"posts? the small blind 5", log) and re.search(r"posts? the big blind 10", log), log
        if saw["raise"] and hands == 2:
            assert re.search(r"raises? to \d+", log), log
        # every bot decision of the hand, explained
        decisions = page.locator("[data-testid=decisions] button")
        assert decisions.count() >= 2
        page.locator("[data-testid=decisions] button", has_text="loki1-3").last.click()
        summary = page.locator("[data-testid=summary]").inner_text()
        assert re.match(r"(fold|check|call|bet|raise):", summary), summary
        detail = page.locator("[data-testid=explanation]").inner_text()
        assert "Opponents as modelled" in detail
        heat = page.locator("[data-testid=explanation] [data-testid=heatmap]").first
        assert heat.locator(".cell").count() == 169
        if hands == 2:
            page.check("[data-testid=teaching]")  # live explanations from now on
            page.wait_for_function("document.querySelector('[data-testid=teaching]').checked")
        if hands < 3:
            page.click("[data-testid=next-hand]")
            if hands == 2:
                what = _wait_ready(page)
                if what == "act" and page.locator("[data-testid=decisions] button").count():
                    saw["teaching"] = True
    session = page.locator("[data-testid=session-table]").inner_text()
    assert "sb/hand" in session and "3 hands played" in session
    art = Path(os.environ.get("LOKI_TEST_ARTIFACTS", ROOT / "test-artifacts"))
    art.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(art / "loki-web-table.png"), full_page=True)
    assert (art / "loki-web-table.png").stat().st_size > 10_000
    # the finished hands are on disk and downloadable as PHH
    from loki.io.phh import read_phh

    files = list(out.glob("loki-web-*.phhs"))
    assert any(len(read_phh(f)) == 3 for f in files)
    href = page.locator("[data-testid=phh-link]").get_attribute("href")
    body = page.request.get(url + href).text()
    assert body.count("actions = ") == 3
    assert page.errors == []  # type: ignore[attr-defined]
    assert time.monotonic() - t0 < 60


def test_reload_resumes_the_session(server, page):
    url, _ = server
    sid = page.evaluate("location.hash.slice(1)")
    assert sid
    page.goto(f"{url}/#{sid}")
    page.reload()
    _wait_ready(page)
    assert page.locator("[data-testid=hand-counter]").inner_text().startswith("hand 3")


def test_a_busy_session_is_tried_again_not_dropped(server, page):
    """A session busy with a bot's decision answers 503: the page says so and tries again (reopening the session's
    address keeps the session, not the setup form)."""
    import json

    url, _ = server
    sid = _heads_up_calling(page, url)
    busy = {"left": 2, "notes": []}

    def answer(route):
        if route.request.method == "GET" and busy["left"] > 0:
            busy["left"] -= 1
            message = f"session {sid} is busy: a bot is still deciding, try again"
            route.fulfill(status=503, content_type="application/json", body=json.dumps({"error": message}))
        else:
            route.continue_()

    page.route(f"**/api/sessions/{sid}", answer)
    try:
        page.reload()
        page.wait_for_function("document.getElementById('error').textContent.includes('trying again')")
        _wait_ready(page)
        assert busy["left"] == 0 and page.evaluate("location.hash.slice(1)") == sid
        assert page.locator("[data-testid=hand-counter]").inner_text().startswith("hand 1")
        assert not page.locator("[data-testid=error]").is_visible()  # the note goes once the session answers
    finally:
        page.unroute(f"**/api/sessions/{sid}")


def test_a_session_busy_past_every_retry_keeps_its_address(server, page):
    """A bot deciding for longer than the page's retries: the page gives up with a note but keeps the session's
    address (a reload later resumes it); only a session the server no longer has (404) is forgotten."""
    import json

    url, _ = server
    sid = _heads_up_calling(page, url)
    tries = page.evaluate("BUSY_TRIES")

    def busy(route):
        if route.request.method == "GET":
            body = json.dumps({"error": f"session {sid} is busy: a bot is still deciding, try again"})
            route.fulfill(status=503, content_type="application/json", body=body)
        else:
            route.continue_()

    page.clock.install()
    page.route(f"**/api/sessions/{sid}", busy)
    try:
        page.reload()
        for k in range(1, tries):  # every retry waits its second on the page's clock
            page.wait_for_function(f"document.getElementById('error').textContent.includes('{k}/{tries}')")
            page.clock.run_for(1000)
        page.wait_for_function("document.getElementById('error').textContent.includes('reload the page')")
        assert page.evaluate("location.hash.slice(1)") == sid
    finally:
        page.unroute(f"**/api/sessions/{sid}")
    page.reload()
    _wait_ready(page)
    assert page.evaluate("location.hash.slice(1)") == sid
    page.evaluate("location.hash = 'nosuchsession'")
    page.reload()
    page.wait_for_function("location.hash === ''")  # a session the server does not have is forgotten


# ------------------------------------------------------------------ the setup form, other origins, teaching


def test_the_setup_page_shows_only_the_form(server, page):
    """The hidden attribute wins over the CSS display of the table and the session bar."""
    url, _ = server
    page.goto(url + "/")
    page.wait_for_selector("[data-testid=start]")
    assert page.locator("[data-testid=setup]").is_visible()
    for sel in ("#game", "#felt", "[data-testid=table]", "#session-bar", "[data-testid=session-table]"):
        assert not page.locator(sel).is_visible(), sel
    assert page.evaluate("getComputedStyle(document.getElementById('game')).display") == "none"


@pytest.fixture()
def other_site():
    """Another web site on this machine (another port: another origin) with an empty page."""
    import http.server

    class Blank(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(b"<!doctype html><title>elsewhere</title>")

        def log_message(self, *args):
            pass

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Blank)
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    yield f"http://127.0.0.1:{srv.server_address[1]}"
    srv.shutdown()
    srv.server_close()


def test_a_page_of_another_origin_cannot_use_the_table(server, page, other_site):
    """A page of another site POSTs to the table (a simple cross-site request, which a browser sends without asking)
    and opens a WebSocket to it: both refused, no session made."""
    url, _ = server
    before = page.request.get(url + "/api/health").json()["sessions"]
    page.goto(other_site + "/")
    status = page.evaluate(
        """async (url) => {
            await fetch(url + "/api/sessions", {method: "POST", mode: "no-cors", body: '{"players": ["calling"]}'});
            return await new Promise((done) => {
                const ws = new WebSocket(url.replace("http", "ws") + "/ws/x");
                ws.onopen = () => done("open");
                ws.onclose = () => done("closed");
            });
        }""",
        url,
    )
    assert status == "closed"
    assert page.request.get(url + "/api/health").json()["sessions"] == before
    r = page.request.post(
        url + "/api/sessions", data={"players": ["calling"]}, headers={"Origin": "http://evil.example"}
    )
    assert r.status == 403 and "Origin" in r.json()["error"]


def test_teaching_check_prompt_and_kickers(server, page):
    """Heads-up against a calling station (seed 110), teaching on: the latest bot decision is the one shown, a free
    action reads "check" (never "to call 0"), and the showdown names the kicker that decides."""
    url, _ = server
    page.goto(url + "/")
    page.select_option("[data-testid=bots-count]", "1")
    page.fill("[data-testid=spec-2]", "calling")
    page.fill("[data-testid=seed]", "110")
    page.check("input[name=teaching]")
    page.click("[data-testid=start]")
    prompts, latest = [], []
    while _wait_ready(page) == "act":
        prompts.append(page.locator("[data-testid=prompt]").inner_text())
        n = page.locator("[data-testid=decisions] button").count()
        if n >= 2:
            on = page.locator("[data-testid=decisions] button.on")
            latest.append(on.get_attribute("data-i") == str(n - 1))
        page.click("[data-testid=act-c]")
    assert latest and all(latest), latest
    assert any("check" in p for p in prompts) and not any("to call 0" in p for p in prompts), prompts
    result = page.locator("[data-testid=result]").inner_text()
    assert "Sevens and Fives, Nine kicker" in result and "Sevens and Fives, Ace kicker" in result
    assert page.errors == []  # type: ignore[attr-defined]


# ------------------------------------------------------------------ the layout at a desktop's and a phone's width

_OVERLAPS = """() => {
    const box = (e) => e.getBoundingClientRect();
    const meet = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
    const seats = [...document.querySelectorAll('#table .seat')].map(box);
    const controls = [...document.querySelectorAll('#controls button, #controls .prompt')].map(box);
    const board = [...document.querySelectorAll('#board .card')].map(box);
    const out = [];
    seats.forEach((a, i) => {
        seats.slice(i + 1).forEach((b, j) => { if (meet(a, b)) out.push(`seat ${i + 1} overlaps seat ${i + j + 2}`); });
        controls.forEach((b) => { if (meet(a, b)) out.push(`seat ${i + 1} overlaps the controls`); });
        board.forEach((b) => { if (meet(a, b)) out.push(`seat ${i + 1} overlaps the board`); });
        if (a.left < 0 || a.right > innerWidth) out.push(`seat ${i + 1} leaves the window (${a.left}..${a.right})`);
    });
    controls.forEach((b) => { if (b.left < 0 || b.right > innerWidth) out.push('a control leaves the window'); });
    const doc = document.documentElement;
    if (doc.scrollWidth > innerWidth + 1) out.push(`the page scrolls sideways (${doc.scrollWidth} > ${innerWidth})`);
    const log = document.getElementById('log'), lb = box(log);
    for (const li of log.querySelectorAll('li')) {
        const r = box(li);
        const whole = r.top >= lb.top - 0.5 && r.bottom <= lb.bottom + 0.5, gone = r.bottom <= lb.top + 0.5 || r.top >= lb.bottom - 0.5;
        if (!whole && !gone) out.push(`a log line is cut: ${li.textContent.trim()} (${r.top}..${r.bottom} in ${lb.top}..${lb.bottom})`);
    }
    if (log.scrollWidth > log.clientWidth + 1) out.push('the action log scrolls sideways');
    return out;
}"""


@pytest.mark.parametrize("bots", [2, 9])
@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
def test_the_table_fits_a_desktop_and_a_phone(server, page, width, height, bots):
    """At 1280 px the action log was clipped mid-card and the buttons overlapped the person's seat; at 390 px (a phone)
    the page scrolled sideways and the seats covered the board; the session said "1 hands played"."""
    url, _ = server
    ctx = page.context.browser.new_context(viewport={"width": width, "height": height})
    pg = ctx.new_page()
    pg.set_default_timeout(20000)
    try:
        pg.goto(url + "/")
        pg.select_option("[data-testid=bots-count]", str(bots))
        for k in range(2, bots + 2):
            pg.fill(f"[data-testid=spec-{k}]", "calling")
        pg.click("[data-testid=start]")
        problems: set[str] = set()
        hands = 0
        while hands < 2:
            what = _wait_ready(pg)
            problems.update(pg.evaluate(_OVERLAPS))
            if what == "act":
                pg.click("[data-testid=act-c]")
                continue
            hands += 1
            session = pg.locator("[data-testid=session-table]").inner_text()
            if f"{hands} hand{'s' if hands > 1 else ''} played" not in session or "1 hands" in session:
                problems.add(f"the session says {session.splitlines()[-1]!r} after {hands} hands")
            if hands < 2:
                pg.click("[data-testid=next-hand]")
        assert not problems, sorted(problems)
    finally:
        ctx.close()
