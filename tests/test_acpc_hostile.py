"""Hostile peers over loopback: the dealer against bad seats, the client against bad dealers.

Every case must end with a clear report (the seat, the hand, the reason) within its deadline, with
bounded memory, and without a traceback.  Deadlines are short (0.4-0.6 s) to keep the suite fast.
"""

from __future__ import annotations

import socket
import threading
import time
import tracemalloc
from pathlib import Path

import pytest

from loki.errors import PeerError
from loki.io.acpc_client import AcpcClient, parse_matchstate
from loki.io.acpc_deal import MT19937, AcpcDeals
from loki.io.acpc_dealer import AcpcDealer
from loki.io.acpc_log import read_acpc_log
from loki.io.gamedef import bundled_gamedef
from loki.io.netlines import LineReader, LineTooLong, PeerClosed, PeerTimeout
from loki.players.registry import make_player

ACPC = Path(__file__).resolve().parents[1] / ".." / "shared" / "acpc"
needs_acpc = pytest.mark.skipif(
    not ACPC.exists(), reason="../shared/acpc (the real ACPC seed-0 logs) not found next to the repository"
)
GAME = bundled_gamedef(2)
T = 0.5  # t_response of the tests
BIG = b"x" * (1 << 20)  # allocated once: sending it repeatedly allocates nothing new


@pytest.fixture(scope="module", autouse=True)
def _warm():
    """Compile the engine's showdown kernels first (a cold numba cache would cost seconds inside the
    short deadlines of these tests), as ``loki acpc`` warms its player before connecting."""
    from loki.players.warmup import warm_up

    warm_up("calling")


# ------------------------------------------------------------------ exact ACPC deals


@needs_acpc
@pytest.mark.parametrize("name, n", [("2p.limit.h1000.r0.log", 2), ("3p.limit.h1000.r0.log", 3)])
def test_every_hand_of_the_real_seed0_logs_is_dealt_exactly(name, n):
    lg = read_acpc_log(ACPC / name)
    deals = AcpcDeals(0, n)
    assert len(lg.hands) == 1000
    for rec in lg.hands:
        holes, board = deals.hand()
        assert tuple(holes) == tuple(rec.hole_cards), rec.hand_id if hasattr(rec, "hand_id") else rec
        assert board.startswith(rec.board)  # a hand that ended early shows only part of the board


def test_mt19937_matches_the_reference_seeding():
    import numpy as np

    # numpy's legacy RandomState seeds with the same init_genrand: the same 624-word state
    for seed in (0, 1, 5489, 2**32 - 1):
        assert MT19937(seed).mt == [int(x) for x in np.random.RandomState(seed).get_state()[1]]
    with pytest.raises(ValueError, match="32-bit"):
        MT19937(2**32)


def test_dealer_deals_the_acpc_cards_of_its_seed(tmp_path):
    """``AcpcDealer(seed=0)`` deals hand 0 as the ACPC dealer's seed-0 log does (5d5c|9hQd/8dAs8s...)."""
    res, _ = _match(AcpcDealer(GAME, 2, seed=0), [_good(), _good()])
    assert res.complete
    assert res.states[0].split(":")[3].startswith("5d5c|9hQd")


# ------------------------------------------------------------------ helpers


def _good(spec: str = "calling"):
    """A well-behaved seat: a loki client in a thread."""

    def run(port, box):
        c = AcpcClient(GAME, make_player(spec), "127.0.0.1", port, timeout=30)
        try:
            c.run()
        except (ConnectionError, PeerError) as e:  # the dealer ended the match
            box["error"] = str(e)
        box["client"] = c

    return run


def _match(dealer: AcpcDealer, seats, timeout: float = 60):
    """Run the dealer in this thread with one behaviour per seat (each in its own thread)."""
    ports = dealer.listen()
    boxes = [{} for _ in seats]
    threads = [threading.Thread(target=f, args=(p, b), daemon=True) for f, p, b in zip(seats, ports, boxes)]
    for t in threads:
        t.start()
    res = dealer.run()
    for t in threads:
        t.join(timeout)
    return res, boxes


def _hostile(act, hello: bool = True):
    """A raw seat: says its version, then calls ``act(sock, line)`` on every message where it must act."""

    def run(port, box):
        s = socket.create_connection(("127.0.0.1", port))
        try:
            if hello:
                s.sendall(b"VERSION:2.0.0\r\n")
            r = LineReader(s, "dealer")
            while True:
                try:
                    line = r.readline(time.monotonic() + 30)
                except (PeerClosed, PeerTimeout):
                    return
                ms = parse_matchstate(line, 2)
                st = AcpcClient(GAME, make_player("calling")).tracker.rebuild(ms)
                if not st.is_terminal and st.current_player == ms.position:
                    if act(s, line) == "stop":
                        return
        except OSError:
            return
        finally:
            s.close()

    return run


def _ends(res, seat: int, hand: int, reason: str, *needles: str):
    a = res.abort
    assert a is not None, res.warnings
    assert (a.seat, a.hand, a.reason) == (seat, hand, reason), a
    assert a.message.startswith(f"seat {seat} (p{seat}) in hand {hand}: "), a.message
    for n in needles:
        assert n in a.message, a.message
    assert not res.complete and res.score_line  # no exception, a report


# ------------------------------------------------------------------ the dealer against bad seats


def test_silent_seat_ends_the_match_at_its_deadline():
    t0 = time.monotonic()
    res, boxes = _match(AcpcDealer(GAME, 5, t_response=T), [_good(), _hostile(lambda s, line: None)])
    _ends(res, 2, 0, "timeout", "did not answer within 0.5 s (t_response)")
    assert time.monotonic() - t0 < T + 3
    assert "middle of hand 0" in boxes[0]["error"]  # the good seat is told, not left hanging


def test_silent_connection_without_version_is_reported():
    def mute(port, box):
        s = socket.create_connection(("127.0.0.1", port))
        time.sleep(1.5)
        s.close()

    t0 = time.monotonic()
    res, _ = _match(AcpcDealer(GAME, 5, t_connect=0.5), [mute, _good()])
    assert res.abort is not None and (res.abort.seat, res.abort.hand, res.abort.reason) == (1, None, "timeout")
    assert "did not send VERSION:2.0.0 within 0.5 s" in res.abort.message
    assert time.monotonic() - t0 < 3 and res.hands_played == 0


def test_garbage_and_stale_lines_are_skipped_and_the_deadline_kept():
    def garbage(s, line):
        t_end = time.monotonic() + 3 * T
        while time.monotonic() < t_end:  # a line every 50 ms, for longer than the deadline
            s.sendall(b"GARBAGE\r\nMATCHSTATE:0:99::5d5c|:c\r\n")
            time.sleep(0.05)
        return "stop"

    t0 = time.monotonic()
    res, _ = _match(AcpcDealer(GAME, 5, t_response=T), [_good(), _hostile(garbage)])
    _ends(res, 2, 0, "timeout", "t_response")
    assert time.monotonic() - t0 < 3 * T + 3
    assert any("malformed line 'GARBAGE'" in w for w in res.warnings)
    assert any("another state 'MATCHSTATE:0:99::5d5c|:c'" in w for w in res.warnings)


def test_a_stale_line_before_the_right_answer_costs_nothing():
    prev = {}

    def stale_then_right(s, line):
        s.sendall((prev.get("line", "MATCHSTATE:1:0::|AsKs") + ":c\r\n# comment\r\n" + line + ":c\r\n").encode())
        prev["line"] = line

    res, _ = _match(AcpcDealer(GAME, 4, t_response=T), [_good(), _hostile(stale_then_right)])
    assert res.complete and res.abort is None and res.hands_played == 4
    assert res.warning_count > 0 and all("another state" in w for w in res.warnings)


@pytest.mark.parametrize("kind", ["bytes", "comments"])
def test_trickling_does_not_extend_the_deadline(kind):
    def trickle(s, line):
        data = (line + ":c\r\n").encode()
        for i in range(len(data) - 2):  # never the line end
            s.sendall(data[i : i + 1] if kind == "bytes" else b"# still thinking\r\n")
            time.sleep(0.05)
        return "stop"

    t0 = time.monotonic()
    res, _ = _match(AcpcDealer(GAME, 5, t_response=T), [_good(), _hostile(trickle)])
    _ends(res, 2, 0, "timeout", "did not answer within 0.5 s")
    assert time.monotonic() - t0 < T + 3


def test_hand_budget_counts_every_action_of_the_hand():
    def slow(s, line):
        time.sleep(0.6)
        s.sendall((line + ":r\r\n").encode())  # raise: the hand goes on, the seat acts again

    # the first answer uses 0.6 of the 1 s hand budget; the second has 0.4 s left, less than t_response
    res, _ = _match(AcpcDealer(GAME, 5, t_response=1.5, t_hand=1.0), [_good(), _hostile(slow)])
    _ends(res, 2, 0, "timeout", "within its 1 s for the hand (t_hand)")


def test_match_budget_counts_every_action_of_the_match():
    def slow(s, line):
        time.sleep(0.25)
        s.sendall((line + ":c\r\n").encode())

    # t_per_hand 0.2 s over 4 hands: 0.8 s for the whole match, used up after 3 or 4 answers
    res, _ = _match(AcpcDealer(GAME, 4, t_response=2, t_per_hand=0.2), [_good(), _hostile(slow)])
    a = res.abort
    assert a is not None and a.seat == 2 and a.reason == "timeout", res.errors
    assert "within its 0.8 s for the match (t_per_hand x hands)" in a.message


def test_huge_line_ends_the_match_with_bounded_memory():
    def flood(s, line):
        try:
            for _ in range(64):  # 64 MiB without a line end
                s.sendall(BIG)
        except OSError:
            pass
        return "stop"

    tracemalloc.start()
    try:
        t0 = time.monotonic()
        res, _ = _match(AcpcDealer(GAME, 5, t_response=5), [_good(), _hostile(flood)])
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    _ends(res, 2, 0, "line-too-long", "longer than 4096 bytes")
    assert time.monotonic() - t0 < 5 and peak < 8 << 20, peak


def test_disconnect_ends_the_match_and_the_log_says_so(tmp_path):
    log = tmp_path / "m.log"

    def leave(s, line):
        return "stop"  # closes the socket when asked to act in hand 1

    calls = {"n": 0}

    def one_hand_then_leave(s, line):
        calls["n"] += 1
        if parse_matchstate(line, 2).hand >= 1:
            return leave(s, line)
        s.sendall((line + ":c\r\n").encode())

    res, _ = _match(AcpcDealer(GAME, 5, t_response=5, log_path=log), [_good(), _hostile(one_hand_then_leave)])
    _ends(res, 2, 1, "closed", "closed the connection")
    text = log.read_text().splitlines()
    assert sum(line.startswith("STATE:") for line in text) == 1 and not any(l.startswith("SCORE") for l in text)
    assert text[-1].startswith("# match ended: seat 2 (p2) in hand 1: closed the connection")


def test_invalid_actions_can_end_the_match():
    res, _ = _match(
        AcpcDealer(GAME, 5, t_response=T, max_invalid=1),
        [_good(), _hostile(lambda s, line: s.sendall((line + ":x\r\n").encode()))],
    )
    _ends(res, 2, 0, "invalid-actions", "2 invalid actions (max_invalid 1)")


# ------------------------------------------------------------------ the client against bad dealers


def _dealer_side(behaviour):
    """A raw dealer on loopback: accepts one client, reads its version, runs ``behaviour(conn)``."""
    ls = socket.socket()
    ls.bind(("127.0.0.1", 0))
    ls.listen(1)
    port = ls.getsockname()[1]
    got: dict = {"answers": []}

    def serve():
        conn, _ = ls.accept()
        ls.close()
        r = LineReader(conn, "client")
        got["version"] = r.readline(time.monotonic() + 5)
        got["reader"] = r
        try:
            behaviour(conn, got)
        except OSError:
            pass
        finally:
            time.sleep(0.1)
            conn.close()

    th = threading.Thread(target=serve, daemon=True)
    th.start()
    return port, got, th


def _client(port, timeout=T):
    return AcpcClient(GAME, make_player("calling"), "127.0.0.1", port, timeout=timeout)


def test_client_silent_dealer_times_out():
    port, got, th = _dealer_side(lambda c, g: time.sleep(3 * T))
    t0 = time.monotonic()
    with pytest.raises(PeerError, match=r"sent no message within 0\.5 s \(--timeout\)"):
        _client(port).run()
    assert time.monotonic() - t0 < T + 2 and got["version"] == "VERSION:2.0.0"


@pytest.mark.parametrize("what", [b"GARBAGE\r\n", b"# comment\r\n", b"M"])
def test_client_garbage_comments_and_trickles_do_not_extend_its_deadline(what):
    def flood(c, g):
        t_end = time.monotonic() + 4 * T
        while time.monotonic() < t_end:
            c.sendall(what)
            time.sleep(0.05)

    port, _, th = _dealer_side(flood)
    t0 = time.monotonic()
    with pytest.raises(PeerError, match="within 0.5 s"):
        _client(port).run()
    assert time.monotonic() - t0 < T + 2


def test_client_huge_line_is_refused_with_bounded_memory():
    def flood(c, g):
        for _ in range(64):
            c.sendall(BIG)

    port, _, th = _dealer_side(flood)
    tracemalloc.start()
    try:
        with pytest.raises(PeerError, match="longer than 4096 bytes"):
            _client(port, timeout=10).run()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 8 << 20, peak


def test_client_dealer_disconnect_mid_hand():
    port, _, th = _dealer_side(lambda c, g: c.sendall(b"MATCHSTATE:0:0::5d5c|\r\n"))
    with pytest.raises(ConnectionError, match="middle of hand 0"):
        _client(port, timeout=5).run()


def test_client_rejects_backwards_hands_and_answers_a_state_once():
    def play(c, g):
        r = g["reader"]
        # hand 5: our turn (position 1 acts first pre-flop in the reverse-blinds heads-up game)
        for msg in ("MATCHSTATE:1:5::|9hQd", "MATCHSTATE:1:5::|9hQd", "MATCHSTATE:1:3::|AsKs"):
            c.sendall((msg + "\r\n").encode())
        try:
            while True:
                g["answers"].append(r.readline(time.monotonic() + 0.5))
        except (PeerTimeout, PeerClosed):
            pass
        c.sendall(b"MATCHSTATE:1:5:cr:|9hQd\r\nMATCHSTATE:1:5:crc/:|9hQd/2c3c4c\r\n")

    port, got, th = _dealer_side(play)
    c = _client(port, timeout=5)
    with pytest.raises(ConnectionError, match="middle of hand 5"):
        c.run()
    th.join(5)
    assert got["answers"] == ["MATCHSTATE:1:5::|9hQd:c"]  # once, and hand 3 not answered
    assert any("answered already" in e for e in c.errors)
    assert any("hand number 3 after hand 5" in e for e in c.errors)


def test_line_reader_keeps_working_after_a_timeout():
    a, b = socket.socketpair()
    r = LineReader(a, "peer", max_line=10)
    with pytest.raises(PeerTimeout):
        r.readline(time.monotonic() + 0.05)
    b.sendall(b"hello\r\n" + b"y" * 20 + b"\n")
    assert r.readline(time.monotonic() + 1) == "hello"
    with pytest.raises(LineTooLong):
        r.readline(time.monotonic() + 1)
    a.close()
    b.close()
    a, b = socket.socketpair()
    b.sendall(b"partial")
    b.close()
    with pytest.raises(PeerClosed, match="peer: closed the connection"):
        LineReader(a, "peer").readline(time.monotonic() + 1)
    a.close()


# ------------------------------------------------------------------ timeouts, canonical states


def test_huge_timeouts_are_refused_with_their_cap_and_never_overflow_a_socket():
    from typer.testing import CliRunner

    from loki.cli import app
    from loki.errors import ConfigError
    from loki.io.netlines import MAX_TIMEOUT, send_line

    for kw in ("t_connect", "t_response", "t_hand", "t_per_hand"):
        with pytest.raises(ConfigError, match=rf"{kw} = 1e\+10: .*at most 604800"):
            AcpcDealer(GAME, 10, **{kw: 1e10})
    with pytest.raises(ConfigError, match=r"--timeout 1e\+10: .*at most 604800 \(one week, MAX_TIMEOUT\)"):
        AcpcClient(GAME, make_player("calling"), "127.0.0.1", 1, timeout=1e10)
    for args in (
        ["dealer", "--t-connect", "1e10"],
        ["dealer", "--t-response", "1e10"],
        ["dealer", "--t-hand", "inf"],
        ["acpc", "127.0.0.1", "9", "--timeout", "1e10", "--no-warmup"],
    ):
        r = CliRunner().invoke(app, args)
        assert r.exit_code == 2 and r.output.count("error:") == 1 and "604800" in r.output, (args, r.output)
        assert "Traceback" not in r.output and r.exception is None or isinstance(r.exception, SystemExit)
    # a deadline far away (or none) never reaches settimeout as a number it cannot hold
    a, b = socket.socketpair()
    try:
        threading.Timer(0.2, lambda: b.sendall(b"late\r\n")).start()
        assert LineReader(a, "peer").readline(time.monotonic() + 1e12) == "late"
        send_line(a, "x", time.monotonic() + 10 * MAX_TIMEOUT * 1e3, "peer")
        assert b.recv(10) == b"x\r\n"
    finally:
        a.close()
        b.close()


def _answers(lines, n=2):
    c = AcpcClient(bundled_gamedef(n), make_player("calling"), "127.0.0.1", 0)
    return [c.handle_line(x) for x in lines], c


def test_a_state_is_answered_once_however_it_is_spelled():
    """Hand numbers are unsigned integers (``05`` is hand 5, ``+5`` is not a number) and hole cards come in any
    order: all three messages are one state, answered once."""
    out, c = _answers(["MATCHSTATE:1:5::|AsKs", "MATCHSTATE:1:05::|AsKs", "MATCHSTATE:1:+5::|KsAs"])
    assert out == ["MATCHSTATE:1:5::|AsKs:c", None, None]
    assert c.error_count == 2 and "came again" in c.errors[0] and "malformed hand number '+5'" in c.errors[1]
    # the hand goes on: the next state is answered
    assert c.handle_line("MATCHSTATE:1:5:cr:|KsAs") == "MATCHSTATE:1:5:cr:|KsAs:c"


def test_changed_hole_cards_and_early_boards_are_protocol_errors():
    out, c = _answers(["MATCHSTATE:1:0:/:|AsKs/2c3d4h"])
    assert out == [None] and c.error_count == 1
    assert "'/' at position 0 before the preflop betting is over (the flop sent before its round)" in c.errors[0]
    out, c = _answers(["MATCHSTATE:1:3::|AsKs", "MATCHSTATE:1:3:cr:|QdQc"])
    assert out[0] == "MATCHSTATE:1:3::|AsKs:c" and "hole cards of position 1 changed within hand 3" in c.errors[0]
    out, c = _answers(
        ["MATCHSTATE:1:4::|AsKs", "MATCHSTATE:1:4:cc/c:|AsKs/2c3d4h", "MATCHSTATE:1:4:cc/cc/:|AsKs/2c3d5h/5d"]
    )
    assert out[:2] == ["MATCHSTATE:1:4::|AsKs:c", "MATCHSTATE:1:4:cc/c:|AsKs/2c3d4h:c"]
    assert c.error_count == 1 and "board changed within hand 4" in c.errors[0]
    out, c = _answers(["MATCHSTATE:1:4:cc:|AsKs"])  # a closed round without its '/' and board
    assert out == [None] and "no '/' and flop follow" in c.errors[0]


@pytest.mark.parametrize(
    "bad",
    [
        "MATCHSTATE:0:-1::AsKs|",
        "MATCHSTATE:0: 1::AsKs|",
        "MATCHSTATE:0:1_0::AsKs|",
        "MATCHSTATE:0:1:cc/:AsKs|/2c3d",
        "MATCHSTATE:0:1:cc/:AsKs|/2c3d4h5s",
        "MATCHSTATE:0:1::askS|",
        "MATCHSTATE:0:1:cc/cc/cc/cc/:AsKs|/2c3d4h/5s/6s/7s",
    ],
)
def test_matchstates_follow_the_grammar(bad):
    with pytest.raises(PeerError.__mro__[1]):  # ProtocolError
        parse_matchstate(bad, 2)


def test_canonical_form_round_trips():
    ms = parse_matchstate("MATCHSTATE:0:007:rrc/:TdAs|/8c2c3h", 2)
    assert ms.key == (0, 7, "rrc/") and ms.canonical == "MATCHSTATE:0:7:rrc/:TdAs|/2c3h8c"
    again = parse_matchstate(ms.canonical, 2)
    assert again.canonical == ms.canonical and again.key == ms.key


# ------------------------------------------------------------------ audit of 2026-11-27: results kept, errors bounded


def _check_down(n: int, pos: int, cards: str = "5d5c|9hQd", board=("8dAs8s", "4h", "6d")) -> list[str]:
    """Every state of a heads-up check-down hand ``n`` as position ``pos`` sees it (reverse blinds)."""
    mine = ["", ""]
    mine[pos] = cards.split("|")[pos]
    mc, b = "|".join(mine), board
    seq = [("", mc), ("c", mc), ("cc/", f"{mc}/{b[0]}"), ("cc/c", f"{mc}/{b[0]}"), ("cc/cc/", f"{mc}/{b[0]}/{b[1]}")]
    seq += [
        ("cc/cc/c", f"{mc}/{b[0]}/{b[1]}"),
        ("cc/cc/cc/", f"{mc}/{'/'.join(b)}"),
        ("cc/cc/cc/c", f"{mc}/{'/'.join(b)}"),
    ]
    seq += [("cc/cc/cc/cc", f"{cards}/{'/'.join(b)}")]
    return [f"MATCHSTATE:{pos}:{n}:{bet}:{cc}" for bet, cc in seq]


def _send_all(lines, tail: bytes = b""):
    def behaviour(c, g):
        for line in lines:
            c.sendall((line + "\r\n").encode())
            time.sleep(0.02)
        c.sendall(tail)

    return behaviour


def test_a_showdown_without_the_opponents_cards_is_a_protocol_error_and_not_counted():
    """The protocol shows every non-folded player's cards at a showdown: a final state without them is refused (the
    player never sees a showdown of stand-in cards), the hand is not counted, and the match goes on."""
    from loki.engine.events import Showdown

    hidden = _check_down(1, 1)
    hidden[-1] = hidden[-1].replace("5d5c|9hQd", "|9hQd")  # the river check-down, position 0's cards not shown
    port, _, th = _dealer_side(_send_all([*_check_down(0, 0, "2c3c|KhKd"), *hidden]))
    c = _client(port, timeout=5)
    seen: list = []
    observe = c.player.observe
    c.player.observe = lambda ev: (seen.append(ev), observe(ev))
    c.run()  # the dealer hangs up after hand 1's final state: the hand is over (no "middle of hand 1")
    assert c.error_count == 1 and "showdown without the hole cards of position 0" in c.errors[0]
    assert "hand 1 is not counted" in c.errors[0] and "MATCHSTATE:1:1:cc/cc/cc/cc:|9hQd/8dAs8s/4h/6d" in c.errors[0]
    assert c.hands_played == 1 and c.total == -10  # hand 0 only (2c3c loses to KhKd); hand 1 would be -10 more
    shown = [ev for ev in seen if isinstance(ev, Showdown)]
    assert len(shown) == 1  # hand 0's


def test_a_hand_number_dealt_again_is_a_protocol_error():
    """After the final state of a hand only that state again is silent; any other state with its hand number (a
    dealer dealing hand 0 again) is a protocol error naming the line, answered 'c' when it is our turn and its
    decision (position, hand, betting) was not answered yet: a decision is never answered twice."""
    hand0 = _check_down(0, 1)
    again = ["MATCHSTATE:1:0::|AsKs", "MATCHSTATE:1:0:cr:|AsKs", hand0[0]]
    out, c = _answers([*hand0, hand0[-1], "MATCHSTATE:1:00:cc/cc/cc/cc:5c5d|Qd9h/As8d8s/4h/6d", *again])
    assert c.hands_played == 1 and c.error_count == 3, c.errors  # the final state twice (spelled two ways): silent
    assert out[-3:] == [None, "MATCHSTATE:1:0:cr:|AsKs:c", None]
    assert f"state '{again[0]}' asks again for the decision of '{hand0[0]}' with other cards" in c.errors[0]
    assert f"state '{again[1]}' after the final state 'MATCHSTATE:1:0:cc/cc/cc/cc:5d5c|9hQd" in c.errors[1]
    assert "came again: it was answered already" in c.errors[2]  # hand 0's first state, that very state again


def test_a_decision_asked_again_with_other_cards_is_not_answered_twice():
    out, c = _answers(["MATCHSTATE:1:0::|AsKs", "MATCHSTATE:1:0::|2c3c", "MATCHSTATE:1:0::|KsAs"])
    assert out == ["MATCHSTATE:1:0::|AsKs:c", None, None], c.errors
    assert "asks again for the decision of 'MATCHSTATE:1:0::|AsKs' with other cards" in c.errors[0]
    assert "came again" in c.errors[1]  # the same state, its cards spelled in another order


def test_client_reports_a_line_cut_off_by_the_dealer_hanging_up():
    port, _, th = _dealer_side(_send_all(_check_down(0, 1), b"MATCHSTATE:0:1::2c3c|"))
    c = _client(port, timeout=5).run()
    assert c.hands_played == 1 and c.error_count == 1
    assert "partway through a line 'MATCHSTATE:0:1::2c3c|'" in c.errors[0]


def test_client_refuses_absurd_hand_numbers_in_bounded_messages():
    huge = "MATCHSTATE:1:" + "9" * 4000 + "::|5d5c"
    port, _, th = _dealer_side(_send_all([*_check_down(0, 1), huge, *_check_down(1, 0, "2c3c|KhKd")]))
    c = _client(port, timeout=5).run()
    assert c.hands_played == 2 and c.error_count == 1  # the real hands after it are played
    assert "hand number of more than 20 digits" in c.errors[0] and len(c.errors[0]) < 1000


def _cli_run(args):
    from typer.testing import CliRunner

    from loki.cli import app

    return CliRunner().invoke(app, args)


@pytest.mark.parametrize("as_json", [False, True])
def test_acpc_command_reports_finished_hands_when_the_dealer_hangs_up(as_json):
    import json

    lines = [*_check_down(0, 1), *_check_down(1, 0, "2c3c|KhKd"), *_check_down(2, 1)[:4]]
    port, _, th = _dealer_side(_send_all(lines))
    r = _cli_run(
        ["acpc", "127.0.0.1", str(port), "--player", "calling", "--no-warmup", "--timeout", "5"]
        + (["--json"] if as_json else [])
    )
    assert r.exit_code == 2
    if as_json:
        out = json.loads(r.stdout)
        assert out["hands"] == 2 and out["chips"] == -20 and "middle of hand 2" in out["error"]
    else:
        assert "2 hands, -20 chips" in r.stdout
    assert "error: the dealer at 127.0.0.1" in r.stderr and "middle of hand 2" in r.stderr


def test_acpc_command_fails_when_no_message_is_understood():
    port, _, th = _dealer_side(_send_all(["MATCHSTATE:0:0::5d5c||", "MATCHSTATE:0:0:c:5d5c||"]))
    r = _cli_run(["acpc", "127.0.0.1", str(port), "--player", "calling", "--no-warmup", "--timeout", "5"])
    assert r.exit_code == 2
    assert "error: no hand could be played: 2 protocol errors" in r.stderr and "3 hole-card sections" in r.stderr


class _FillsUp:
    """A log file that takes ``lines`` lines, then fails as a full disk does."""

    def __init__(self, lines: int):
        self.left, self.text = lines, []

    def write(self, s: str) -> int:
        if s.startswith("STATE") or s.startswith("SCORE"):
            if self.left == 0:
                raise OSError(28, "No space left on device")
            self.left -= 1
        self.text.append(s)
        return len(s)

    def flush(self) -> None:
        pass

    def close(self) -> None:
        pass


def test_dealer_log_that_fills_up_keeps_the_hands_played(tmp_path, monkeypatch, capsys):
    import typer

    import loki.io.outpath
    from loki.cli.acpc import report_match

    f = _FillsUp(3)
    monkeypatch.setattr(loki.io.outpath, "open_output", lambda *a, **k: f)
    res, _ = _match(AcpcDealer(GAME, 10, log_path=tmp_path / "m.log"), [_good(), _good()])
    assert res.hands_played == 4 and res.abort is None and not res.complete  # the 4th hand could not be logged
    assert "cannot write the log: No space left on device" in res.log_error
    assert sum(t.startswith("STATE") for t in f.text) == 3
    with pytest.raises(typer.Exit) as e:
        report_match(res, tmp_path / "m.log", False)
    assert e.value.exit_code == 2
    out, err = capsys.readouterr()
    assert "4 of 10 hands" in out and "error: match stopped after 4 of 10 hands" in err
    # the score table's columns under their headers, whatever the names' length (p1, p2 are shorter than "player")
    head, *rows = [line for line in out.splitlines() if line.startswith(("seat", "   1", "   2"))]
    assert len(rows) == 2 and all(len(row) == len(head) for row in rows), out


def test_dealer_log_that_cannot_take_its_header_is_one_error(tmp_path, monkeypatch):
    import loki.io.outpath
    from loki.errors import OutputPathError

    monkeypatch.setattr(loki.io.outpath, "open_output", lambda *a, **k: _FillsUp(-1))  # a full disk
    monkeypatch.setattr(
        _FillsUp, "write", lambda self, s: (_ for _ in ()).throw(OSError(28, "No space left on device"))
    )
    log = tmp_path / "m.log"
    d = AcpcDealer(GAME, 3, log_path=log, t_connect=0.5)
    with pytest.raises(OutputPathError, match=f"--out {log}: cannot write the log: No space left"):
        d.listen()  # before any port is given out
    assert d.ports == []
    r = _cli_run(["dealer", "--out", str(log), "--hands", "1", "--t-connect", "1"])
    assert r.exit_code == 2 and r.stdout == "" and "cannot write the log" in r.stderr  # no ports printed


def test_dealer_names_must_be_printable_ascii():
    from loki.errors import ConfigError

    for bad in (["é", "è"], ["a\nb", "c"], ["ok", "tab\tx"]):
        with pytest.raises(ConfigError, match="printable ASCII"):
            AcpcDealer(GAME, 3, names=bad)
    r = _cli_run(["dealer", "--player", "é", "--player", "è", "--hands", "1"])
    assert r.exit_code == 2 and "printable ASCII" in r.stderr


def test_a_hand_given_up_still_answers_our_turns_and_the_next_hand_is_followed():
    """After an untrusted message the player stops following the hand, but the dealer still waits for our actions:
    every later state of that hand that is our turn is answered 'c' (once), the others are ignored, and the next hand
    number is followed and played by the player again."""
    lines = [
        "MATCHSTATE:1:3::|AsKs",
        "MATCHSTATE:1:3:cr:|QdQc",  # hole cards changed: a protocol error, our turn: 'c', the hand given up
        "MATCHSTATE:1:3:crc/:|AsKs/2c3d4h",  # position 0 acts first after the flop: not our turn
        "MATCHSTATE:1:3:crc/r:|AsKs/2c3d4h",  # our turn in the given-up hand
        "MATCHSTATE:1:3:crc/r:|KsAs/2c3d4h",  # the same state again: not answered twice
        "MATCHSTATE:1:3:crc/rc/:|AsKs/2c3d4h/5s",
        "MATCHSTATE:1:3:crc/rc/c:|AsKs/2c3d4h/5s",  # our turn
        "MATCHSTATE:1:3:crc/rc/cc/cc:8d8c|AsKs/2c3d4h/5s/7s",  # the final state: not counted, not answered
        "MATCHSTATE:1:4::|9hQd",  # the next hand: followed again
    ]
    out, c = _answers(lines)
    assert out == [
        "MATCHSTATE:1:3::|AsKs:c",
        "MATCHSTATE:1:3:cr:|QdQc:c",
        None,
        "MATCHSTATE:1:3:crc/r:|AsKs/2c3d4h:c",
        None,
        None,
        "MATCHSTATE:1:3:crc/rc/c:|AsKs/2c3d4h/5s:c",
        None,
        "MATCHSTATE:1:4::|9hQd:c",
    ], c.errors
    assert c.error_count == 2 and "hole cards of position 1 changed" in c.errors[0] and "came again" in c.errors[1]
    assert c.hands_played == 0 and c.tracker.hand == 4 and not c.tracker.gave_up(4)


@pytest.mark.parametrize(
    "answer, betting, invalid",
    [
        ("R", "rc/crc/crc/crc", 0),  # the ACPC dealer's letters: upper case, b for a bet, a size ignored in limit
        ("b", "rc/crc/crc/crc", 0),
        ("r5", "rc/crc/crc/crc", 0),
        ("k", "cc/cc/cc/cc", 0),
        ("", "cc/cc/cc/cc", 4),  # no action: an invalid action, taken as a call (not skipped until a timeout)
        ("x", "cc/cc/cc/cc", 4),
    ],
)
def test_the_dealer_reads_answers_as_the_acpc_dealer_does(answer, betting, invalid):
    def act(s, line):
        s.sendall(f"{line}{':' + answer if answer else ''}\r\n".encode())

    res, _ = _match(AcpcDealer(GAME, 1, seed=1, t_response=5), [_good(), _hostile(act)])
    assert res.abort is None and res.complete, res.abort
    assert res.states[0].split(":")[2] == betting, res.states
    assert sum("taken as a call" in w for w in res.warnings) == invalid, res.warnings
