"""A person at the terminal: :class:`HumanPlayer` and :func:`play_human_session`.

The player is shown the table with rich (own cards, board, pot, every action) and asked for an
action: ``f``/``c``/``r`` or words (``fold``, ``check``, ``call``, ``bet``, ``raise``); bad or illegal
input is re-prompted, ``q``/``quit`` (or end of input) ends the session after summarising.
Input and output are injectable (``input_fn``, ``console``) so sessions can be scripted.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from loki.cards import format_cards
from loki.cli._console import rule
from loki.engine import (
    CALL,
    FOLD,
    RAISE,
    STREET_NAMES,
    Action,
    ActionTaken,
    BlindPosted,
    BoardDealt,
    GameConfig,
    HandEnded,
    PlayerView,
    Showdown,
)
from loki.errors import ConfigError
from loki.io.limits import digits
from loki.io.names import shown_markup
from loki.io.tableview import HandLog, describe_pots, position_names, pot_results
from loki.players.base import Player

__all__ = ["HumanPlayer", "QuitSession", "play_human_session", "SessionSummary"]

_SUITS = {"s": "♠", "h": "[red]♥[/]", "d": "[red]♦[/]", "c": "♣"}


class QuitSession(Exception):
    """The person asked to stop (``q``/``quit`` or end of input)."""


def pretty(cards) -> str:
    """Cards with suit symbols, for the terminal (``"A♠ K♠"``)."""
    text = format_cards(cards)
    return " ".join(text[i] + _SUITS[text[i + 1]] for i in range(0, len(text), 2)) or "-"


def _shown(text: str, limit: int = 40) -> str:
    """What a person typed, quoted back: at most ``limit`` characters, its rich markup escaped."""
    return shown_markup(repr(text if len(text) <= limit else text[:limit] + "..."), None)


class HumanPlayer(Player):
    """A person choosing actions at a terminal.

    Shows, every hand: the hand number, the blinds and limits, each seat's position (BTN, SB, BB, …), name and
    session result; every action with raise totals ("raises to 40"); the board; at the end who won each pot and
    with what hand, and what the person won or lost (a fold reports the chips it cost).

    At the action prompt ``e`` shows the explanation of the last bot decision (``e 3``: of seat 3's last
    decision), when ``explain_fn`` is given.

    Args:
        input_fn: ``prompt -> str`` (default :func:`input`); raising ``EOFError`` quits.
        console: a ``rich.console.Console`` (default: a new one).
        names: display names per seat (for the action log).
        explain_fn: ``seat or None -> DecisionExplanation | None``: the last bot decision's explanation (of that
            seat, or of any bot), or None when there is none.
        session: chips won so far per seat (shown in the seat table; updated by the caller).
    """

    def __init__(
        self,
        input_fn: Callable[[str], str] | None = None,
        console=None,
        name: str = "you",
        names: Sequence[str] | None = None,
        explain_fn: Callable[[int | None], Any] | None = None,
        session: Sequence[float] | None = None,
    ):
        from loki.cli._console import make_console

        self.input_fn = input_fn or input
        self.console = console or make_console(highlight=False)
        self.name = name
        self.names = list(names) if names else None
        self.explain_fn = explain_fn
        self.session = session
        self.hand_no = 0
        self._log: HandLog | None = None
        self._ranks: dict[int, int] = {}
        self._folded = False

    def _who(self, seat: int) -> str:
        if seat == self.seat:
            return "[bold]you[/]"
        return shown_markup(self.names[seat], None) if self.names else f"seat {seat + 1}"

    def begin_hand(self, seat: int, config: GameConfig, hole_cards, button: int) -> None:
        from rich.table import Table

        self.seat, self.config, self.hole, self.button = seat, config, tuple(hole_cards), button
        self.hand_no += 1
        self._log = HandLog(config.n_players)
        self._ranks = {}
        self._folded = False
        n = config.n_players
        pos = position_names(n, button)
        rule(  # at most RULE_WIDTH wide: a pipe's console is 10,000 columns
            self.console,
            f"hand {self.hand_no} — button: {self._who(button)} — blinds {config.small_blind}/{config.big_blind}, "
            f"limits {config.small_bet}/{config.big_bet}",
        )
        t = Table(box=None, padding=(0, 1), show_header=True, header_style="dim")
        for col in ("seat", "pos", "player", "stack", "session"):
            t.add_column(col, justify="right" if col in ("seat", "session") else "left")
        for s in range(n):
            won = f"{self.session[s]:+g}" if self.session is not None else "-"
            st = config.stacks
            stack = "unlimited" if st is None else f"{st if isinstance(st, int) else st[s]:g}"
            t.add_row(str(s + 1), pos[s], self._who(s), stack, won)
        self.console.print(t)
        self.console.print(f"your cards: [bold]{pretty(self.hole)}[/]")

    def observe(self, event) -> None:
        c = self.console
        line = self._log.add(event) if self._log is not None else None
        if isinstance(event, ActionTaken) and line is not None:
            text = line.text
            if event.seat == self.seat:
                verb = text.split(" ", 1)
                text = verb[0][:-1] + ("" if len(verb) == 1 else " " + verb[1])  # "you call 10"
                if event.action == FOLD:
                    self._folded = True
            c.print(f"  {self._who(event.seat)} {text}")
        elif isinstance(event, BlindPosted) and line is not None:
            text = line.text if event.seat != self.seat else "post" + line.text[5:]
            c.print(f"  {self._who(event.seat)} {text}", style="dim")
        elif isinstance(event, BoardDealt):
            c.print(f"[cyan]{STREET_NAMES[event.round]}[/]: {pretty(event.board)}")
        elif isinstance(event, Showdown):
            from loki.evaluator import describe

            for seat, cards, rank in event.hands:
                self._ranks[seat] = rank
                c.print(
                    f"  {self._who(seat)} show{'' if seat == self.seat else 's'} {pretty(cards)} — {describe(rank)}"
                )
        elif isinstance(event, HandEnded):
            names = [
                "you" if s == self.seat else (self.names[s] if self.names else f"seat {s + 1}")
                for s in range(len(event.payoffs))
            ]
            results, _ = pot_results(event.pots, self._ranks if event.showdown else {})
            for text in describe_pots(results, names):
                c.print(f"  {shown_markup(text, None)}")
            won = event.payoffs[self.seat]
            style = "green" if won > 0 else "red" if won < 0 else "white"
            if self._folded:
                msg = f"you folded: {'lost ' + format(-won, 'g') + ' chips' if won < 0 else 'it cost you nothing'}"
            elif won > 0:
                msg = f"you win {won:g} chips"
            elif won < 0:
                msg = f"you lose {-won:g} chips"
            else:
                msg = "you break even"
            c.print(f"[{style}]{msg}[/]")

    def show_explanation(self, text: str) -> None:
        """Answer an ``e`` / ``e SEAT`` request: print the explanation asked for, or why there is none."""
        from loki.explain.render import render_explanation

        if self.explain_fn is None:
            self.console.print("[yellow]no explanations at this table[/]")
            return
        arg = text[1:].strip()
        seat: int | None = None
        if arg:
            if not digits(arg) or not 1 <= int(arg) <= self.config.n_players:
                self.console.print(f"[yellow]{_shown(text)}: type e, or e and a seat 1..{self.config.n_players}[/]")
                return
            seat = int(arg) - 1
        e = self.explain_fn(seat)
        if e is None:
            self.console.print(
                "[yellow]no bot decision to explain yet" + (f" for seat {seat + 1}" if seat is not None else "") + "[/]"
            )
            return
        self.console.print(render_explanation(e))

    def act(self, view: PlayerView, legal_actions: Sequence[Action]) -> Action:
        to_call = view.to_call()
        self.console.print(
            f"[bold]{view.street_name}[/] board {pretty(view.board)} | pot {view.pot} | to call {to_call} "
            f"| your cards {pretty(view.hole_cards)}"
        )
        names = {
            FOLD: "f=fold",
            CALL: "c=check" if to_call == 0 else "c=call",
            RAISE: "r=bet" if view.bets_this_round == 0 else "r=raise",
        }
        options = ", ".join(names[a] for a in legal_actions)
        extra = ", e=explain" if self.explain_fn is not None else ""
        while True:
            try:
                text = self.input_fn(f"your action ({options}{extra}, q=quit): ")
            except EOFError:
                raise QuitSession() from None
            text = (text or "").strip().lower()
            if text in ("q", "quit", "exit"):
                raise QuitSession()
            if text == "e" or (text.startswith("e ") and self.explain_fn is not None) or text == "explain":
                self.show_explanation("e" if text == "explain" else text)
                continue
            try:
                a = Action.parse(text)
            except ValueError:
                self.console.print(
                    f"[yellow]{_shown(text)} is not an action: type f, c or r (or fold/check/call/bet/raise)[/]"
                )
                continue
            if a not in legal_actions:
                why = "checking is free" if a is FOLD else "the betting is capped"
                self.console.print(f"[yellow]{a.name.lower()} is not possible here ({why}); choose {options}[/]")
                continue
            return a


def _between_hands(human: HumanPlayer, input_fn: Callable[[str], str], last: bool = False) -> bool:
    """The pause after a hand: Enter (or anything else) goes on, ``e`` / ``e SEAT`` explain, ``q`` stops.  After the
    session's last hand (``last``) the same pause, so its bot decisions can be explained, before the result.
    Returns False to stop."""
    ask = "the session's result" if last else "next hand"
    while True:
        text = (input_fn(f"{ask}: Enter (e=explain the last bot decision, e N=seat N's, q=quit): ") or "").strip()
        text = text.lower()
        if text in ("q", "quit", "exit"):
            return False
        if text == "e" or text.startswith("e ") or text == "explain":
            human.show_explanation("e" if text == "explain" else text)
            continue
        return True


def _paused(human: HumanPlayer, input_fn: Callable[[str], str], last: bool) -> bool:
    """:func:`_between_hands`, with the end of the input read as ``q``; after the ``last`` hand the session ends
    either way (returns True: no "session ended" line)."""
    try:
        return _between_hands(human, input_fn, last) or last
    except EOFError:
        return last


@dataclass
class SessionSummary:
    """Hands played, chips per seat, the human's result in small bets per hand, the hands."""

    names: list[str]
    hands: int = 0
    chips: list[float] = field(default_factory=list)
    states: list = field(default_factory=list)
    small_bet: int = 10
    history: Path | None = None  # where the hand history was written

    def to_dict(self) -> dict:
        """A JSON-able summary: hands, per seat (1-based) name, chips and sb/hand, the history file."""
        return {
            "hands": self.hands,
            "players": [
                {"seat": i + 1, "name": nm, "chips": x, "sb_per_hand": r}
                for i, (nm, x, r) in enumerate(zip(self.names, self.chips, self.sb_per_hand))
            ],
            "history": None if self.history is None else str(self.history),
        }

    @property
    def sb_per_hand(self) -> list[float]:
        return [x / self.small_bet / self.hands if self.hands else 0.0 for x in self.chips]


def play_human_session(
    opponents: int = 5,
    hands: int = 20,
    seed: int = 0,
    opponent_type: str | Sequence[str] = "loki1",
    input_fn=None,
    console=None,
    phh_path=None,
    pause: bool = False,
) -> SessionSummary:
    """Seat a person (seat 0, "seat 1" on screen) against ``opponents`` bots for up to ``hands`` hands.

    The button moves every hand; the session ends early on ``q``.  The summary is printed (rich
    table) and returned; the hands are written to ``phh_path`` (PHH) if given.

    Args:
        opponents: number of bots (1..9).
        hands: hands to play at most.
        seed: seed of the deal; bot ``i`` (1-based) is seeded ``seed * 100 + i``.
        opponent_type: one player spec for every bot, or one spec per bot (``opponents`` of them).
        input_fn, console: see :class:`HumanPlayer`.
        phh_path: where to write the hand history (None: nowhere); rewritten after every hand, so a session
            that is stopped keeps its finished hands.
        pause: after each hand, the last one too, wait for Enter (``e`` / ``e SEAT`` explain the hand's bot decisions,
            ``q`` quits).

    Every bot is wrapped in a decision-neutral :class:`loki.explain.ExplainedPlayer`, so the person can ask why
    a bot acted (``e`` at any prompt).

    Returns:
        The :class:`SessionSummary` (names, hands, chips per seat, the finished hands).

    Raises:
        ConfigError: bad ``opponents``, or a list of specs not of length ``opponents``.
        PlayerSpecError, ValueError: a spec the registry cannot build.
        OutputPathError: a ``phh_path`` that cannot be written (a directory, a missing or read-only
            folder) -- checked before the first hand, so no session is lost.  Should the file still
            fail at the end, the hands go to a free ``loki-session*.phhs`` in the temporary folder
            instead.
    """
    from rich.table import Table

    from loki.cli._console import make_console
    from loki.players.registry import make_player
    from loki.players.table import play_hand

    if not 1 <= opponents <= 9:
        raise ConfigError(f"opponents = {opponents}: expected 1..9 bots")
    specs = [opponent_type] * opponents if isinstance(opponent_type, str) else list(opponent_type)
    if len(specs) != opponents:
        raise ConfigError(f"{len(specs)} player specs for {opponents} bots: expected one spec or one per bot")
    if phh_path:
        from loki.io.outpath import check_output_path

        phh_path = check_output_path(phh_path, "--phh")
    console = console or make_console(highlight=False)
    n = opponents + 1
    cfg = GameConfig(n_players=n)
    from loki.explain import ExplainedPlayer

    bots = [
        ExplainedPlayer(make_player(specs[i - 1], seed=seed * 100 + i, name=f"{specs[i - 1]}-{i + 1}"), keep=200)
        for i in range(1, n)
    ]
    names = ["you"] + [b.name for b in bots]
    for b in bots:
        b.names = names
    last: dict = {}

    def remember(e) -> None:
        last[None] = last[e.seat - 1] = e  # explanations number seats from 1

    for b in bots:
        b.on_explain = remember
    summary = SessionSummary(names, chips=[0.0] * n, small_bet=cfg.small_bet)
    human = HumanPlayer(input_fn, console, names=names, explain_fn=last.get, session=summary.chips)
    players = [human] + bots
    rng = np.random.default_rng(seed)

    def save() -> None:
        if phh_path:
            from loki.io.phh import write_phh

            try:
                write_phh(phh_path, [(s, names, i + 1) for i, s in enumerate(summary.states)])
            except OSError as e:  # tried again at the end of the session (then a fallback file)
                console.print(
                    f"[red]cannot write {shown_markup(phh_path, None)}: {shown_markup(e, None)}[/] "
                    "(the hands are kept; tried again at the end)"
                )

    for h in range(hands):
        try:
            st = play_hand(cfg, players, h % n, rng)
        except QuitSession:
            console.print("[bold]session ended[/]")
            break
        summary.hands += 1
        summary.states.append(st)
        for i, x in enumerate(st.payoffs):
            summary.chips[i] += x
        save()
        if pause and not _paused(human, input_fn or input, last=h + 1 == hands):
            console.print("[bold]session ended[/]")
            break
    from loki.io.tableview import plural

    t = Table(title=f"session: {plural(summary.hands, 'hand')}")
    for col in ("player", "chips", "sb/hand"):
        t.add_column(col, justify="left" if col == "player" else "right")
    for nm, x, r in zip(names, summary.chips, summary.sb_per_hand):
        t.add_row(shown_markup(nm, None), f"{x:+g}", f"{r:+.3f}")
    console.print(t)
    if phh_path and summary.states:
        from loki.io.phh import write_phh

        hands_ = [(s, names, i + 1) for i, s in enumerate(summary.states)]
        try:
            write_phh(phh_path, hands_)
        except OSError as e:  # the folder vanished or filled up during the session: keep the hands
            import tempfile

            from loki.io.outpath import free_path

            fallback = free_path(Path(tempfile.gettempdir()) / "loki-session.phhs")
            console.print(f"[red]cannot write {shown_markup(phh_path, None)}: {shown_markup(e, None)}[/]")
            write_phh(fallback, hands_)
            phh_path = fallback
        console.print(f"hand history written to {shown_markup(phh_path, None)}")
        summary.history = Path(phh_path)
    return summary
