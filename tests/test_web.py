"""loki web without a browser: the table session and the Starlette app's JSON API and WebSocket."""

from __future__ import annotations

import warnings

import pytest

with warnings.catch_warnings():  # newer Starlette asks for httpx2; httpx works the same here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect

from loki.errors import ConfigError, IllegalActionError, InputError, PlayerSpecError
from loki.io.phh import read_phh
from loki.players.registry import make_player
from loki.web import session as web_session
from loki.web.app import MAX_BODY, MAX_JSON_DEPTH, TOKEN_HEADER, create_app
from loki.web.session import TableSession


def _play_out(s: TableSession, action: str = "c") -> None:
    while not s.hand_over:
        s.act(action)


def test_session_plays_hands_and_saves_each(tmp_path):
    path = tmp_path / "s.phhs"
    s = TableSession(["calling", "loki1"], seed=3, phh_path=path)
    snap = s.snapshot()
    assert snap["n_players"] == 3 and snap["hand"] == 1 and not snap["hand_over"]
    assert {p["position"] for p in snap["seats"]} == {"BTN", "SB", "BB"}
    assert snap["seats"][0]["cards"] and all(p["cards"] is None for p in snap["seats"][1:])  # bots' cards hidden
    assert snap["explanations"] == []  # not in teaching mode: after the hand
    for h in range(3):
        _play_out(s)
        snap = s.snapshot()
        assert snap["hand_over"] and snap["result"]["hand"] == h + 1
        assert len(read_phh(path)) == h + 1  # written after every hand
        assert snap["result"]["results"] and any(
            "wins" in t or "split" in t or "win " in t for t in snap["result"]["results"]
        )
        bots_acted = [ln for ln in snap["log"] if ln["seat"] in (2, 3) and ln["verb"] != "posts"]
        assert len(snap["explanations"]) == len(bots_acted)
        if snap["result"]["showdown"]:
            shown = snap["result"]["shown"]
            assert all(v["hand"] for v in shown.values())
            for seat, v in shown.items():  # seats numbered from 1
                assert snap["seats"][int(seat) - 1]["cards"] == v["cards"] and snap["seats"][int(seat) - 1][
                    "seat"
                ] == int(seat)
        s.next_hand()
    assert s.snapshot()["session"]["hands"] == 3
    assert sum(s.chips) == pytest.approx(0.0)
    assert s.past_hand(2)["hand"] == 2
    with pytest.raises(ConfigError, match="hand 9"):
        s.past_hand(9)


def test_session_rejects_bad_input():
    with pytest.raises(PlayerSpecError, match=r"players\[1\]"):
        TableSession(["loki1", "nobody"])
    with pytest.raises(ConfigError, match="1..9"):
        TableSession([])
    with pytest.raises(ConfigError, match="1..9"):
        TableSession(["calling"] * 10)
    with pytest.raises(ConfigError, match="seed"):
        TableSession(["calling"], seed=-1)
    s = TableSession(["calling"], seed=0)
    with pytest.raises(InputError, match="invalid action 'x'"):  # bad input (400), not an illegal move (409)
        s.act("x")
    with pytest.raises(IllegalActionError, match="not over"):
        s.next_hand()
    _play_out(s)
    with pytest.raises(IllegalActionError, match="hand is over"):
        s.act("c")


def test_session_file_is_appended_and_reads_back(tmp_path, monkeypatch):
    """Each hand is appended (the file is the download's text at every step), a name that TOML must escape reads back,
    a name with a line break is refused, a failed write is retried with the hands it missed, and a table stops at
    MAX_HANDS hands."""
    import loki.web.session as session

    with pytest.raises(ConfigError, match="printable"):
        TableSession(["calling"], name="you\nx = 1")
    path = tmp_path / "missing" / "s.phhs"  # its folder does not exist yet: the first writes fail
    s = TableSession(["calling", "random"], seed=5, name="o'''brien", phh_path=path)
    monkeypatch.setattr(session, "MAX_HANDS", 4)
    for h in range(4):
        if h == 2:
            path.parent.mkdir()
        _play_out(s)
        if h < 2:
            assert s.save_error and "cannot write" in s.save_error and not path.exists()
        else:
            assert s.save_error is None and path.read_text() == s.phh_text()
            recs = read_phh(path)
            assert [r.hand_id for r in recs] == list(range(1, h + 2))
            assert all("o'''brien" in r.names for r in recs)
        if h < 3:
            s.next_hand()
    with pytest.raises(IllegalActionError, match="4 hands"):
        s.next_hand()


def test_teaching_mode_shows_explanations_live():
    s = TableSession(["loki1", "loki1"], seed=1, teaching=True)
    for _ in range(30):
        snap = s.snapshot()
        bots_acted = [ln for ln in snap["log"] if ln["seat"] in (2, 3) and ln["verb"] != "posts"]
        if not snap["hand_over"]:
            assert len(snap["explanations"]) == len(bots_acted)
            s.act("c")
        else:
            s.next_hand()


def test_fold_result_and_raise_totals():
    s = TableSession(["calling"], seed=2)
    assert s.state.current_player == 0  # heads-up the button (the person, hand 1) acts first pre-flop
    snap = s.snapshot()
    assert [a["label"] for a in snap["legal"]] == ["Fold", "Call 5", "Raise to 20"]
    s.act("r")
    snap = s.snapshot()
    assert [ln["text"] for ln in snap["log"] if ln["seat"] == 1][-1] == "raises to 20"
    while s.state.round == 0:
        s.act("c")
    assert s.state.current_player == 0 or s.hand_over
    while not s.hand_over:  # the calling station only calls: bet, then fold to nothing -- fold when facing a bet
        legal = [a["action"] for a in s.snapshot()["legal"]]
        s.act("f" if "f" in legal else "r")
    snap = s.snapshot()
    assert snap["hand_over"] and snap["result"]["payoffs"][0] != 0


ORIGIN = "http://127.0.0.1:8000"
WS = "ws://127.0.0.1:8000"


@pytest.fixture()
def client(tmp_path):
    """A client of the app as its page talks to it: the bound address as Host, the page token on every POST."""
    app = create_app(tmp_path / "out", host="127.0.0.1", port=8000)
    with TestClient(app, base_url=ORIGIN) as c:
        c.headers[TOKEN_HEADER] = app.state.policy.token
        yield c


def test_api_flow_and_errors(client, tmp_path):
    assert client.get("/").status_code == 200 and "Loki" in client.get("/").text
    assert client.get("/static/app.js").status_code == 200
    r = client.post("/api/sessions", json={"players": ["calling", "loki1"], "seed": 4})
    assert r.status_code == 201
    snap = r.json()
    sid = snap["id"]
    assert client.get(f"/api/sessions/{sid}").json()["id"] == sid
    while not snap["hand_over"]:
        r = client.post(f"/api/sessions/{sid}/action", json={"action": "call" if snap["to_call"] else "check"})
        assert r.status_code == 200, r.text
        snap = r.json()
    assert snap["result"]["results"] and snap["session"]["hands"] == 1
    files = list((tmp_path / "out").glob("*.phhs"))
    assert len(files) == 1 and len(read_phh(files[0])) == 1
    phh = client.get(f"/api/sessions/{sid}/hands.phhs")
    assert phh.status_code == 200 and "actions" in phh.text
    past = client.get(f"/api/sessions/{sid}/hands/1").json()
    assert past["hand"] == 1 and "explanations" in past
    # errors are JSON naming the input
    cases = [
        (client.post("/api/sessions", json={"players": ["nobody"]}), 400, "players[0]"),
        (client.post("/api/sessions", json={"players": []}), 400, "1..9"),
        (client.post("/api/sessions", json={"players": "loki1"}), 400, "players"),
        (client.post("/api/sessions", json={"players": ["loki1"], "seed": "abc"}), 400, "seed"),
        (client.post("/api/sessions", json={"bots": 3}), 400, "unknown field"),
        (client.post("/api/sessions", content=b"{nope"), 400, "not JSON"),
        (client.post("/api/sessions", content=b"[1]"), 400, "JSON object"),
        (client.post(f"/api/sessions/{sid}/action", json={"action": "c"}), 409, "hand is over"),
        (client.post(f"/api/sessions/{sid}/action", json={}), 400, "action"),
        (client.post(f"/api/sessions/{sid}/action", json={"action": "zz"}), 400, "zz"),
        (client.get("/api/sessions/nope"), 404, "no session"),
        (client.get(f"/api/sessions/{sid}/hands/7"), 400, "hand 7"),
        (client.get("/nowhere"), 404, "no such page"),
        (client.post("/api/sessions", content=b"x" * 70000), 413, "at most"),
    ]
    for r, status, text in cases:
        assert r.status_code == status, (r.status_code, r.text)
        assert text in r.json()["error"], r.json()
    r = client.post(f"/api/sessions/{sid}/next")
    assert r.status_code == 200 and r.json()["hand"] == 2
    r = client.post(f"/api/sessions/{sid}/next")
    assert r.status_code == 409 and "not over" in r.json()["error"]
    r = client.post(f"/api/sessions/{sid}/teaching", json={"on": "yes"})
    assert r.status_code == 400 and "on" in r.json()["error"]
    assert client.post(f"/api/sessions/{sid}/teaching", json={"on": True}).json()["teaching"] is True


def test_a_page_seats_only_bots_a_person_can_wait_for(client):
    """An LBR, a Simulator of more trials than LIVE_MAX_TRIALS (at any depth of a spec) and a frozen player's long
    warm-up are refused with a 400 naming the seat and the reason; the same kinds within the limits sit down."""
    from loki.players.frozen import LIVE_MAX_WARMUP
    from loki.players.kinds import LIVE_MAX_TRIALS

    refused = [
        ("loki2:BRS:trials=100000", "at most 5000 Simulator trials at a live table"),
        ("lbr:loki1", "an LBR plays out every holding"),
        (f"frozen:loki2:S:trials={LIVE_MAX_TRIALS + 1}", f"trials={LIVE_MAX_TRIALS + 1}: at most"),
        (f'frozen{{"player": "loki1", "warmup": {LIVE_MAX_WARMUP + 1}}}', f"at most {LIVE_MAX_WARMUP} warm-up hands"),
    ]
    for spec, why in refused:
        r = client.post("/api/sessions", json={"players": ["calling", spec]})
        assert r.status_code == 400 and "players[1]" in r.json()["error"] and why in r.json()["error"], r.text
    r = client.post("/api/sessions", json={"players": [f"loki2:BRS:trials={LIVE_MAX_TRIALS}", "frozen:loki1"]})
    assert r.status_code == 201, r.text
    # the limit is the web table's: the same spec is a player anywhere else
    assert make_player("lbr:loki1").name and make_player("loki2:BRS:trials=100000").name


def test_websocket(client):
    sid = client.post("/api/sessions", json={"players": ["calling"], "seed": 1}).json()["id"]
    token = client.headers[TOKEN_HEADER]
    with client.websocket_connect(f"{WS}/ws/{sid}?token={token}") as ws:
        ws.send_json({"type": "state"})
        m = ws.receive_json()
        assert m["type"] == "state" and m["state"]["id"] == sid
        ws.send_json({"type": "dance"})
        m = ws.receive_json()
        assert m["type"] == "error" and "dance" in m["error"]
        ws.send_text("{nope")
        assert "not JSON" in ws.receive_json()["error"]
        ws.send_json({"type": "next"})
        assert ws.receive_json()["status"] == 409
        for _ in range(20):
            ws.send_json({"type": "act", "action": "c"})
            m = ws.receive_json()
            if m["type"] == "state" and m["state"]["hand_over"]:
                break
        assert m["state"]["hand_over"]
    with client.websocket_connect(f"{WS}/ws/nope?token={token}") as ws:
        ws.send_json({"type": "state"})
        assert ws.receive_json()["status"] == 404


def test_a_session_busy_with_a_bot_answers_503_and_the_rest_still_answers(client, monkeypatch):
    """While a bot decides, a request to its session waits at most LOCK_WAIT seconds, holding no server thread, then
    answers 503 having changed nothing: a crowd of such requests (more than the thread pool's 40 threads) does not
    slow other sessions or /api/health down."""
    import threading
    import time

    import loki.web.session as session

    monkeypatch.setattr(session, "LOCK_WAIT", 1.5)
    sid = client.post("/api/sessions", json={"players": ["calling"], "seed": 2}).json()["id"]
    other = client.post("/api/sessions", json={"players": ["calling"], "seed": 3}).json()["id"]
    bot = client.app.state.sessions.get(sid).bots[0]
    deciding, decide = threading.Event(), threading.Event()
    act = bot.act

    def slow(view, legal):  # a bot that thinks until told
        deciding.set()
        decide.wait(10)
        return act(view, legal)

    bot.act = slow
    threading.Timer(6.0, decide.set).start()  # at the latest: a request that waits for the bot fails its check
    done: list = []

    def post_call():
        done.append(client.post(f"/api/sessions/{sid}/action", json={"action": "c"}))

    acting = threading.Thread(target=post_call)
    acting.start()  # the person calls; the bot (the big blind) decides
    crowd = [threading.Thread(target=lambda: client.get(f"/api/sessions/{sid}")) for _ in range(45)]
    try:
        assert deciding.wait(5)
        for th in crowd:
            th.start()
        time.sleep(0.3)  # the crowd is waiting for the session
        t0 = time.monotonic()
        assert client.get(f"/api/sessions/{other}").status_code == 200
        assert client.get("/api/health").json()["ok"] is True
        assert time.monotonic() - t0 < 1.0  # not behind the crowd
        t0 = time.monotonic()
        r = client.get(f"/api/sessions/{sid}")
        assert r.status_code == 503 and "is busy: a bot is still deciding, try again" in r.json()["error"], r.text
        assert time.monotonic() - t0 < 4.0
        r = client.post(f"/api/sessions/{sid}/action", json={"action": "c"})
        assert r.status_code == 503 and "busy" in r.json()["error"]
        with client.websocket_connect(f"{WS}/ws/{sid}?token={client.headers[TOKEN_HEADER]}") as ws:
            ws.send_json({"type": "state"})
            m = ws.receive_json()
            assert m["type"] == "error" and m["status"] == 503 and "busy" in m["error"]
    finally:
        decide.set()
        acting.join(10)
        for th in crowd:
            th.join(10)
    assert done[0].status_code == 200  # the person's call went through once: the refused one changed nothing
    assert [ln["text"] for ln in done[0].json()["log"] if ln["seat"] == 1] == ["posts the small blind 5", "calls 5"]
    assert client.get(f"/api/sessions/{sid}").status_code == 200


def test_unwritable_out_dir(tmp_path):
    from loki.errors import OutputPathError

    f = tmp_path / "file"
    f.write_text("")
    with pytest.raises(OutputPathError, match="--out"):
        create_app(f / "sub")


def test_cli_web_binds_loopback_and_prints_the_port():
    from loki.cli.web import bind_socket

    sock = bind_socket("127.0.0.1", 0)
    try:
        assert sock.getsockname()[0] == "127.0.0.1" and sock.getsockname()[1] > 0
        with pytest.raises(ConfigError, match="cannot listen"):
            bind_socket("127.0.0.1", sock.getsockname()[1])
    finally:
        sock.close()
    with pytest.raises(ConfigError, match="--host"):
        bind_socket("no.such.host.invalid", 0)


# ------------------------------------------------------------------ who may talk to the table, limits


def test_foreign_origins_hosts_and_tokenless_requests_are_refused(client):
    token = client.headers[TOKEN_HEADER]
    body = {"players": ["calling"]}
    # a cross-origin POST, a DNS-rebound Host, a POST without the page token: 403, JSON, no session made
    r = client.post("/api/sessions", json=body, headers={"Origin": "http://attacker.example"})
    assert r.status_code == 403 and "Origin 'http://attacker.example'" in r.json()["error"]
    r = client.get("/", headers={"Host": "attacker.example"})
    assert r.status_code == 403 and "Host 'attacker.example'" in r.json()["error"]
    r = client.post("/api/sessions", json=body, headers={"Host": "attacker.example:8000", "Origin": ORIGIN})
    assert r.status_code == 403
    r = client.post("/api/sessions", json=body, headers={TOKEN_HEADER: "guess"})
    assert r.status_code == 403 and "page token" in r.json()["error"]
    assert client.get("/api/health").json()["sessions"] == 0
    # the page itself carries the token; the server's own origin (and localhost) may POST
    assert f'<meta name="loki-token" content="{token}">' in client.get("/").text
    r = client.post("/api/sessions", json=body, headers={"Origin": ORIGIN})
    assert r.status_code == 201
    sid = r.json()["id"]
    r = client.post(f"/api/sessions/{sid}/teaching", json={"on": True}, headers={"Host": "localhost:8000"})
    assert r.status_code == 200
    # WebSockets: a foreign origin, a foreign Host or no token never open
    for url, headers in (
        (f"{WS}/ws/{sid}?token={token}", {"Origin": "http://attacker.example"}),
        (f"ws://attacker.example:8000/ws/{sid}?token={token}", {}),
        (f"{WS}/ws/{sid}", {}),
        (f"{WS}/ws/{sid}?token=nope", {"Origin": ORIGIN}),
    ):
        with pytest.raises(WebSocketDisconnect) as e:
            with client.websocket_connect(url, headers=headers) as ws:
                ws.send_json({"type": "act", "action": "c"})
        assert e.value.code == 1008
    assert client.get(f"/api/sessions/{sid}").json()["log"][-1]["verb"] == "posts"  # no action was taken


def test_allow_origin_admits_a_proxy(tmp_path):
    from loki.errors import ConfigError

    app = create_app(None, host="127.0.0.1", port=8000, allow_origin=["https://poker.example"])
    with TestClient(app, base_url="https://poker.example") as c:
        headers = {"Origin": "https://poker.example", TOKEN_HEADER: app.state.policy.token}
        assert c.post("/api/sessions", json={"players": ["calling"]}, headers=headers).status_code == 201
        r = c.post("/api/sessions", json={}, headers={**headers, "Origin": "https://other.example"})
        assert r.status_code == 403
    for bad in ("*", "poker.example", "https://poker.example/path", "ftp://x.example"):
        with pytest.raises(ConfigError, match="--allow-origin"):
            create_app(None, allow_origin=[bad])
    from typer.testing import CliRunner

    from loki.cli import app as cli

    r = CliRunner().invoke(cli, ["web", "--port", "0", "--allow-origin", "*"])
    assert r.exit_code == 2 and r.output.startswith("error: --allow-origin '*'")


def test_deep_json_is_a_clear_error_over_http_and_websocket(client):
    r = client.post("/api/sessions", content=b"[" * 60_000)  # within the body limit, deeper than any parser's stack
    assert r.status_code == 400 and f"nested deeper than {MAX_JSON_DEPTH}" in r.json()["error"]
    r = client.post("/api/sessions", content=b'{"players": ' + b"[" * 40 + b"]" * 40 + b"}")
    assert r.status_code == 400 and "nested deeper" in r.json()["error"]
    sid = client.post("/api/sessions", json={"players": ["calling"]}).json()["id"]
    token = client.headers[TOKEN_HEADER]
    with client.websocket_connect(f"{WS}/ws/{sid}?token={token}") as ws:
        ws.send_text("[" * 60_000)
        m = ws.receive_json()
        assert m["type"] == "error" and m["status"] == 400 and "nested deeper" in m["error"]
        ws.send_text('{"type": "state", "x": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}')  # brackets in a string
        assert ws.receive_json()["type"] == "state"  # the socket stays open
        ws.send_text("x" * (MAX_BODY + 1))
        m = ws.receive_json()
        assert m["type"] == "error" and f"at most {MAX_BODY}" in m["error"]


class _Served:
    """The app on a real loopback socket, served as ``loki web`` serves it (its uvicorn config) in a thread."""

    def __init__(self):
        import threading
        import time

        import uvicorn

        from loki.cli.web import bind_socket
        from loki.web.server import serve, server_config

        self.sock = bind_socket("127.0.0.1", 0)
        self.port = self.sock.getsockname()[1]
        self.app = create_app(None, host="127.0.0.1", port=self.port)
        self.token = self.app.state.policy.token
        self.server = uvicorn.Server(server_config(self.app))
        self.thread = threading.Thread(target=serve, args=(self.server, self.sock), daemon=True)
        self.thread.start()
        for _ in range(200):
            if self.server.started:
                break
            time.sleep(0.05)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.sock.close()


@pytest.fixture()
def served():
    """The app on a real loopback socket (uvicorn in a thread), for raw HTTP: ``(port, token)``."""
    s = _Served()
    yield s.port, s.token
    s.stop()


def _raw(port: int, head: bytes, chunks=(), timeout: float = 20.0) -> bytes:
    import socket

    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    try:
        s.sendall(head)
        try:
            for c in chunks:
                s.sendall(c)
        except OSError:  # the server answered and closed while we were still sending
            pass
        data = b""
        while b"\r\n\r\n" not in data or not data.rstrip().endswith(b"}"):
            got = s.recv(65536)
            if not got:
                break
            data += got
        return data
    finally:
        s.close()


def test_a_huge_body_is_refused_before_it_is_read(served):
    """A 300 MiB POST: refused from its Content-Length at once (no byte of the body is sent), and a body without a
    length is counted as it streams: the server never holds more than its limit."""
    import tracemalloc

    port, token = served
    head = (
        f"POST /api/sessions HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{TOKEN_HEADER}: {token}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {300 << 20}\r\n\r\n"
    ).encode()
    answer = _raw(port, head)
    assert answer.startswith(b"HTTP/1.1 413") and b"at most 65536" in answer
    chunk = b"10000\r\n" + b" " * 0x10000 + b"\r\n"  # 64 KiB chunks of JSON white space
    head = (
        f"POST /api/sessions HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{TOKEN_HEADER}: {token}\r\n"
        "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
    ).encode()
    tracemalloc.start()
    try:
        answer = _raw(port, head, (chunk for _ in range(1600)))  # 100 MiB offered
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert answer.startswith(b"HTTP/1.1 413") and b"at most 65536" in answer
    assert peak < 16 << 20, peak


def _closed_within(s, seconds: float) -> float:
    """Seconds until the server closes socket ``s`` (reading what it sends); fails after ``seconds``."""
    import time

    t0 = time.monotonic()
    s.settimeout(seconds)
    while s.recv(4096):
        pass
    return time.monotonic() - t0


def test_idle_and_slow_connections_are_closed_and_their_number_capped(served, monkeypatch):
    """A connection that sends nothing, or trickles a request head (also after an answer on a kept-alive connection),
    is closed REQUEST_TIMEOUT seconds on; a body that does not come whole in time is answered 408; a request while
    MAX_CONNECTIONS connections are open is answered 503; an open WebSocket is not closed by the head deadline."""
    import json
    import socket
    import threading
    import time

    import loki.web.app as web_app
    import loki.web.server as web_server

    port, token = served
    monkeypatch.setattr(web_app, "REQUEST_TIMEOUT", 0.5)
    host = f"Host: 127.0.0.1:{port}\r\n".encode()
    get = b"GET /api/health HTTP/1.1\r\n" + host + b"\r\n"

    def trickle(s, stop):  # one header byte at a time
        try:
            while not stop.is_set():
                s.sendall(b"X")
                time.sleep(0.05)
        except OSError:
            pass

    idle = socket.create_connection(("127.0.0.1", port))
    slow = socket.create_connection(("127.0.0.1", port))
    kept = socket.create_connection(("127.0.0.1", port))
    stop = threading.Event()
    try:
        slow.sendall(b"GET /api/health HTTP/1.1\r\n" + host + b"X-Slow: ")
        kept.sendall(get)
        assert kept.recv(4096).startswith(b"HTTP/1.1 200")  # answered; the connection is kept alive
        kept.sendall(b"GET /api/health HTTP/1.1\r\nX-Slow: ")
        threads = [threading.Thread(target=trickle, args=(s, stop)) for s in (slow, kept)]
        for th in threads:
            th.start()
        for s in (idle, slow, kept):
            assert _closed_within(s, 5) < 3
    finally:
        stop.set()
        for s in (idle, slow, kept):
            s.close()
    post = (
        f"POST /api/sessions HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{TOKEN_HEADER}: {token}\r\n"
        "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"
    ).encode()
    t0 = time.monotonic()
    answer = _raw(port, post, timeout=5)
    assert answer.startswith(b"HTTP/1.1 408") and b"not received whole within 0.5 s" in answer, answer
    assert time.monotonic() - t0 < 3
    # the cap: with MAX_CONNECTIONS connections open (the asking one included), a request is answered 503 at once
    monkeypatch.setattr(web_app, "REQUEST_TIMEOUT", 30)
    crowd = [socket.create_connection(("127.0.0.1", port)) for _ in range(web_server.MAX_CONNECTIONS - 1)]
    try:
        time.sleep(0.3)
        assert _raw(port, get, timeout=5).startswith(b"HTTP/1.1 503")
    finally:
        for s in crowd:
            s.close()
    time.sleep(0.3)
    assert _raw(port, get, timeout=5).startswith(b"HTTP/1.1 200")
    # a WebSocket outlives the head deadline
    from websockets.sync.client import connect

    monkeypatch.setattr(web_app, "REQUEST_TIMEOUT", 0.5)
    with connect(f"ws://127.0.0.1:{port}/ws/nope?token={token}", open_timeout=5) as ws:
        time.sleep(1.5)
        ws.send('{"type": "state"}')
        assert json.loads(ws.recv(timeout=5))["status"] == 404  # no such session, and the socket still open


def test_showdowns_name_the_kicker_that_decides():
    from loki.io.tableview import shown_hand_names

    s = TableSession(["calling"], seed=110)  # both play the board's two pair; the kicker decides
    _play_out(s)
    snap = s.snapshot()
    hands = {v["hand"] for v in snap["result"]["shown"].values()}
    assert hands == {"two pair, Sevens and Fives, Nine kicker", "two pair, Sevens and Fives, Ace kicker"}
    assert snap["result"]["results"] == ["calling-2 wins the pot, 20 chips with two pair, Sevens and Fives, Ace kicker"]
    from loki.evaluator import evaluate

    a, b = evaluate("KdKc7s6h2c"), evaluate("KsKh9c6d3c")
    assert shown_hand_names({0: a, 1: evaluate("AsAh2c3d4h")}) == {0: "pair of Kings", 1: "pair of Aces"}
    assert shown_hand_names({0: a, 1: b})[1] == "pair of Kings, kickers Nine, Six, Three"


def test_session_appends_one_hand_per_write_and_cuts_back_a_failed_one(tmp_path, monkeypatch):
    """After the first hand each save opens the file to append and writes one hand (not the whole session again); a
    write that fails partway is cut back to the last whole hand and retried with the next one."""
    import loki.io.outpath as outpath

    path = tmp_path / "s.phhs"
    s = TableSession(["calling"], seed=2, phh_path=path)
    writes: list[tuple[str, int]] = []
    fail = {"now": False}

    class Tracked:
        def __init__(self, f, mode):
            self.f, self.mode = f, mode

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.f.close()

        def tell(self):
            return self.f.tell()

        def write(self, text):
            writes.append((self.mode, text.count("\n[") + text.startswith("[")))
            if fail["now"]:
                self.f.write(text[: len(text) // 2])
                self.f.flush()
                raise OSError(28, "No space left on device")
            return self.f.write(text)

    real = outpath.open_output
    monkeypatch.setattr(
        outpath, "open_output", lambda p, what, append=False: Tracked(real(p, what, append=append), "wa"[append])
    )
    for h in range(4):
        fail["now"] = h == 2
        _play_out(s)
        if h == 2:
            assert "No space left" in s.save_error
            whole = s.phh_text().split("\n[3]\n")[0]  # the first two hands, as the download writes them
            assert path.read_text() == whole and len(read_phh(path)) == 2  # cut back to the last whole hand
        else:
            assert s.save_error is None and path.read_text() == s.phh_text()
        if h < 3:
            s.next_hand()
    assert writes == [("w", 1), ("a", 1), ("a", 1), ("a", 2)]  # the failed hand is written again with the next
    assert [r.hand_id for r in read_phh(path)] == [1, 2, 3, 4]


def test_the_setup_page_names_the_fitted_set_each_spec_plays():
    """The setup page's suggested specs say which fitted set they play, and it is the one the spec plays now
    (:func:`loki.players.registry.title_of`): the default bot's label said A4 after the default had moved to A6."""
    import re
    from pathlib import Path

    from loki.players.registry import title_of

    page = (Path(__file__).resolve().parents[1] / "src" / "loki" / "web" / "static" / "index.html").read_text()
    labelled = re.findall(r'<option value="([^"]+)" label="[^"]*\(fitted: (\w+)\)', page)
    assert len(labelled) >= 2
    for spec, name in labelled:
        assert f"(fitted: {name}" in title_of(spec), (spec, name, title_of(spec))
    hint = re.search(r"the adaptive Loki, playing the fitted\s+set (\w+)", page)
    assert hint and f"(fitted: {hint.group(1)}" in title_of("loki2:BRS:adaptive")


def test_a_stop_ends_the_requests_still_waiting_for_a_bot(monkeypatch):
    """Told to stop (SIGTERM, Ctrl-C), the server ends after SHUTDOWN_GRACE seconds even while a bot is still
    deciding for a request, logs no error for the request it ended, and closes the tables: the bot finishes its
    decision and no bot acts after it (no worker thread plays on)."""
    import http.client
    import json
    import logging
    import threading
    import time

    import loki.web.server as web_server

    monkeypatch.setattr(web_server, "SHUTDOWN_GRACE", 1)
    records: list[logging.LogRecord] = []
    keep = logging.Handler()
    keep.emit = records.append  # type: ignore[method-assign]
    srv = _Served()  # (its uvicorn config sets up uvicorn's loggers: the handler goes on after it)
    logging.getLogger("uvicorn.error").addHandler(keep)
    decide = threading.Event()
    try:
        headers = {"Host": f"127.0.0.1:{srv.port}", TOKEN_HEADER: srv.token, "Content-Type": "application/json"}
        conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=20)
        # three-handed, the person on the button acts first; then both bots, one after the other
        conn.request("POST", "/api/sessions", json.dumps({"players": ["calling", "calling"], "seed": 2}), headers)
        sid = json.loads(conn.getresponse().read())["id"]
        session = srv.app.state.sessions.get(sid)
        first, second = session.bots
        deciding, done, act = threading.Event(), threading.Event(), first.act
        later: list[str] = []

        def slow(view, legal):  # a bot that thinks until told (15 s at most)
            deciding.set()
            decide.wait(15)
            try:
                return act(view, legal)
            finally:
                done.set()

        first.act = slow
        second.act = lambda view, legal: later.append("acted") or legal[0]
        conn.request("POST", f"/api/sessions/{sid}/action", json.dumps({"action": "c"}), headers)
        assert deciding.wait(5)
        t0 = time.monotonic()
        srv.server.should_exit = True
        srv.thread.join(12)
        assert not srv.thread.is_alive() and time.monotonic() - t0 < 5, time.monotonic() - t0
        decide.set()
        assert done.wait(5) and session.lock.acquire(timeout=5)  # the worker thread left the table
        session.lock.release()
        assert later == []  # no bot acted after the stop
        # uvicorn's one line that it ended a request, and no traceback of the ended request
        assert [r.getMessage() for r in records if r.levelno >= logging.ERROR] == [
            "Cancel 1 running task(s), timeout graceful shutdown exceeded"
        ]
        assert not [r for r in records if r.exc_info], [r.getMessage() for r in records]
    finally:
        logging.getLogger("uvicorn.error").removeHandler(keep)
        decide.set()
        srv.stop()


def test_a_request_to_a_session_dropped_meanwhile_finds_it_gone(monkeypatch):
    """A request that found its session before the session was dropped (the oldest of more than MAX_SESSIONS) runs
    nothing on it: 404, and no turn is made again for the dropped session."""
    import asyncio

    import loki.web.app as web_app

    monkeypatch.setattr(web_app, "MAX_SESSIONS", 2)
    sessions = create_app(None, host="127.0.0.1").state.sessions
    first = sessions.create({"players": ["calling"]})
    for _ in range(2):
        sessions.create({"players": ["calling"]})
    assert first.id not in sessions.items and first.id not in sessions.turns and len(sessions.turns) == 2
    ran: list[str] = []
    with pytest.raises(KeyError):
        asyncio.run(sessions.run(first, ran.append, "snapshot"))
    assert ran == [] and first.id not in sessions.turns


def test_a_kept_snapshot_does_not_follow_later_hands():
    s = TableSession(["calling"], seed=3)
    _play_out(s)
    first = s.snapshot()
    chips = list(first["session"]["chips"])
    s.next_hand()
    _play_out(s, "r")
    assert first["session"]["chips"] == chips and s.snapshot()["session"]["chips"] != chips


def test_a_bot_that_fails_checks_or_calls_and_the_table_goes_on():
    """A bot raising an error, or answering an illegal action, is taken as a check or call (the ACPC dealer's rule
    for an invalid action): the person keeps playing, and the snapshot says what happened (each failure once)."""
    s = TableSession(["calling", "calling"], seed=5)
    broken, illegal = s.bots

    def fails(view, legal):
        raise RuntimeError("boom\x1b[2J")

    broken.act = fails  # type: ignore[method-assign]
    illegal.act = lambda view, legal: "r" if "r" not in [a.char for a in legal] else "x"  # type: ignore
    for hand in range(6):
        _play_out(s, "r")
        snap = s.snapshot()
        assert snap["hand_over"] and snap["hands_done"] == hand + 1
        s.next_hand()
    snap = s.snapshot()
    assert snap["bot_error_count"] >= 12 and 0 < len(snap["bot_errors"]) <= web_session.BOT_ERRORS_KEEP
    said = " ".join(snap["bot_errors"])
    assert "RuntimeError: boom" in said and "taken as a check or call" in said
    # every failure became a check or call: the failing bots never folded
    for h in s.history:
        assert "f" not in h["history"], h["history"]


def test_the_least_recently_used_session_is_dropped(monkeypatch):
    """A new session beyond MAX_SESSIONS drops the one used least recently, not the oldest created."""
    import loki.web.app as web_app

    monkeypatch.setattr(web_app, "MAX_SESSIONS", 2)
    sessions = create_app(None, host="127.0.0.1").state.sessions
    first = sessions.create({"players": ["calling"]})
    second = sessions.create({"players": ["calling"]})
    sessions.get(first.id)  # the first one is still being played
    sessions.create({"players": ["calling"]})
    assert first.id in sessions.items and second.id not in sessions.items and second.id not in sessions.turns
