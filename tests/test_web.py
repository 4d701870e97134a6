"""loki web without a browser: the table session and the Starlette app's JSON API and WebSocket (issue 13)."""

from __future__ import annotations

import warnings

import pytest

with warnings.catch_warnings():  # newer Starlette asks for httpx2; httpx works the same here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from loki.errors import ConfigError, IllegalActionError, PlayerSpecError
from loki.io.phh import read_phh
from loki.web.app import create_app
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
        bots_acted = [ln for ln in snap["log"] if ln["seat"] in (1, 2) and ln["verb"] != "posts"]
        assert len(snap["explanations"]) == len(bots_acted)
        if snap["result"]["showdown"]:
            shown = snap["result"]["shown"]
            assert all(v["hand"] for v in shown.values())
            for seat, v in shown.items():
                assert snap["seats"][int(seat)]["cards"] == v["cards"]
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
    with pytest.raises(IllegalActionError, match="not an action|invalid action"):
        s.act("x")
    with pytest.raises(IllegalActionError, match="not over"):
        s.next_hand()
    _play_out(s)
    with pytest.raises(IllegalActionError, match="hand is over"):
        s.act("c")


def test_teaching_mode_shows_explanations_live():
    s = TableSession(["loki1", "loki1"], seed=1, teaching=True)
    for _ in range(30):
        snap = s.snapshot()
        bots_acted = [ln for ln in snap["log"] if ln["seat"] in (1, 2) and ln["verb"] != "posts"]
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
    assert [ln["text"] for ln in snap["log"] if ln["seat"] == 0][-1] == "raises to 20"
    while s.state.round == 0:
        s.act("c")
    assert s.state.current_player == 0 or s.hand_over
    while not s.hand_over:  # the calling station only calls: bet, then fold to nothing -- fold when facing a bet
        legal = [a["action"] for a in s.snapshot()["legal"]]
        s.act("f" if "f" in legal else "r")
    snap = s.snapshot()
    assert snap["hand_over"] and snap["result"]["payoffs"][0] != 0


@pytest.fixture()
def client(tmp_path):
    app = create_app(tmp_path / "out")
    with TestClient(app) as c:
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
        (client.get("/api/sessions/nope"), 404, "no session"),
        (client.get(f"/api/sessions/{sid}/hands/7"), 400, "hand 7"),
        (client.get("/nowhere"), 404, "no such page"),
        (client.post("/api/sessions", content=b"x" * 70000), 400, "at most"),
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


def test_websocket(client):
    sid = client.post("/api/sessions", json={"players": ["calling"], "seed": 1}).json()["id"]
    with client.websocket_connect(f"/ws/{sid}") as ws:
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
    with client.websocket_connect("/ws/nope") as ws:
        ws.send_json({"type": "state"})
        assert ws.receive_json()["status"] == 404


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
