"""Property-based fuzzing of what comes in over the network: ACPC protocol lines to the client, JSON
payloads to ``loki web`` over HTTP and WebSocket.

Each property: no exception outside the :class:`~loki.errors.LokiError` family, memory bounded (``tracemalloc``
peak per example), time bounded (Hypothesis' per-example deadline, generous: this is the only timing bound in the
suite).  Hostile shapes are strategies of their own: numbers in every spelling, hole cards that change, boards
before their round, deep and wide JSON, huge strings.  The whole file runs in well under a minute.
"""

from __future__ import annotations

import json
import tracemalloc
import warnings

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from loki.errors import LokiError  # noqa: E402
from loki.io.acpc_client import AcpcClient, parse_matchstate  # noqa: E402
from loki.io.gamedef import bundled_gamedef  # noqa: E402
from loki.players.registry import make_player  # noqa: E402

FUZZ = settings(
    max_examples=300,
    deadline=3000,  # ms per example: generous (a cold first example builds the engine's tables)
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=True,
)
MEMORY = 8 << 20  # bytes a single example may allocate at its peak

# ------------------------------------------------------------------ ACPC protocol lines

RANKS, SUITS = "23456789TJQKA", "shdc"
card = st.builds(lambda r, s: r + s, st.sampled_from(RANKS), st.sampled_from(SUITS))
junk_card = st.text(alphabet="23456789TJQKAXshdcx ", min_size=2, max_size=2)
number = st.one_of(
    st.integers(0, 12).map(str),
    st.integers(0, 10**6).map(lambda n: f"{n:07d}"),  # leading zeros
    st.sampled_from(["+5", "-1", " 5", "5_0", "", "x", "1e3", "9" * 40, "٣"]),  # not unsigned integers
)
betting = st.one_of(
    st.text(alphabet="fcr/", max_size=24),
    st.sampled_from(["", "r", "rr", "cc/", "rrc/r", "rrc/rc/", "rrc/rc/crc/", "rrc/rc/crc/crc", "/", "cc", "r100"]),
)


@st.composite
def matchstate(draw) -> str:
    n = draw(st.sampled_from([2, 2, 3, 4]))
    holes = [
        draw(st.one_of(st.just(""), st.lists(st.one_of(card, junk_card), min_size=1, max_size=3).map("".join)))
        for _ in range(n)
    ]
    boards = draw(st.lists(st.lists(card, max_size=4).map("".join), max_size=4))
    cards = "|".join(holes) + "".join("/" + b for b in boards)
    return f"MATCHSTATE:{draw(number)}:{draw(number)}:{draw(betting)}:{cards}"


acpc_line = st.one_of(
    matchstate(),
    st.text(max_size=300),  # anything at all
    st.sampled_from(["# comment", ";gui", "", "MATCHSTATE", "MATCHSTATE::::", "VERSION:2.0.0"]),
    st.integers(0, 5000).map(lambda k: "MATCHSTATE:0:0::" + "A" * k),
)


def _client(n: int = 2) -> AcpcClient:
    return AcpcClient(bundled_gamedef(n), make_player("calling"), "127.0.0.1", 0)


@pytest.fixture(scope="module", autouse=True)
def _tables_built():
    """The engine's and evaluator's lazily built tables (tens of MiB, once per process) before any measurement."""
    for n in (2, 3, 4):
        c = _client(n)
        holes = "|".join(["AsKs"] + ["QdQh", "2c7d", "9h9s"][: n - 1])
        c.handle_line(f"MATCHSTATE:0:0:{'c' * n}/{'c' * n}/{'c' * n}/{'c' * n}:{holes}/2h3h4h/5c/6c")
        c.handle_line("MATCHSTATE:0:1::")


def _bounded(fn):
    """Run ``fn()`` under tracemalloc; returns its result and the peak bytes allocated."""
    tracemalloc.start()
    try:
        out = fn()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return out, peak


@FUZZ
@given(st.lists(acpc_line, min_size=1, max_size=12))
def test_client_lines_raise_nothing_but_loki_errors_and_answer_a_state_once(lines):
    c = _client()

    def feed():
        answers = []
        for line in lines:
            try:
                a = c.handle_line(line)
            except LokiError:
                a = None
            assert a is None or (isinstance(a, str) and a.startswith(line.rstrip("\r\n") + ":"))
            answers.append(a)
        return answers

    answers, peak = _bounded(feed)
    assert peak < MEMORY, peak
    keys = []
    for line, a in zip(lines, answers):
        if a is not None:
            try:
                keys.append(parse_matchstate(line).key)
            except LokiError:
                parts = line.split(":")
                keys.append((parts[1], parts[2], parts[3]))
    assert len(keys) == len(set(keys)), (lines, answers)  # never answered twice
    assert len(c.errors) <= 100


@FUZZ
@given(matchstate())
def test_parsing_is_total_and_the_canonical_form_round_trips(line):
    try:
        ms = parse_matchstate(line)
    except LokiError:
        return
    again = parse_matchstate(ms.canonical)
    assert again.key == ms.key and again.canonical == ms.canonical


@FUZZ
@given(st.integers(0, 50), st.sampled_from(["AsKs", "KsAs"]), st.sampled_from(["", "0", "00"]), st.data())
def test_one_state_many_spellings_is_answered_once(hand, hole, zeros, data):
    c = _client()
    first = c.handle_line(f"MATCHSTATE:1:{hand}::|AsKs")
    again = c.handle_line(f"MATCHSTATE:1:{zeros}{hand}::|{hole}")
    plus = c.handle_line(f"MATCHSTATE:1:+{hand}::|{hole}")
    assert first is not None and again is None and plus is None


# ------------------------------------------------------------------ loki web JSON payloads

json_leaf = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(allow_nan=False), st.text(max_size=40)
)
json_value = st.recursive(
    json_leaf,
    lambda kids: st.one_of(st.lists(kids, max_size=5), st.dictionaries(st.text(max_size=10), kids, max_size=5)),
    max_leaves=30,
)
api_object = st.fixed_dictionaries(
    {},
    optional={
        "players": st.one_of(
            json_value, st.lists(st.sampled_from(["calling", "random", "nobody", "", "loki1|x"]), max_size=10)
        ),
        "seed": st.one_of(json_value, st.integers(-5, 2**70)),
        "name": json_value,
        "teaching": json_value,
        "action": st.one_of(json_value, st.sampled_from(["f", "c", "r", "fold", "check", "bet", "x"])),
        "on": json_value,
        "type": st.one_of(json_value, st.sampled_from(["act", "next", "teaching", "state", "dance"])),
    },
)
raw_body = st.one_of(
    api_object.map(lambda d: json.dumps(d).encode()),
    json_value.map(lambda v: json.dumps(v).encode()),
    st.integers(1, 60_000).map(lambda k: b"[" * k),  # deep nesting
    st.integers(1, 20_000).map(lambda k: b'{"a":' * k + b"1" + b"}" * k),
    st.binary(max_size=300),
    st.integers(65_000, 70_000).map(lambda k: b" " * k),  # around the body limit
)


@pytest.fixture(scope="module")
def web():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    from loki.web.app import TOKEN_HEADER, create_app

    app = create_app(None, host="127.0.0.1", port=8000)
    with TestClient(app, base_url="http://127.0.0.1:8000") as c:
        c.headers[TOKEN_HEADER] = app.state.policy.token
        sid = c.post("/api/sessions", json={"players": ["calling"]}).json()["id"]
        yield c, sid, app.state.policy.token


def _check_answer(r) -> None:
    assert r.status_code < 500, r.text
    data = r.json()  # always JSON
    if r.status_code >= 400:
        assert isinstance(data.get("error"), str) and "Traceback" not in data["error"]


@settings(FUZZ, max_examples=120, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(body=raw_body, path=st.sampled_from(["/api/sessions", "/action", "/teaching", "/next"]))
def test_http_payloads_get_json_answers_never_500(web, body, path):
    c, sid, _ = web
    url = path if path == "/api/sessions" else f"/api/sessions/{sid}{path}"
    r, peak = _bounded(lambda: c.post(url, content=body, headers={"Content-Type": "application/json"}))
    _check_answer(r)
    assert peak < MEMORY + 4 * len(body), peak
    if r.status_code == 201:  # a session was made: keep the server's memory flat
        c.app.state.sessions.items.pop(r.json()["id"], None)


@settings(FUZZ, max_examples=80, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(
    messages=st.lists(st.one_of(raw_body.map(lambda b: b.decode("latin-1")), api_object.map(json.dumps)), max_size=4)
)
def test_websocket_payloads_get_answers_and_the_socket_stays_open(web, messages):
    c, sid, token = web

    def talk():
        with c.websocket_connect(f"ws://127.0.0.1:8000/ws/{sid}?token={token}") as ws:
            for m in messages:
                ws.send_text(m)
                answer = ws.receive_json()
                assert answer["type"] in ("state", "error")
                if answer["type"] == "error":
                    assert answer["status"] < 500 and "Traceback" not in answer["error"]
            ws.send_json({"type": "state"})
            assert ws.receive_json()["type"] == "state"  # still open, still answering

    _, peak = _bounded(talk)
    assert peak < MEMORY + 4 * sum(len(m) for m in messages), peak
