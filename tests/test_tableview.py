"""What a table shows a person (loki.io.tableview) and the terminal table of ``loki play``."""

from __future__ import annotations

import re

import pytest
from rich.console import Console

from loki.cli.human import play_human_session
from loki.engine import GameConfig, new_hand
from loki.io.tableview import HandLog, describe_pots, hand_results, position_names


def test_positions():
    assert position_names(2, 0) == ["BTN/SB", "BB"]
    assert position_names(3, 2) == ["SB", "BB", "BTN"]
    ten = position_names(10, 0)
    assert ten[:3] == ["BTN", "SB", "BB"] and ten[-1] == "CO" and len(set(ten)) == 10
    with pytest.raises(ValueError, match="button"):
        position_names(3, 3)


def test_hand_log_words_raise_totals_and_results():
    s = new_hand(GameConfig(n_players=3), button=2, hole_cards=["5d5c", "9hQd", "8dAs"], board="8s4h6d5sJs")
    log = HandLog(3)
    s.apply_many("rfrrcccrrcrrrrc")
    for ev in s.events:
        log.add(ev)
    texts = [(ln.seat, ln.text) for ln in log.lines]
    assert (0, "posts the small blind 5") in texts and (1, "posts the big blind 10") in texts
    assert (2, "raises to 20") in texts and (1, "raises to 30") in texts and (2, "raises to 40") in texts
    assert (0, "folds") in texts and (1, "calls 10") in texts
    assert any(t == "bets 20" for _, t in texts) and (None, "8s4h6d") in texts
    results, shown = hand_results(s)
    assert set(shown) == {1, 2} and all(shown.values())
    lines = describe_pots(results, ["a", "b", "c"])
    assert len(lines) == 1 and re.match(r"c wins the pot, \d+ chips with ", lines[0])
    with pytest.raises(ValueError, match="not finished"):
        hand_results(new_hand(GameConfig(n_players=2), 0, rng=1))
    s2 = new_hand(GameConfig(n_players=2), 0, rng=1)
    s2.apply_many("f")
    assert describe_pots(hand_results(s2)[0], ["you", "bob"]) == ["bob wins the pot, 15 chips (everyone else folded)"]


def test_terminal_table_shows_positions_totals_winners_and_explains():
    answers = iter(["e", "r", "e 2", "e 7", "c", "c", "c", "c", "f", "c", "c"] + ["c"] * 200)
    con = Console(record=True, width=160)
    prompts: list[str] = []

    def ask(p):
        prompts.append(p)
        return next(answers)

    s = play_human_session(2, 3, seed=3, opponent_type="loki1", input_fn=ask, console=con, pause=True)
    text = con.export_text()
    assert s.hands == 3
    assert "hand 1 — button:" in text and "hand 3 — button:" in text and "blinds 5/10, limits 10/20" in text
    assert re.search(r"\bBTN\b", text) and re.search(r"\bSB\b", text) and re.search(r"\bBB\b", text)
    assert "posts the small blind 5" in text or "post the small blind 5" in text
    assert re.search(r"raises? to \d+", text)
    assert re.search(r"(wins|win|split) the pot", text)
    assert "you win 0 chips" not in text
    assert any("e=explain" in p for p in prompts) and any(p.startswith("next hand") for p in prompts)
    assert "rule chain" in text or "pre-flop strategy" in text  # an explanation was shown
    assert "type e, or e and a seat 1..3" in text


def test_the_last_hand_pauses_so_its_decisions_can_be_explained():
    """After the session's last hand the pause comes once more (e explains a decision of that hand), then the result;
    the end of the input there ends the session normally."""
    con = Console(record=True, width=160)
    prompts: list[str] = []

    def ask(p):
        prompts.append(p)
        if p.startswith("the session's result"):
            return "e" if prompts.count(p) == 1 else ""
        return "c"

    s = play_human_session(2, 1, seed=3, opponent_type="loki1", input_fn=ask, console=con, pause=True)
    text = con.export_text()
    assert s.hands == 1 and prompts.count(prompts[-1]) == 2 and prompts[-1].startswith("the session's result")
    assert not any(p.startswith("next hand") for p in prompts)
    explained = max(text.find("rule chain"), text.find("pre-flop strategy"))
    assert 0 < explained < text.find("session: 1 hand")  # the explanation comes before the result table

    def ends(p):
        if p.startswith("the session's result"):
            raise EOFError
        return "c"

    con = Console(record=True, width=160)
    assert play_human_session(1, 1, seed=3, opponent_type="calling", input_fn=ends, console=con, pause=True).hands == 1
    text = con.export_text()
    assert "session ended" not in text and "session: 1 hand" in text


def test_fold_result_is_what_it_cost():
    con = Console(record=True, width=160)
    play_human_session(
        1, 2, seed=0, opponent_type="calling", input_fn=lambda p: "f" if "f=fold" in p else "c", console=con
    )
    text = con.export_text()
    assert "you folded:" in text and "you win 0 chips" not in text
    assert re.search(r"you folded: (lost 5 chips|lost 10 chips|it cost you nothing)", text)
