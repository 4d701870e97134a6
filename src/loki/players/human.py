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

import numpy as np

from loki.cards import format_cards
from loki.engine import (
    CALL,
    FOLD,
    RAISE,
    STREET_NAMES,
    Action,
    ActionTaken,
    BoardDealt,
    GameConfig,
    HandEnded,
    PlayerView,
    Showdown,
)
from loki.errors import ConfigError
from loki.players.base import Player

__all__ = ["HumanPlayer", "QuitSession", "play_human_session", "SessionSummary"]

_SUITS = {"s": "♠", "h": "[red]♥[/]", "d": "[red]♦[/]", "c": "♣"}


class QuitSession(Exception):
    """The person asked to stop (``q``/``quit`` or end of input)."""


def pretty(cards) -> str:
    """Cards with suit symbols, for the terminal (``"A♠ K♠"``)."""
    text = format_cards(cards)
    return " ".join(text[i] + _SUITS[text[i + 1]] for i in range(0, len(text), 2)) or "-"


class HumanPlayer(Player):
    """A person choosing actions at a terminal.

    Args:
        input_fn: ``prompt -> str`` (default :func:`input`); raising ``EOFError`` quits.
        console: a ``rich.console.Console`` (default: a new one).
        names: display names per seat (for the action log).
    """

    def __init__(
        self,
        input_fn: Callable[[str], str] | None = None,
        console=None,
        name: str = "you",
        names: Sequence[str] | None = None,
    ):
        from rich.console import Console

        self.input_fn = input_fn or input
        self.console = console or Console(highlight=False)
        self.name = name
        self.names = list(names) if names else None

    def _who(self, seat: int) -> str:
        if seat == self.seat:
            return "[bold]you[/]"
        return self.names[seat] if self.names else f"seat {seat + 1}"

    def begin_hand(self, seat: int, config: GameConfig, hole_cards, button: int) -> None:
        self.seat, self.config, self.hole, self.button = seat, config, tuple(hole_cards), button
        self.console.rule(f"new hand — button: {self._who(button)}")
        self.console.print(f"your cards: [bold]{pretty(self.hole)}[/]")

    def observe(self, event) -> None:
        c = self.console
        if isinstance(event, ActionTaken):
            word = {
                FOLD: "folds",
                CALL: "checks" if event.to_call == 0 else "calls",
                RAISE: "bets" if event.bets == 0 else "raises",
            }[event.action]
            if event.seat == self.seat:
                word = word[:-1]  # "you call"
            c.print(f"  {self._who(event.seat)} {word}" + (f" ({event.amount})" if event.amount else ""))
        elif isinstance(event, BoardDealt):
            c.print(f"[cyan]{STREET_NAMES[event.round]}[/]: {pretty(event.board)}")
        elif isinstance(event, Showdown):
            for seat, cards, _ in event.hands:
                c.print(f"  {self._who(seat)} show{'' if seat == self.seat else 's'} {pretty(cards)}")
        elif isinstance(event, HandEnded):
            won = event.payoffs[self.seat]
            style = "green" if won > 0 else "red" if won < 0 else "white"
            c.print(f"[{style}]you {'win' if won >= 0 else 'lose'} {abs(won):g} chips[/]")

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
        while True:
            try:
                text = self.input_fn(f"your action ({options}, q=quit): ")
            except EOFError:
                raise QuitSession() from None
            text = (text or "").strip().lower()
            if text in ("q", "quit", "exit"):
                raise QuitSession()
            try:
                a = Action.parse(text)
            except ValueError:
                self.console.print(
                    f"[yellow]'{text}' is not an action: type f, c or r (or fold/check/call/bet/raise)[/]"
                )
                continue
            if a not in legal_actions:
                why = "checking is free" if a is FOLD else "the betting is capped"
                self.console.print(f"[yellow]{a.name.lower()} is not possible here ({why}); choose {options}[/]")
                continue
            return a


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
        phh_path: where to write the hand history (None: nowhere).

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
    from rich.console import Console
    from rich.table import Table

    from loki.players.registry import make_player
    from loki.table import play_hand

    if not 1 <= opponents <= 9:
        raise ConfigError(f"opponents = {opponents}: expected 1..9 bots")
    specs = [opponent_type] * opponents if isinstance(opponent_type, str) else list(opponent_type)
    if len(specs) != opponents:
        raise ConfigError(f"{len(specs)} player specs for {opponents} bots: expected one spec or one per bot")
    if phh_path:
        from loki.io.outpath import check_output_path

        phh_path = check_output_path(phh_path, "--phh")
    console = console or Console(highlight=False)
    n = opponents + 1
    cfg = GameConfig(n_players=n)
    bots = [make_player(specs[i - 1], seed=seed * 100 + i, name=f"{specs[i - 1]}-{i + 1}") for i in range(1, n)]
    names = ["you"] + [b.name for b in bots]
    human = HumanPlayer(input_fn, console, names=names)
    players = [human] + bots
    rng = np.random.default_rng(seed)
    summary = SessionSummary(names, chips=[0.0] * n, small_bet=cfg.small_bet)
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
    t = Table(title=f"session: {summary.hands} hands")
    for col in ("player", "chips", "sb/hand"):
        t.add_column(col, justify="left" if col == "player" else "right")
    for nm, x, r in zip(names, summary.chips, summary.sb_per_hand):
        t.add_row(nm, f"{x:+g}", f"{r:+.3f}")
    console.print(t)
    if phh_path and summary.states:
        from loki.io.phh import write_phh

        hands_ = [(s, names, i) for i, s in enumerate(summary.states)]
        try:
            write_phh(phh_path, hands_)
        except OSError as e:  # the folder vanished or filled up during the session: keep the hands
            import tempfile

            from loki.io.outpath import free_path

            fallback = free_path(Path(tempfile.gettempdir()) / "loki-session.phhs")
            console.print(f"[red]cannot write {phh_path}: {e}[/]")
            write_phh(fallback, hands_)
            phh_path = fallback
        console.print(f"hand history written to {phh_path}")
        summary.history = Path(phh_path)
    return summary
