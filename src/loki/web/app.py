"""``loki web``: a small Starlette (ASGI) app to play limit hold'em against bots in a browser and see why each bot
decision was made (issue 13).

Routes (JSON in and out; every error is ``{"error": "<message naming the input>"}`` with a 4xx status):

=============================================  =====================================================================
``GET  /``                                     the table page (static HTML + JS, no build step)
``POST /api/sessions``                         ``{"players": [spec, ...], "seed": 0, "name": "you", "teaching":
                                               false}`` → 201, the new session's snapshot (its ``id`` included)
``GET  /api/sessions/{id}``                    the snapshot (:meth:`loki.web.session.TableSession.snapshot`)
``POST /api/sessions/{id}/action``             ``{"action": "f" | "c" | "r" | "fold" | "check" | ...}`` → snapshot
``POST /api/sessions/{id}/next``               deal the next hand → snapshot
``POST /api/sessions/{id}/teaching``           ``{"on": true}``: explanations live, as each bot decides
``GET  /api/sessions/{id}/hands/{n}``          a finished hand: results and every bot decision's explanation
``GET  /api/sessions/{id}/hands.phhs``         the finished hands as PHH
``WS   /ws/{id}``                              the same over a WebSocket: send ``{"type": "act", "action": "c"}``,
                                               ``{"type": "next"}``, ``{"type": "teaching", "on": true}`` or
                                               ``{"type": "state"}``; receive ``{"type": "state", "state": {...}}``
                                               or ``{"type": "error", "error": "..."}``
=============================================  =====================================================================

Sessions live in the server's memory (at most :data:`MAX_SESSIONS`, the oldest dropped); each one's finished
hands are written to ``<out>/loki-web-<id>.phhs`` after every hand, so a closed tab never loses a finished hand,
and reopening the page's address (``/#<id>``) resumes the session while the server runs.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from pathlib import Path
from typing import Any

from loki.errors import ConfigError, IllegalActionError, LokiError
from loki.web.session import TableSession

__all__ = ["create_app", "MAX_SESSIONS", "MAX_BODY"]

MAX_SESSIONS = 32
MAX_BODY = 64 * 1024
_STATIC = Path(__file__).parent / "static"


class _Sessions:
    def __init__(self, out_dir: Path | None):
        self.out_dir = out_dir
        self.items: OrderedDict[str, TableSession] = OrderedDict()

    def create(self, body: dict[str, Any]) -> TableSession:
        allowed = {"players", "seed", "name", "teaching"}
        extra = sorted(set(body) - allowed)
        if extra:
            raise ConfigError(f"unknown field(s) {', '.join(extra)}: expected {', '.join(sorted(allowed))}")
        players = body.get("players", ["loki1"])
        if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
            raise ConfigError('players: expected a list of player specs such as ["loki1", "loki2:BR"]')
        seed = body.get("seed", 0)
        if isinstance(seed, str) and seed.strip().isdigit():
            seed = int(seed)
        if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
            raise ConfigError(f"seed: expected an integer >= 0, got {seed!r}")
        name = body.get("name", "you")
        if not isinstance(name, str):
            raise ConfigError("name: expected text")
        teaching = body.get("teaching", False)
        if not isinstance(teaching, bool):
            raise ConfigError("teaching: expected true or false")
        s = TableSession([p.strip() for p in players], seed=seed, name=name, teaching=teaching)
        if self.out_dir is not None:
            s.phh_path = self.out_dir / f"loki-web-{s.id}.phhs"
            s.save()
        self.items[s.id] = s
        while len(self.items) > MAX_SESSIONS:
            self.items.popitem(last=False)
        return s

    def get(self, sid: str) -> TableSession:
        s = self.items.get(sid)
        if s is None:
            raise KeyError(sid)
        return s


def _error(status: int, message: str):
    from starlette.responses import JSONResponse

    return JSONResponse({"error": message}, status_code=status)


def _status(e: Exception) -> int:
    if isinstance(e, KeyError):
        return 404
    if isinstance(e, IllegalActionError):
        return 409
    return 400


def _message(e: Exception) -> str:
    if isinstance(e, KeyError):
        return f"no session {e.args[0]!r} (it may have ended when the server restarted): start a new one"
    return " ".join(str(e).split())


async def _body(request) -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise ConfigError(f"request body: {len(raw)} bytes, at most {MAX_BODY}")
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise ConfigError('request body: not JSON (send e.g. {"action": "c"})') from None
    if not isinstance(data, dict):
        raise ConfigError("request body: expected a JSON object")
    return data


def create_app(out_dir: str | Path | None = None):
    """The Starlette application.

    Args:
        out_dir: folder for the sessions' PHH files (created if missing); None: hands are kept in memory only.

    Raises:
        OutputPathError: ``out_dir`` cannot be created or written.
    """
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.exceptions import HTTPException
    from starlette.requests import Request
    from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
    from starlette.routing import Mount, Route, WebSocketRoute
    from starlette.staticfiles import StaticFiles
    from starlette.websockets import WebSocket, WebSocketDisconnect

    out = None
    if out_dir is not None:
        from loki.errors import OutputPathError

        out = Path(out_dir)
        try:
            out.mkdir(parents=True, exist_ok=True)
            probe = out / ".loki-web-write-test"
            probe.write_text("")
            probe.unlink()
        except OSError as e:
            raise OutputPathError(f"--out {out}: cannot write there ({e.strerror or e})") from None
    sessions = _Sessions(out)

    async def index(request: Request) -> Response:
        return FileResponse(_STATIC / "index.html", media_type="text/html")

    async def create(request: Request) -> Response:
        try:
            body = await _body(request)
            s = await run_in_threadpool(sessions.create, body)
            snap = await run_in_threadpool(s.snapshot)
        except (LokiError, ValueError) as e:
            return _error(400, _message(e))
        return JSONResponse(snap, status_code=201)

    def _with_session(fn):
        async def handler(request: Request) -> Response:
            try:
                s = sessions.get(request.path_params["sid"])
                body = await _body(request) if request.method == "POST" else {}
                result = await run_in_threadpool(fn, s, body, request)
            except (LokiError, ValueError, KeyError) as e:
                return _error(_status(e), _message(e))
            if isinstance(result, Response):
                return result
            return JSONResponse(result)

        return handler

    def get_state(s: TableSession, body: dict, request: Request) -> Any:
        return s.snapshot()

    def act(s: TableSession, body: dict, request: Request | None) -> Any:
        a = body.get("action")
        if not isinstance(a, str):
            raise ConfigError('action: expected "f", "c" or "r" (or fold, check, call, bet, raise)')
        s.act(a)
        return s.snapshot()

    def next_hand(s: TableSession, body: dict, request: Request) -> Any:
        s.next_hand()
        return s.snapshot()

    def teaching(s: TableSession, body: dict, request: Request | None) -> Any:
        on = body.get("on")
        if not isinstance(on, bool):
            raise ConfigError("on: expected true or false")
        s.teaching = on
        return s.snapshot()

    def past(s: TableSession, body: dict, request: Request) -> Any:
        raw = request.path_params["n"]
        if not raw.isdigit():
            raise ConfigError(f"hand {raw!r}: expected a hand number")
        return s.past_hand(int(raw))

    def phh(s: TableSession, body: dict, request: Request) -> Any:
        return PlainTextResponse(
            s.phh_text(),
            headers={"Content-Disposition": f'attachment; filename="loki-web-{s.id}.phhs"'},
        )

    async def ws(websocket: WebSocket) -> None:
        await websocket.accept()
        sid = websocket.path_params["sid"]
        try:
            while True:
                try:
                    msg = await websocket.receive_json()
                except (ValueError, KeyError):
                    await websocket.send_json({"type": "error", "error": "message: not JSON"})
                    continue
                try:
                    s = sessions.get(sid)
                    if not isinstance(msg, dict):
                        raise ConfigError("message: expected a JSON object with a type")
                    kind = msg.get("type")
                    if kind == "act":
                        await run_in_threadpool(act, s, msg, None)
                    elif kind == "next":
                        await run_in_threadpool(s.next_hand)
                    elif kind == "teaching":
                        await run_in_threadpool(teaching, s, msg, None)
                    elif kind != "state":
                        raise ConfigError(f"type {kind!r}: expected act, next, teaching or state")
                    snap = await run_in_threadpool(s.snapshot)
                    await websocket.send_json({"type": "state", "state": snap})
                except (LokiError, ValueError, KeyError) as e:
                    await websocket.send_json({"type": "error", "status": _status(e), "error": _message(e)})
        except WebSocketDisconnect:
            return

    async def not_found(request: Request, exc: Exception) -> Response:
        if isinstance(exc, HTTPException):
            msg = "no such page" if exc.status_code == 404 else str(exc.detail)
            return _error(exc.status_code, f"{request.method} {request.url.path}: {msg}")
        return _error(500, f"internal error: {type(exc).__name__}")

    async def health(request: Request) -> Response:
        return JSONResponse({"ok": True, "sessions": len(sessions.items)})

    routes = [
        Route("/", index),
        Route("/api/health", health),
        Route("/api/sessions", create, methods=["POST"]),
        Route("/api/sessions/{sid}", _with_session(get_state)),
        Route("/api/sessions/{sid}/action", _with_session(act), methods=["POST"]),
        Route("/api/sessions/{sid}/next", _with_session(next_hand), methods=["POST"]),
        Route("/api/sessions/{sid}/teaching", _with_session(teaching), methods=["POST"]),
        Route("/api/sessions/{sid}/hands.phhs", _with_session(phh)),
        Route("/api/sessions/{sid}/hands/{n}", _with_session(past)),
        WebSocketRoute("/ws/{sid}", ws),
        Mount("/static", StaticFiles(directory=_STATIC), name="static"),
    ]
    app = Starlette(routes=routes, exception_handlers={HTTPException: not_found, Exception: not_found})
    app.state.sessions = sessions
    return app
