"""``loki web``: play limit hold'em in the browser against any bots, with every bot decision explained."""

from __future__ import annotations

from pathlib import Path

import typer

from loki.cli._common import out_option

__all__ = ["web", "bind_socket", "WEB_DEFAULT_SPECS"]

#: The bot kinds of the page's default table (``static/app.js``: the adaptive Loki and Loki-1), warmed up
#: before serving.
WEB_DEFAULT_SPECS = ("loki2:BRS:adaptive", "loki1")


def bind_socket(host: str, port: int):
    """A listening TCP socket on ``host``:``port`` (0: a free port).

    Raises:
        ConfigError: the address cannot be bound (in use, not an address of this machine); the message names it.
    """
    import socket

    from loki.errors import ConfigError
    from loki.io.names import shown

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, ValueError) as e:  # ValueError: a name idna cannot encode (UnicodeError: 'a..b', a 64-char label)
        raise ConfigError(f"--host {shown(repr(host))}: not an address ({getattr(e, 'strerror', None) or e})") from None
    family, _, _, _, addr = infos[0]
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(addr)
    except OSError as e:
        sock.close()
        raise ConfigError(f"--host {host} --port {port}: cannot listen there ({e.strerror or e})") from None
    sock.listen(64)
    sock.set_inheritable(True)
    return sock


def web(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on (default: this machine only)."),
    port: int = typer.Option(8000, "--port", min=0, max=65535, help="Port (0: any free port; the port is printed)."),
    out: Path | None = out_option("Folder for the sessions' hand histories (PHH), default ./loki-web-sessions."),
    allow_origin: list[str] = typer.Option(
        [],
        "--allow-origin",
        metavar="ORIGIN",
        help="Also accept requests from this origin (scheme://host[:port], repeat): the public address of a proxy "
        "that serves the page. Without it only the bound address itself is accepted (Host and Origin checked).",
    ),
) -> None:
    """Play limit hold'em in the browser against bots (any player specs), 2-10 handed, and see why each bot
    decision was made: hand strength and potential, the pre-flop strategy, the rule and its probability triple,
    the Simulator's EVs, and each opponent's weight table as a 13x13 heatmap.

    Only pages served by this server may use it: Host and Origin are checked against the bound address (and each
    --allow-origin), every POST and WebSocket carries the page's token, request bodies and WebSocket messages are
    at most 64 KiB and JSON at most 32 levels deep.  A request must come whole within 10 s (an idle connection is
    closed then), at most 64 connections are served at once (a request beyond them is answered 503), and a request
    to a table whose bot is still deciding is answered 503 after 3 s (the page tries again)."""
    import uvicorn

    from loki.cli.warmup import ensure_warm
    from loki.io.names import shown
    from loki.web.app import WebPolicy, create_app
    from loki.web.server import serve, server_config

    folder = out if out is not None else Path("loki-web-sessions")
    WebPolicy(host, port, allow_origin)  # a bad --allow-origin is an error before anything starts
    sock = bind_socket(host, port)
    try:
        app = create_app(folder, host=host, port=sock.getsockname()[1], allow_origin=allow_origin)
    except BaseException:
        sock.close()
        raise
    # a first run compiles the kernels of the bots the page offers first (the adaptive Loki, Loki-1) before serving;
    # another spec chosen in the page compiles at its first decision
    try:
        ensure_warm(WEB_DEFAULT_SPECS, 2)
    except BaseException:
        sock.close()
        raise
    actual = sock.getsockname()[1]
    addr = f"[{host}]" if ":" in host else host
    typer.echo(
        f"loki web: serving http://{addr}:{actual}/ (hand histories in {shown(folder, None)}/; Ctrl-C stops)", err=False
    )
    try:
        serve(uvicorn.Server(server_config(app)), sock)
    finally:
        sock.close()
