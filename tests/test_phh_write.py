"""The direct PHH writer (:mod:`loki.io.phh_write`) against pokerkit's own writer, byte for byte.

The oracle is the pokerkit path: :func:`loki.io.phh.state_to_phh` replays each hand through a pokerkit
``FixedLimitTexasHoldem`` state and pokerkit's ``HandHistory.dumps`` / ``dumps_all`` write it.  The
hands: random play on 2..10 seats (heads-up, where pokerkit reverses the blinds; fold-heavy hands
ending pre-flop; capped raising wars; show-downs), boards that play (every show-down a tie, odd
chips), other blinds and bet sizes, finite stacks (all-ins handed to pokerkit), unusual fields, and
whole tournament blocks.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pokerkit import HandHistory

from loki.cards import format_cards
from loki.engine import Action, GameConfig, new_hand
from loki.errors import ConfigError, HandHistoryError
from loki.io.phh import hand_text, phh_to_record, phhs_text, read_phh, state_to_phh, write_phh
from loki.tournament import config_from_dict, play_block


def oracle_text(state, names=None, hand_id=None, fields=None) -> str:
    """pokerkit's text of one hand (``HandHistory.dumps``)."""
    return state_to_phh(state, names, hand_id, fields).dumps()


def oracle_phhs(hands) -> str:
    """pokerkit's ``.phhs`` text (``HandHistory.dumps_all`` and the final newline the files get)."""
    return HandHistory.dumps_all([state_to_phh(*h) for h in hands]) + "\n"


def play_random(cfg: GameConfig, button: int, rng: np.random.Generator, p_fold: float, p_raise: float, **deal):
    """A hand played to the end by random legal actions (fold/raise with the given odds, else call)."""
    s = new_hand(cfg, button, rng=rng, **deal)
    while not s.is_terminal:
        legal = s.legal_actions()
        u = rng.random()
        if u < p_fold and Action.FOLD in legal:
            s.apply(Action.FOLD)
        elif u < p_fold + p_raise and Action.RAISE in legal:
            s.apply(Action.RAISE)
        else:
            s.apply(Action.CALL)
    return s


STYLES = [(0.0, 0.0), (0.5, 0.1), (0.15, 0.3), (0.05, 0.8), (0.0, 1.0), (0.3, 0.3)]  # (p_fold, p_raise)


def random_hands(cfg: GameConfig, count: int, seed: int, **deal):
    rng = np.random.default_rng(seed)
    n = cfg.n_players
    names = [f"pl{i}" for i in range(n)]
    for i in range(count):
        p_fold, p_raise = STYLES[i % len(STYLES)]
        st = play_random(cfg, i % n, rng, p_fold, p_raise, **deal)
        yield st, names[i % n :] + names[: i % n], i + 1, {"event": "test", "_deal": i // n, "_replay": i % n}


def assert_same(hands) -> int:
    hands = list(hands)
    for h in hands:
        assert hand_text(*h) == oracle_text(*h), h[0].history
    assert phhs_text(hands) == oracle_phhs(hands)
    return len(hands)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 8, 10])
def test_random_hands_match_pokerkit(n):
    hands = list(random_hands(GameConfig(n_players=n), 120, seed=n))
    assert assert_same(hands) == 120
    ends = {(st.went_to_showdown, st.history.count("/")) for st, *_ in hands}
    assert (False, 0) in ends and (True, 3) in ends  # folds pre-flop and show-downs
    assert any("rrrc" in "".join(st.round_histories) or "rrr" in st.history for st, *_ in hands)


@pytest.mark.parametrize(
    "game",
    [
        {"small_blind": 1, "big_blind": 2, "small_bet": 2, "big_bet": 4},
        {"small_blind": 10, "big_blind": 20, "small_bet": 20, "big_bet": 40},
        {"small_blind": 5, "big_blind": 10, "small_bet": 20, "big_bet": 40},
        {"small_blind": 10, "big_blind": 10, "small_bet": 10, "big_bet": 20},  # not heads-up: see test_errors
        {"small_blind": 0, "big_blind": 10, "small_bet": 10, "big_bet": 20},
        {"small_blind": 3, "big_blind": 7, "small_bet": 7, "big_bet": 14},
    ],
)
@pytest.mark.parametrize("n", [2, 3, 7])
def test_other_limits_match_pokerkit(game, n):
    if n == 2 and game["small_blind"] == game["big_blind"]:
        n = 4
    assert_same(random_hands(GameConfig(n_players=n, **game), 40, seed=n + game["big_blind"]))


@pytest.mark.parametrize("n", [2, 3, 4, 6, 9])
def test_ties_and_odd_chips_match_pokerkit(n):
    """A royal flush on the board: every show-down is a tie, the odd chips go as pokerkit sends them."""
    hands = list(random_hands(GameConfig(n_players=n), 60, seed=100 + n, board="AsKsQsJsTs"))
    assert_same(hands)
    payoffs = [st.payoffs for st, *_ in hands if st.went_to_showdown]
    assert payoffs and (n == 2 or any(len(set(p)) > 2 for p in payoffs))  # uneven shares: an odd chip


def test_uneven_split_pot():
    """Three-way tie of 35 chips after the small blind folds: 13 + 11 + 11 (pokerkit: the odd chips
    to the first winner left of the button, here the big blind)."""
    cfg = GameConfig(n_players=4)
    s = new_hand(cfg, 0, hole_cards=["2c3c", "4d5d", "6h7h", "8d9d"], board="AsKsQsJsTs")
    s.apply_many("ccfc/ccc/ccc/ccc")
    h = (s, ["a", "b", "c", "d"], 1)
    assert hand_text(*h) == oracle_text(*h)
    # p1 = seat 1 (small blind, folded), p2 = seat 2 (big blind), p3 = seat 3, p4 = seat 0 (button)
    assert "\nfinishing_stacks = [999995, 1000003, 1000001, 1000001]" in hand_text(*h)


def test_finite_stacks_match_pokerkit():
    """Finite stacks: hands without an all-in are written directly, hands with one go to pokerkit."""
    direct = allin = 0
    for stacks in (25, 60, 200, (15, 300, 45, 500, 1000)):
        cfg = GameConfig(n_players=5, stacks=stacks)
        for st, names, hid, fields in random_hands(cfg, 40, seed=7):
            assert hand_text(st, names, hid, fields) == oracle_text(st, names, hid, fields)
            if any(st.all_in):
                allin += 1
            else:
                direct += 1
    assert direct > 20 and allin > 20


def test_fields_match_pokerkit():
    st, names, _, _ = next(random_hands(GameConfig(n_players=3), 1, seed=1))
    cases = [
        (None, None, None),
        (names, "12", None),
        (names, "x12", {"event": "it's", "venue": "the lab", "_x": None, "_y": [1, "a", True], "_z": {"k": 2.5}}),
        (names, 3, {"hand": 9, "bring_in": 4, "min_bet": 2, "_note": "tab\there", "day": 5, "author": "me"}),
        (["o'neil", "b c", "d"], 0, {"_deal": 0, "players": ["x", "y", "z"], "seat_count": 9, "table": 2}),
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for nm, hid, fields in cases:
            assert hand_text(st, nm, hid, fields) == oracle_text(st, nm, hid, fields)


def test_errors():
    s = new_hand(GameConfig(n_players=3), 0, rng=0)
    with pytest.raises(ValueError, match="not finished"):
        hand_text(s)
    s = new_hand(GameConfig(n_players=3, max_bets=3), 0, rng=0)
    s.apply_many("fc")
    with pytest.raises(ConfigError, match="max_bets"):
        hand_text(s)
    s = new_hand(GameConfig(n_players=2, small_blind=10), 0, rng=0)
    s.apply_many("rf")
    for write in (hand_text, oracle_text):  # pokerkit cannot replay it: neither writes it
        with pytest.raises(HandHistoryError, match="equal blinds|pokerkit expects"):
            write(s)
    s = new_hand(GameConfig(n_players=2), 0, rng=0, record_events=False)
    s.apply_many("f")
    with pytest.raises(ValueError, match="events"):
        hand_text(s)


BLOCKS = [
    ([{"type": "random"}, {"type": "calling"}], 6),
    ([{"type": "maniac"}, {"type": "random", "count": 2}], 5),
    ([{"type": "loki1", "count": 2}, {"type": "random", "count": 2}, {"type": "maniac"}, {"type": "calling"}], 3),
    ([{"type": "random", "count": 5}, {"type": "maniac", "count": 2}, {"type": "calling", "count": 3}], 3),
]


@pytest.mark.parametrize("players,deals", BLOCKS, ids=["2p", "3p", "6p", "10p"])
def test_tournament_blocks_match_pokerkit(players, deals, monkeypatch):
    """A tournament block's ``.phhs`` text, and everything else it returns, as with pokerkit's writer."""
    import loki.tournament.runner as runner

    cfg = config_from_dict({"name": "phh", "deals": deals, "block_deals": deals, "seed": 3, "players": players})
    ours = play_block(cfg, 0, with_histories=True)
    monkeypatch.setattr(runner, "hand_text", state_to_phh)
    monkeypatch.setattr(runner, "phhs_text", lambda hhs: HandHistory.dumps_all(hhs) + "\n")
    theirs = play_block(cfg, 0, with_histories=True)
    ours.pop("seconds"), theirs.pop("seconds")
    assert ours["phh"] == theirs["phh"]
    assert ours == theirs
    assert ours["phh"].count("\nvariant = 'FT'") == deals * cfg.n_players == ours["hands"]


def test_tournament_histories_without_pokerkit():
    """Playing a block with histories on never imports pokerkit (a fresh interpreter)."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from loki.tournament import config_from_dict, play_block\n"
        "cfg = config_from_dict({'name': 'x', 'deals': 2, 'block_deals': 2, 'players': [{'type': 'random', 'count': 3}]})\n"
        "assert play_block(cfg, 0, with_histories=True)['phh'].startswith('[1]')\n"
        "assert 'pokerkit' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_text_parses_back(tmp_path):
    """pokerkit reads the text back (and dumps it unchanged); read_phh gives back the hands."""
    hands = [h for n in (2, 3, 6, 10) for h in random_hands(GameConfig(n_players=n), 30, seed=50 + n)]
    text = phhs_text(hands)
    back = list(HandHistory.loads_all(text))
    assert len(back) == len(hands)
    assert HandHistory.dumps_all(back) + "\n" == text
    path = tmp_path / "h.phhs"
    assert write_phh(path, hands) == len(hands)
    recs = read_phh(path)
    for (st, names, hid, _), rec, hh in zip(hands, recs, back):
        n, b = st.n_players, st.button
        seat_of = [(b + 1 + k) % n for k in range(n)]
        assert rec.hand_id == hid
        assert rec.betting == st.history
        assert list(rec.names) == [names[s] for s in seat_of]
        assert list(rec.payoffs) == [st.payoffs[s] for s in seat_of]
        assert rec.board == format_cards(st.board)
        assert phh_to_record(hh, hid).betting == st.history
        assert rec.replay().payoffs == rec.payoffs
    one = tmp_path / "one.phh"
    write_phh(one, hands[:1])
    assert one.read_text() == oracle_text(*hands[0]) + "\n"
    assert [r.betting for r in read_phh(one)] == [hands[0][0].history]
    # several hands under another name than .phhs (loki play --out x.phh writes every hand of its session) read back
    for name in ("session.phh", "session.txt"):
        assert write_phh(tmp_path / name, hands[:5]) == 5
        assert [r.betting for r in read_phh(tmp_path / name)] == [h[0].history for h in hands[:5]]


HOSTILE = [
    "o'''brien",
    "you\nx = 1",
    "end'",
    "a''",
    "tab\tin",
    "bell\x07",
    "del\x7f",
    'back\\slash "q"',
    "é ü 漢",
    "''''",
]


@pytest.mark.parametrize("stacks", [None, 30])
def test_hostile_names_read_back(tmp_path, stacks):
    """Names pokerkit would write unreadably (three quotes, a line break, a final quote, control characters) are
    escaped, written directly and through pokerkit (all-in hands, finite stacks) alike, and read back unchanged; a
    name pokerkit writes readably is written as pokerkit writes it."""
    import tomllib

    cfg = GameConfig(n_players=3) if stacks is None else GameConfig(n_players=3, stacks=stacks)
    hands = []
    for i, (st, _, hid, _fields) in enumerate(random_hands(cfg, 3 * len(HOSTILE), seed=11)):
        names = [HOSTILE[i % len(HOSTILE)], HOSTILE[(i + 1) % len(HOSTILE)], f"p{i}"]
        hands.append((st, names, hid, {"event": HOSTILE[(i + 2) % len(HOSTILE)], "_note": HOSTILE[i % len(HOSTILE)]}))
    if stacks is not None:
        assert any(any(h[0].all_in) for h in hands)
    path = tmp_path / "h.phhs"
    write_phh(path, hands)
    recs = read_phh(path)
    assert len(recs) == len(hands)
    for (st, names, _, fields), rec, (_, table) in zip(
        hands, recs, sorted(tomllib.loads(path.read_text()).items(), key=lambda kv: int(kv[0]))
    ):
        n, b = st.n_players, st.button
        assert list(rec.names) == [names[(b + 1 + k) % n] for k in range(n)]
        assert table["event"] == fields["event"] and table["_note"] == fields["_note"]
    # readable names keep pokerkit's bytes
    st, names, hid, fields = next(random_hands(GameConfig(n_players=3), 1, seed=1))
    assert hand_text(st, ["it's", "b c", "x"], hid) == oracle_text(st, ["it's", "b c", "x"], hid)


def test_unwritable_string():
    st, _, hid, _ = next(random_hands(GameConfig(n_players=2), 1, seed=1))
    with pytest.raises(HandHistoryError, match="not valid Unicode"):
        hand_text(st, ["ok", "bad\ud800"], hid)


def test_finite_stack_hands_read_back(tmp_path):
    """Hands of finite stacks, all-ins and run-out boards included, read back with their stacks, betting and chips
    (before, the reader took every game for unlimited bankrolls and refused the all-in hands)."""
    total = allin = 0
    for stacks, n in ((25, 3), (60, 3), ((15, 300, 45, 500, 1000), 5)):
        cfg = GameConfig(n_players=n, stacks=stacks)
        hands = [(st, [f"p{i}" for i in range(n)], hid, None) for st, _, hid, _ in random_hands(cfg, 40, seed=11)]
        path = tmp_path / f"{n}-{total}.phhs"
        write_phh(path, hands)
        recs = read_phh(path)
        assert len(recs) == len(hands)
        for (st, _, _, _), rec in zip(hands, recs):
            seat_of = [(st.button + 1 + k) % n for k in range(n)]
            assert rec.betting == st.history
            assert list(rec.config.stacks) == [st.starting_stacks[s] for s in seat_of]
            assert list(rec.payoffs) == [st.payoffs[s] for s in seat_of]
            assert rec.replay().payoffs == rec.payoffs
            allin += any(st.all_in)
        total += len(hands)
    assert allin > 50
    # unlimited bankrolls (written as PHH_STACK chips) stay unlimited
    st, names, hid, _ = next(random_hands(GameConfig(n_players=3), 1, seed=2))
    write_phh(tmp_path / "u.phhs", [(st, names, hid)])
    assert read_phh(tmp_path / "u.phhs")[0].config.stacks is None


def test_finite_stack_hands_replay_with_their_players(tmp_path):
    """A table of unequal stacks whose button moves: replayed with the names in fixed seats, each stack moves with
    its player (the reader keeps finite stacks since 2026-11-27; the replay had put them on the wrong seats)."""
    from loki.players.registry import make_player
    from loki.players.table import play_hand
    from loki.tournament.replay import load_log, replay_hands

    cfg = GameConfig(n_players=3, stacks=(15, 300, 45))
    bots = [make_player("random", seed=i, name=f"b{i}") for i in range(3)]
    rng = np.random.default_rng(3)
    states = [play_hand(cfg, bots, h % 3, rng) for h in range(30)]
    assert sum(any(s.all_in) for s in states) > 10
    path = tmp_path / "s.phhs"
    write_phh(path, [(s, ["ann", "bob", "cid"], i + 1) for i, s in enumerate(states)])
    recs, skipped, _ = load_log(path)
    report = replay_hands(recs, "random", 0, skip_bad=False)
    assert not skipped and report.hands == 30 and report.to_dict()["payoff_mismatches"] == 0


def test_strings_pokerkit_writes_readably_keep_its_bytes():
    """Only what pokerkit would write unreadably is escaped: a final quote or two inside triple quotes read back, so
    they keep pokerkit's text; keys that need quoting read back too."""
    import tomllib

    from loki.io.phh_write import _key, phh_string

    for s in ["end'", "a''", "'", "''", "'a", "it's", "b c", "tab\there"]:
        st, _, hid, _ = next(random_hands(GameConfig(n_players=2), 1, seed=1))
        assert hand_text(st, [s, "x"], hid) == oracle_text(st, [s, "x"], hid), s
        assert tomllib.loads(f"x = {phh_string(s)}")["x"] == s
    for k in ["it's x", "a.b", "b c", 'q"uote', "nl\nx", "é"]:
        assert tomllib.loads(f"{_key(k)} = 1") == {k: 1}, k
