"""What a table shows a person, shared by the terminal (``loki play``) and the browser (``loki web``).

- :func:`position_names`: BTN, SB, BB, UTG, …, CO of every seat;
- :class:`HandLog`: follows a hand's public events and words them ("posts the big blind 10", "raises to 40",
  "calls 20"), keeping each seat's chips in this round and in the hand;
- :func:`hand_results`: who won each pot, how much, and with what (hand names at a showdown), and each seat's
  net result;
- :func:`plural`: a count and its noun, in the singular for one ("1 hand", "2 hands").

>>> position_names(6, button=0)
['BTN', 'SB', 'BB', 'UTG', 'HJ', 'CO']
>>> position_names(2, button=1)
['BB', 'BTN/SB']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from loki.engine import CALL, FOLD, STREET_NAMES, ActionTaken, BlindPosted, BoardDealt, HandState

__all__ = [
    "position_names",
    "HandLog",
    "LogLine",
    "PotResult",
    "hand_results",
    "pot_results",
    "describe_pots",
    "shown_hand_names",
    "plural",
]


def plural(n: int, noun: str, nouns: str | None = None) -> str:
    """``n`` and ``noun``, the noun in the plural (``nouns``, default ``noun + "s"``) unless ``n`` is 1.

    >>> plural(1, "hand"), plural(0, "hand"), plural(3, "decision"), plural(1, "match", "matches")
    ('1 hand', '0 hands', '3 decisions', '1 match')
    """
    return f"{n} {noun if n == 1 else (nouns or noun + 's')}"


_MIDDLE = {
    0: [],
    1: ["UTG"],
    2: ["UTG", "CO"],
    3: ["UTG", "HJ", "CO"],
    4: ["UTG", "MP", "HJ", "CO"],
    5: ["UTG", "UTG+1", "MP", "HJ", "CO"],
    6: ["UTG", "UTG+1", "UTG+2", "MP", "HJ", "CO"],
    7: ["UTG", "UTG+1", "UTG+2", "MP", "MP+1", "HJ", "CO"],
}


def position_names(n: int, button: int) -> list[str]:
    """The position of every seat (index = seat) at an ``n``-handed table with the button at ``button``.

    Heads-up the button posts the small blind (``"BTN/SB"``).

    Raises:
        ValueError: ``n`` outside 2..10 or ``button`` outside 0..n-1.
    """
    if not 2 <= n <= 10 or not 0 <= button < n:
        raise ValueError(f"position_names: n={n!r} must be 2..10 and button={button!r} a seat 0..{n - 1}")
    out = [""] * n
    if n == 2:
        out[button] = "BTN/SB"
        out[(button + 1) % 2] = "BB"
        return out
    names = ["BTN", "SB", "BB"] + _MIDDLE[n - 3]
    for k, nm in enumerate(names):
        out[(button + k) % n] = nm
    return out


@dataclass(frozen=True)
class LogLine:
    """One line of the action log: ``street`` 0..3, the acting ``seat`` (None for a board card), the ``verb``
    (``"posts"``, ``"folds"``, ``"checks"``, ``"calls"``, ``"bets"``, ``"raises"``, ``"flop"``…), ``amount``
    (chips put in by this action), ``total`` (the seat's chips in this round afterwards) and ``text`` without
    the actor's name."""

    street: int
    seat: int | None
    verb: str
    amount: float
    total: float
    text: str


@dataclass
class HandLog:
    """Follows one hand's events (feed every event to :meth:`add`).

    Attributes:
        n: seats; round_in: chips each seat put in this round; hand_in: chips each seat put in this hand;
        lines: the :class:`LogLine` so far; board: the visible board; folded: seats that folded.
    """

    n: int
    round_in: list[float] = field(default_factory=list)
    hand_in: list[float] = field(default_factory=list)
    lines: list[LogLine] = field(default_factory=list)
    board: tuple[int, ...] = ()
    folded: set[int] = field(default_factory=set)
    street: int = 0

    def __post_init__(self) -> None:
        self.round_in = [0.0] * self.n
        self.hand_in = [0.0] * self.n

    def add(self, ev) -> LogLine | None:
        """Take one event; returns the line it adds to the log (None for events that add none)."""
        from loki.cards import format_cards

        line: LogLine | None = None
        if isinstance(ev, BlindPosted):
            self.round_in[ev.seat] += ev.amount
            self.hand_in[ev.seat] += ev.amount
            line = LogLine(
                0, ev.seat, "posts", ev.amount, self.round_in[ev.seat], f"posts the {ev.kind} blind {ev.amount:g}"
            )
        elif isinstance(ev, ActionTaken):
            s = ev.seat
            self.round_in[s] += ev.amount
            self.hand_in[s] += ev.amount
            tot = self.round_in[s]
            if ev.action == FOLD:
                self.folded.add(s)
                verb, text = "folds", "folds"
            elif ev.action == CALL:
                verb = "checks" if ev.to_call == 0 else "calls"
                text = "checks" if ev.to_call == 0 else f"calls {ev.amount:g}"
            else:
                verb = "bets" if ev.bets == 0 else "raises"
                text = f"bets {ev.amount:g}" if ev.bets == 0 else f"raises to {tot:g}"
            if ev.all_in:
                text += " (all-in)"
            line = LogLine(ev.round, s, verb, ev.amount, tot, text)
        elif isinstance(ev, BoardDealt):
            self.round_in = [0.0] * self.n
            self.board = tuple(ev.board)
            self.street = ev.round
            line = LogLine(ev.round, None, STREET_NAMES[ev.round], 0, 0, format_cards(ev.cards))
        if line is not None:
            self.lines.append(line)
        return line


@dataclass(frozen=True)
class PotResult:
    """One pot: ``amount`` chips, the ``winners`` (seats), each one's ``share``, and the winning hand's name at a
    showdown (None when everyone else folded)."""

    amount: float
    winners: tuple[int, ...]
    shares: tuple[float, ...]
    hand_name: str | None
    main: bool


def pot_results(pots: Sequence, ranks: dict[int, int]) -> tuple[list[PotResult], dict[int, str]]:
    """The pots (:class:`loki.engine.PotAward`, as in ``HandEnded.pots``) with their winners and winning hand
    names, and the name of every hand shown (``ranks``: ``{seat: rank7}`` from the ``Showdown`` event, empty
    without a showdown)."""
    names = shown_hand_names(ranks)
    out = []
    for i, p in enumerate(pots):
        name = names.get(p.winners[0]) if ranks and p.winners else None
        out.append(PotResult(float(p.amount), tuple(p.winners), tuple(float(x) for x in p.shares), name, i == 0))
    return out, names


def shown_hand_names(ranks: dict[int, int]) -> dict[int, str]:
    """The name of every hand shown down (``ranks``: ``{seat: rank7}``), as a dealer reads them out: the category
    and its defining ranks (:func:`loki.evaluator.describe`), and the kickers too
    (:func:`loki.evaluator.describe_kickers`) when another shown hand reads the same without them but ranks
    differently (a kicker decided: ``"two pair, Sevens and Fives, Ace kicker"`` against ``"..., Nine kicker"``)."""
    from loki.evaluator import describe, describe_kickers

    plain = {int(s): describe(int(r)) for s, r in ranks.items()}
    out = {}
    for s, r in ranks.items():
        same = [t for t, q in ranks.items() if t != s and plain[int(t)] == plain[int(s)] and int(q) != int(r)]
        out[int(s)] = describe_kickers(int(r)) if same else plain[int(s)]
    return out


def hand_results(state: HandState) -> tuple[list[PotResult], dict[int, str]]:
    """:func:`pot_results` of a finished hand.

    Raises:
        ValueError: the hand is not finished.
    """
    if not state.is_terminal:
        raise ValueError("hand_results: the hand is not finished")
    return pot_results(state.pots, state.showdown_ranks if state.went_to_showdown else {})


def describe_pots(results: Sequence[PotResult], names: Sequence[str]) -> list[str]:
    """One sentence per pot: ``"Ann wins 120 with two pair, Kings and Fours"`` / ``"Bob wins 25 (everyone else
    folded)"``; split pots name every winner; a winner named ``"you"`` wins in the second person."""
    out = []
    for p in results:
        who = " and ".join(names[s] for s in p.winners)
        pot = "the pot" if p.main and len(results) == 1 else ("the main pot" if p.main else "a side pot")
        amount = " + ".join(f"{x:g}" for x in p.shares) if len(p.winners) > 1 else f"{p.amount:g}"
        how = f" with {p.hand_name}" if p.hand_name else " (everyone else folded)"
        verb = "split" if len(p.winners) > 1 else ("win" if who == "you" else "wins")
        if len(p.winners) > 1:
            out.append(f"{who} {verb} {pot} of {p.amount:g} ({amount}){how}")
        else:
            out.append(f"{who} {verb} {pot}, {amount} chips{how}")
    return out
