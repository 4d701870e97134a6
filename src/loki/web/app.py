"""``loki web``: a small Starlette (ASGI) app to play limit hold'em against bots in a browser and see why each bot
decision was made.

Routes (JSON in and out; every error is ``{"error": "<message naming the input>"}`` with a 4xx status, or a 500
naming only the kind of internal error: never a traceback):

=============================================  =====================================================================
``GET  /``                                     the table page (static HTML + JS, no build step), with the page token
``POST /api/sessions``                         ``{"players": [spec, ...], "seed": 0, "name": "you", "teaching":
                                               false}`` → 201, the new session's snapshot (its ``id`` included)
``GET  /api/sessions/{id}``                    the snapshot (:meth:`loki.web.session.TableSession.snapshot`)
``POST /api/sessions/{id}/action``             ``{"action": "f" | "c" | "r" | "fold" | "check" | ...}`` → snapshot
``POST /api/sessions/{id}/next``               deal the next hand → snapshot
``POST /api/sessions/{id}/teaching``           ``{"on": true}``: explanations live, as each bot decides
``GET  /api/sessions/{id}/hands/{n}``          a finished hand: results and every bot decision's explanation
``GET  /api/sessions/{id}/hands.phhs``         the finished hands as PHH
``WS   /ws/{id}?token=...``                    the same over a WebSocket: send ``{"type": "act", "action": "c"}``,
                                               ``{"type": "next"}``, ``{"type": "teaching", "on": true}`` or
                                               ``{"type": "state"}``; receive ``{"type": "state", "state": {...}}``
                                               or ``{"type": "error", "error": "..."}``
=============================================  =====================================================================

**Who may talk to it** (:class:`WebPolicy`).  A server bound to 127.0.0.1 is still reachable from any web page
the person opens (a cross-site POST, a WebSocket opened by another site, DNS rebinding), so every request is
checked before it reaches a route: its ``Host`` must name the bound address (the address itself, ``localhost``
for a loopback or wildcard address, any IP address for a wildcard one; the bound port), an ``Origin``, when sent,
must be the server's own origin, and every POST and WebSocket must carry the **page token**, a random value made
when the app starts and written into the page (``X-Loki-Token`` header, ``token`` query parameter of the
WebSocket).  Those who serve the page through a proxy name its public origin with ``allow_origin``
(``loki web --allow-origin https://poker.example``): that origin and its host are then accepted too.  A refused
request gets 403 and a JSON error; a refused WebSocket is closed before it opens.

**Limits.**  Request bodies: at most :data:`MAX_BODY` bytes, refused from ``Content-Length`` before reading and by
counting while streaming (a body without a length, or longer than it said), so a huge POST never grows the
server, and whole within :data:`REQUEST_TIMEOUT` seconds (408); WebSocket messages: the same size.  Connections
(idle ones, request heads sent slowly, how many at once) are bounded by how the app is served
(:mod:`loki.web.server`).  JSON: at most :data:`MAX_JSON_DEPTH` nested arrays/objects, checked
before parsing (deeper JSON is a clear 400 error, or an error message on the WebSocket, which stays open).

**Bots a person can wait for.**  A page seats built-in player specs whose decisions are short
(:func:`loki.players.registry.live_table_specs`): an LBR, a Simulator of more than
:data:`loki.players.kinds.LIVE_MAX_TRIALS` trials or a frozen player's warm-up of more than
:data:`loki.players.frozen.LIVE_MAX_WARMUP` hands is refused with a 400 naming the spec.

**A busy session.**  A session does one thing at a time, and a bot's decision can take a moment (a Simulator of
thousands of trials at a full table).  A request to a session that another request is using waits for it at most
:data:`loki.web.session.LOCK_WAIT` seconds, then answers 503 ``session ... is busy: a bot is still deciding, try
again`` (on the WebSocket: an error message with ``"status": 503``) having changed nothing, so that waiting
requests never hold the server's worker threads: other sessions and ``/api/health`` keep answering.  The page
tries again by itself.

Sessions live in the server's memory (at most :data:`MAX_SESSIONS`, the one used least recently dropped); each one's finished
hands are written to ``<out>/loki-web-<id>.phhs`` after every hand, so a closed tab never loses a finished hand,
and reopening the page's address (``/#<id>``) resumes the session while the server runs.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import secrets
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from loki.errors import ConfigError, IllegalActionError, InputError, LokiError
from loki.io.limits import digits
from loki.web import session as web_session
from loki.web.session import SessionBusy, TableSession

__all__ = [
    "create_app",
    "WebPolicy",
    "parse_json",
    "MAX_SESSIONS",
    "MAX_BODY",
    "MAX_JSON_DEPTH",
    "REQUEST_TIMEOUT",
    "TOKEN_HEADER",
]

MAX_SESSIONS = 32
#: Largest request body or WebSocket message accepted, in bytes.
MAX_BODY = 64 * 1024
#: Deepest nesting of JSON arrays and objects accepted (the API's own messages nest 2 deep).
MAX_JSON_DEPTH = 32
#: Seconds a client has to send a whole request head (from connecting, or from its last answer) and, once the head
#: came, a whole request body (:mod:`loki.web.server`, :func:`_body`).
REQUEST_TIMEOUT = 10
#: The header that carries the page token on a POST.
TOKEN_HEADER = "X-Loki-Token"
_STATIC = Path(__file__).parent / "static"
_TOKEN_SLOT = '<meta name="loki-token" content="">'
log = logging.getLogger("loki.web")


class _Refused(LokiError):
    """A request refused before any route (403), or for its body (413: too large, 408: too slow)."""

    def __init__(self, message: str, status: int = 403):
        super().__init__(message)
        self.status = status


# ------------------------------------------------------------------ who may talk to the server


def _split_host(value: str) -> tuple[str, int | None]:
    """``("127.0.0.1", 8000)`` from a Host header ``127.0.0.1:8000``; ``("::1", None)`` from ``[::1]``.

    Raises:
        ValueError: a malformed port or IPv6 bracket.
    """
    value = value.strip().lower()
    if value.startswith("["):
        host, sep, rest = value[1:].partition("]")
        if not sep or (rest and not rest.startswith(":")):
            raise ValueError(value)
        port = rest[1:]
    else:
        host, _, port = value.rpartition(":") if value.count(":") == 1 else (value, "", "")
    if port and not digits(port):
        raise ValueError(value)
    return host, int(port) if port else None


def _ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def _origin(text: str) -> str:
    """An ``--allow-origin`` value checked and normalised (``scheme://host[:port]``, lower case).

    Raises:
        ConfigError: not an http(s) origin (a path, a wildcard, no host).
    """
    try:
        u = urlsplit(text.strip())
        port = u.port
    except ValueError:
        raise ConfigError(f"--allow-origin {text!r}: not an origin such as https://poker.example") from None
    if u.scheme not in ("http", "https") or not u.hostname or u.path not in ("", "/") or u.query or u.fragment:
        raise ConfigError(
            f"--allow-origin {text!r}: expected an origin scheme://host[:port] (http or https, no path, no '*')"
        )
    host = f"[{u.hostname}]" if ":" in u.hostname else u.hostname
    return f"{u.scheme}://{host}" + (f":{port}" if port is not None else "")


@dataclass
class WebPolicy:
    """What the server accepts (module docstring): the bound ``host`` and ``port`` (None: any port), extra
    ``allow_origin`` origins (a proxy's), and the page ``token``.

    Raises:
        ConfigError: a bad ``allow_origin`` (:func:`_origin`).
    """

    host: str = "127.0.0.1"
    port: int | None = None
    allow_origin: Sequence[str] = ()
    token: str = field(default_factory=lambda: secrets.token_urlsafe(24))

    def __post_init__(self) -> None:
        self.allow_origin = tuple(_origin(o) for o in self.allow_origin)
        self._extra_hosts = {urlsplit(o).netloc for o in self.allow_origin}
        bound = self.host.strip("[]").lower()
        ip = _ip(bound)
        self._wildcard = ip is not None and ip.is_unspecified
        self._names = {bound}
        if ip is None or ip.is_loopback or self._wildcard:
            self._names.add("localhost")

    def host_ok(self, value: str | None) -> bool:
        """Whether a ``Host`` header names this server (or a proxy origin's host)."""
        if not value:
            return False
        if value.strip().lower() in self._extra_hosts:
            return True
        try:
            name, port = _split_host(value)
        except ValueError:
            return False
        if self.port is not None and port is not None and port != self.port:
            return False
        return name in self._names or (self._wildcard and _ip(name) is not None)

    def origin_ok(self, origin: str, host: str) -> bool:
        """Whether a browser's ``Origin`` is this server's own (``http(s)://<the Host it asked>``) or allowed."""
        o = origin.strip().lower()
        if o in self.allow_origin:
            return True
        try:
            u = urlsplit(o)
        except ValueError:
            return False
        return u.scheme in ("http", "https") and u.netloc == host.strip().lower() and self.host_ok(u.netloc)

    def check(self, headers: dict[str, str], *, needs_token: bool, token: str | None = None) -> None:
        """Check one request's headers (lower-case names).

        Raises:
            _Refused: a foreign Host or Origin, or a missing or wrong token where one is needed.
        """
        host = headers.get("host", "")
        if not self.host_ok(host):
            where = f"{self.host}:{self.port}" if self.port is not None else self.host
            raise _Refused(
                f"Host {host[:100]!r}: not this server's address ({where}); serving through a proxy? "
                "start loki web with --allow-origin <its origin>"
            )
        origin = headers.get("origin")
        if origin is not None and not self.origin_ok(origin, host):
            raise _Refused(
                f"Origin {origin[:100]!r}: another site may not use this table (allowed: this page's own origin"
                + (", " + ", ".join(self.allow_origin) if self.allow_origin else "")
                + "; --allow-origin adds one)"
            )
        if needs_token:
            given = token if token is not None else headers.get(TOKEN_HEADER.lower())
            if not given or not secrets.compare_digest(given, self.token):
                raise _Refused("missing or wrong page token: reload the page (the server may have restarted)")


class _Guard:
    """ASGI middleware: :meth:`WebPolicy.check` on every HTTP request and WebSocket before the app sees it."""

    def __init__(self, app: Any, policy: WebPolicy):
        self.app = app
        self.policy = policy

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        token = None
        if kind == "websocket":
            token = (parse_qs(scope.get("query_string", b"").decode("latin-1")).get("token") or [""])[0]
        try:
            self.policy.check(headers, needs_token=kind == "websocket" or scope.get("method") == "POST", token=token)
        except _Refused as e:
            if kind == "websocket":  # refused before the handshake completes: the browser sees a 403
                await receive()  # the websocket.connect message
                await send({"type": "websocket.close", "code": 1008, "reason": str(e)[:120]})
                return
            from starlette.responses import JSONResponse

            await JSONResponse({"error": str(e)}, status_code=e.status)(scope, receive, send)
            return
        await self.app(scope, receive, send)


# ------------------------------------------------------------------ bodies and JSON


def _depth_ok(text: str, limit: int) -> bool:
    """Whether the arrays and objects of JSON ``text`` nest at most ``limit`` deep (strings skipped)."""
    depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return False
        elif ch in "]}":
            depth -= 1
    return True


def parse_json(raw: bytes | str, what: str = "request body") -> dict[str, Any]:
    """A JSON object from ``raw`` (an empty body is ``{}``), within :data:`MAX_BODY` and :data:`MAX_JSON_DEPTH`.

    Raises:
        ConfigError: too long, nested too deep, not JSON, or not an object; the message starts with ``what``.
    """
    if len(raw) > MAX_BODY:
        raise ConfigError(f"{what}: {len(raw)} bytes, at most {MAX_BODY}")
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    except UnicodeDecodeError:
        raise ConfigError(f'{what}: not JSON (not UTF-8 text; send e.g. {{"action": "c"}})') from None
    if not text.strip():
        return {}
    if not _depth_ok(text, MAX_JSON_DEPTH):
        raise ConfigError(f"{what}: JSON nested deeper than {MAX_JSON_DEPTH} levels")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise ConfigError(f'{what}: not JSON (send e.g. {{"action": "c"}})') from None
    if not isinstance(data, dict):
        raise ConfigError(f"{what}: expected a JSON object")
    return data


async def _body(request: Any) -> dict[str, Any]:
    """The request's JSON object, refused by ``Content-Length`` before reading and by count while streaming.

    Raises:
        _Refused: more than :data:`MAX_BODY` bytes (413), or not received whole within :data:`REQUEST_TIMEOUT`
            seconds (408).
        ConfigError: not a JSON object (:func:`parse_json`).
    """
    length = request.headers.get("content-length")
    too_big = f"request body: more than {MAX_BODY} bytes (at most {MAX_BODY})"
    if length is not None:
        if not digits(length.strip()):
            raise ConfigError(f"request body: bad Content-Length {length[:40]!r}")
        if int(length) > MAX_BODY:
            raise _Refused(too_big, 413)
    buf = bytearray()
    try:
        async with asyncio.timeout(REQUEST_TIMEOUT):
            async for chunk in request.stream():
                buf += chunk
                if len(buf) > MAX_BODY:
                    raise _Refused(too_big, 413)
    except TimeoutError:
        raise _Refused(f"request body: not received whole within {REQUEST_TIMEOUT} s", 408) from None
    return parse_json(bytes(buf))


# ------------------------------------------------------------------ sessions and routes


class _Sessions:
    def __init__(self, out_dir: Path | None):
        self.out_dir = out_dir
        self.items: OrderedDict[str, TableSession] = OrderedDict()
        self.turns: dict[str, asyncio.Lock] = {}  # per session: the request using it (see run)

    def create(self, body: dict[str, Any]) -> TableSession:
        allowed = {"players", "seed", "name", "teaching"}
        extra = sorted(set(body) - allowed)
        if extra:
            raise ConfigError(f"unknown field(s) {', '.join(extra)}: expected {', '.join(sorted(allowed))}")
        players = body.get("players", ["loki1"])
        if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
            raise ConfigError('players: expected a list of player specs such as ["loki1", "loki2:BR"]')
        for i, p in enumerate(players):  # a page plays built-in specs: a path would let it probe the server's files
            if p.strip().lower().endswith(".toml"):
                raise ConfigError(
                    f"players[{i}]: a player file; the web table plays built-in player specs only (loki1, loki2:BR, "
                    "...)"
                )
        seed = body.get("seed", 0)
        if isinstance(seed, str) and len(seed) <= 40 and digits(seed.strip()):
            seed = int(seed)  # (the session checks the seed's range)
        name = body.get("name", "you")
        if not isinstance(name, str):
            raise ConfigError("name: expected text")
        teaching = body.get("teaching", False)
        if not isinstance(teaching, bool):
            raise ConfigError("teaching: expected true or false")
        from loki.players.registry import built_in_specs_only, live_table_specs

        # nor a player file named inside a spec (a frozen player's, an LBR's opponent), nor a player a person cannot
        # wait for (an LBR, a Simulator of more than LIVE_MAX_TRIALS trials, a long warm-up)
        with built_in_specs_only(), live_table_specs():
            s = TableSession([p.strip() for p in players], seed=seed, name=name, teaching=teaching)
        if self.out_dir is not None:
            s.phh_path = self.out_dir / f"loki-web-{s.id}.phhs"
            s.save()
        self.items[s.id] = s
        self.turns[s.id] = asyncio.Lock()
        while len(self.items) > MAX_SESSIONS:
            self.turns.pop(self.items.popitem(last=False)[0], None)
        return s

    def close_all(self) -> None:
        """Close every table (:meth:`TableSession.close`): the server is stopping."""
        for s in list(self.items.values()):
            s.close()

    def get(self, sid: str) -> TableSession:
        s = self.items.get(sid)
        if s is None:
            raise KeyError(sid)
        self.items.move_to_end(sid)  # the least recently used session is the one a new one drops
        return s

    async def run(self, s: TableSession, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` in the thread pool once no other request is using session ``s``.  A request waits for its
        turn at most :data:`~loki.web.session.LOCK_WAIT` seconds, on the event loop: a waiting request holds no
        thread, so requests to a busy session never starve the others.

        Raises:
            SessionBusy: another request used the session all that time (``fn`` was not run).
            KeyError: the session was dropped (the least recently used of more than :data:`MAX_SESSIONS`) since the request
                found it (404).
        """
        from starlette.concurrency import run_in_threadpool

        turn = self.turns.get(s.id)
        if turn is None:
            raise KeyError(s.id)
        try:
            async with asyncio.timeout(web_session.LOCK_WAIT):
                await turn.acquire()
        except TimeoutError:
            raise SessionBusy.of(s.id) from None
        try:
            return await run_in_threadpool(fn, *args)
        finally:
            turn.release()


def _error(status: int, message: str) -> Any:
    from starlette.responses import JSONResponse

    return JSONResponse({"error": message}, status_code=status)


def _status(e: BaseException) -> int:
    if isinstance(e, _Refused):
        return e.status
    if isinstance(e, KeyError):
        return 404
    if isinstance(e, IllegalActionError):
        return 409
    if isinstance(e, SessionBusy):
        return 503
    if isinstance(e, (LokiError, ValueError)):
        return 400
    return 500


def _message(e: BaseException) -> str:
    if isinstance(e, KeyError):
        return f"no session {str(e.args[0])[:60]!r} (it may have ended when the server restarted): start a new one"
    if _status(e) == 500:
        log.error("internal error: %s: %s", type(e).__name__, e)
        return f"internal error ({type(e).__name__}); the table is unchanged where it could be"
    return " ".join(str(e).split())


def _get_state(s: TableSession, body: dict, request: Any) -> Any:
    return s.snapshot()


def _act(s: TableSession, body: dict, request: Any) -> Any:
    a = body.get("action")
    if not isinstance(a, str):
        raise ConfigError('action: expected "f", "c" or "r" (or fold, check, call, bet, raise)')
    s.act(a)
    return s.snapshot()


def _next_hand(s: TableSession, body: dict, request: Any) -> Any:
    s.next_hand()
    return s.snapshot()


def _teaching(s: TableSession, body: dict, request: Any) -> Any:
    on = body.get("on")
    if not isinstance(on, bool):
        raise ConfigError("on: expected true or false")
    s.teaching = on
    return s.snapshot()


def _past(s: TableSession, body: dict, request: Any) -> Any:
    raw = request.path_params["n"]
    if not digits(raw) or len(raw) > 9:
        raise ConfigError(f"hand {raw[:20]!r}: expected a hand number")
    return s.past_hand(int(raw))


def _phh(s: TableSession, body: dict, request: Any) -> Any:
    from starlette.responses import PlainTextResponse

    return PlainTextResponse(
        s.phh_text(), headers={"Content-Disposition": f'attachment; filename="loki-web-{s.id}.phhs"'}
    )


def _session_route(fn: Callable[[TableSession, dict, Any], Any]) -> Callable:
    """An endpoint running ``fn(session, body, request)`` in the thread pool in the session's turn
    (:meth:`_Sessions.run`); every error becomes JSON."""

    async def handler(request: Any) -> Any:
        from starlette.responses import JSONResponse, Response

        try:
            sessions = request.app.state.sessions
            s = sessions.get(request.path_params["sid"])
            body = await _body(request) if request.method == "POST" else {}
            result = await sessions.run(s, fn, s, body, request)
        except Exception as e:  # noqa: BLE001 - every error is a JSON answer, never a traceback
            return _error(_status(e), _message(e))
        return result if isinstance(result, Response) else JSONResponse(result)

    return handler


async def _index(request: Any) -> Any:
    from starlette.responses import HTMLResponse

    return HTMLResponse(request.app.state.page, headers={"Cache-Control": "no-store"})


async def _create(request: Any) -> Any:
    from starlette.concurrency import run_in_threadpool
    from starlette.responses import JSONResponse

    try:
        body = await _body(request)
        s = await run_in_threadpool(request.app.state.sessions.create, body)
        snap = await run_in_threadpool(s.snapshot)
    except Exception as e:  # noqa: BLE001 - every error is a JSON answer, never a traceback
        return _error(_status(e), _message(e))
    return JSONResponse(snap, status_code=201)


async def _health(request: Any) -> Any:
    from starlette.responses import JSONResponse

    return JSONResponse({"ok": True, "sessions": len(request.app.state.sessions.items)})


#: What each WebSocket message ``type`` runs (each returns the snapshot).
_WS_KINDS: dict[str, Callable[[TableSession, dict, Any], Any]] = {
    "act": _act,
    "next": _next_hand,
    "teaching": _teaching,
    "state": _get_state,
}


async def _ws_answer(sessions: _Sessions, sid: str, message: dict) -> dict[str, Any]:
    """The answer to one WebSocket message: ``{"type": "state", ...}`` or ``{"type": "error", ...}``."""
    try:
        text = message.get("text")
        if text is None:
            data = message.get("bytes") or b""
        else:
            data = text
        msg = parse_json(data, "message")
        s = sessions.get(sid)
        kind = msg.get("type")
        fn = _WS_KINDS.get(kind) if isinstance(kind, str) else None
        if fn is None:
            raise ConfigError(f"type {str(kind)[:40]!r}: expected act, next, teaching or state")
        return {"type": "state", "state": await sessions.run(s, fn, s, msg, None)}
    except Exception as e:  # noqa: BLE001 - an error answers the message; the socket stays open
        return {"type": "error", "status": _status(e), "error": _message(e)}


async def _ws(websocket: Any) -> None:
    from starlette.websockets import WebSocketDisconnect

    await websocket.accept()
    sid = websocket.path_params["sid"]
    sessions = websocket.app.state.sessions
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
        answer = await _ws_answer(sessions, sid, message)
        try:
            await websocket.send_json(answer)
        except (WebSocketDisconnect, RuntimeError, OSError):  # the page went away while we answered: nothing to tell
            return


async def _failed(request: Any, exc: Exception) -> Any:
    from starlette.exceptions import HTTPException

    if isinstance(exc, HTTPException):
        msg = "no such page" if exc.status_code == 404 else str(exc.detail)
        return _error(exc.status_code, f"{request.method} {request.url.path[:100]}: {msg}")
    return _error(500, _message(exc))


def _out_folder(out_dir: str | Path | None) -> Path | None:
    """``out_dir`` created and checked writable (None stays None).

    Raises:
        OutputPathError: it cannot be created or written.
    """
    if out_dir is None:
        return None
    import tempfile

    from loki.errors import OutputPathError
    from loki.io.outpath import make_folder

    out = make_folder(out_dir, "--out")  # a real folder, never a symbolic link
    try:
        with tempfile.TemporaryFile(dir=out):  # a new file of its own (never one already there)
            pass
    except OSError as e:
        raise OutputPathError(f"--out {out}: cannot write there ({e.strerror or e})") from None
    return out


def create_app(
    out_dir: str | Path | None = None,
    *,
    host: str = "127.0.0.1",
    port: int | None = None,
    allow_origin: Sequence[str] = (),
) -> Any:
    """The Starlette application, behind the :class:`WebPolicy` guard (module docstring).

    Args:
        out_dir: folder for the sessions' PHH files (created if missing); None: hands are kept in memory only.
        host, port: the address the server is bound to (``port`` None: any port is accepted in ``Host``).
        allow_origin: origins that may use the table besides the page's own (a proxy's public origin).

    Returns:
        the ASGI app; ``app.state.policy`` holds the :class:`WebPolicy` (its ``token`` is in the page).

    Raises:
        OutputPathError: ``out_dir`` cannot be created or written.
        ConfigError: a bad ``allow_origin`` or ``port``.
    """
    from starlette.applications import Starlette
    from starlette.exceptions import HTTPException
    from starlette.middleware import Middleware
    from starlette.routing import Mount, Route, WebSocketRoute
    from starlette.staticfiles import StaticFiles

    if port is not None and not (isinstance(port, int) and 0 <= port <= 65535):
        raise InputError(f"port {port!r}: expected 0..65535")
    policy = WebPolicy(host, port, allow_origin)
    routes = [
        Route("/", _index),
        Route("/api/health", _health),
        Route("/api/sessions", _create, methods=["POST"]),
        Route("/api/sessions/{sid}", _session_route(_get_state)),
        Route("/api/sessions/{sid}/action", _session_route(_act), methods=["POST"]),
        Route("/api/sessions/{sid}/next", _session_route(_next_hand), methods=["POST"]),
        Route("/api/sessions/{sid}/teaching", _session_route(_teaching), methods=["POST"]),
        Route("/api/sessions/{sid}/hands.phhs", _session_route(_phh)),
        Route("/api/sessions/{sid}/hands/{n}", _session_route(_past)),
        WebSocketRoute("/ws/{sid}", _ws),
        Mount("/static", StaticFiles(directory=_STATIC), name="static"),
    ]
    app = Starlette(
        routes=routes,
        exception_handlers={HTTPException: _failed, Exception: _failed},
        middleware=[Middleware(_Guard, policy=policy)],
    )
    app.state.sessions = _Sessions(_out_folder(out_dir))
    app.state.policy = policy
    page = (_STATIC / "index.html").read_text(encoding="utf-8")
    app.state.page = page.replace(_TOKEN_SLOT, f'<meta name="loki-token" content="{policy.token}">')
    return app
