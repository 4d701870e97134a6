"""Standard per-hand player statistics (VPIP, PFR, AF, WTSD, W$SD) counted from a finished hand.

:func:`hand_counts` reads the events of a finished hand (:mod:`loki.engine` events) and returns one
:class:`HandCounts` per seat; :class:`HandCounts` also accumulates hands (``+=``, ``sum``) and gives
the ratios.  The tournament (:mod:`loki.tournament.runner`, :mod:`loki.tournament.stats`), the
replay of real logs (:mod:`loki.tournament.replay`) and ``scripts/calibrate_preflop.py`` all count with it.

Counters (per seat; one hand gives 0 or 1 for each but the two post-flop action counts):

- ``hands``: hands dealt (1 for every seat);
- ``vpip``: the player voluntarily put chips in the pot pre-flop: a raise, or a call putting in
  chips (``amount > 0``).  Posting a blind does not count, nor the big blind's free check; the
  small blind completing does;
- ``pfr``: the player raised pre-flop (at least once); a pre-flop raise is also VPIP;
- ``saw_flop``: the player had not folded when the flop was dealt (an all-in run-out counts);
- ``pf_raises``: post-flop (flop, turn, river) bets and raises, in **actions** (``pf`` = post-flop);
- ``pf_calls``: post-flop calls putting in chips, in **actions** (checks are not calls);
- ``showdowns``: the hand ended in a showdown (``HandEnded.showdown``) with the player not folded;
- ``showdown_wins``: at such a showdown the player is among the winners of at least one pot
  (``PotAward.winners``: a split pot or a side pot counts as a win for each of its winners).

Ratios (:class:`HandCounts`; ``None`` when the denominator is 0):

- ``vpip_pct`` = 100 · vpip / hands, ``pfr_pct`` = 100 · pfr / hands (percent of hands);
- ``af`` = pf_raises / pf_calls (post-flop aggression factor, bets+raises per call, no unit);
- ``wtsd_pct`` = 100 · showdowns / saw_flop (percent of the flops seen that went to a showdown);
- ``wsd_pct`` = 100 · showdown_wins / showdowns (percent of showdowns won, W$SD).

:meth:`HandCounts.fractions` gives the same ratios as fractions (0..1, AF unchanged), as the
tournament's ``summary.json`` reports them.

Example (the engine's example hand: seat 2 raises, the small blind folds, the big blind re-raises,
both check the flop and bet it out on the turn and the river, seat 2 wins the showdown)::

    >>> from loki.engine import GameConfig, new_hand
    >>> s = new_hand(GameConfig(n_players=3), button=2, hole_cards=["5d5c", "9hQd", "8dAs"],
    ...              board="8s4h6d5sJs")
    >>> s.apply_many("rfrrc/cc/rrc/rrrrc")
    >>> COUNTERS
    ('hands', 'vpip', 'pfr', 'saw_flop', 'pf_raises', 'pf_calls', 'showdowns', 'showdown_wins')
    >>> [c.astuple() for c in hand_counts(s)]
    [(1, 0, 0, 0, 0, 0, 0, 0), (1, 1, 1, 1, 3, 2, 1, 0), (1, 1, 1, 1, 3, 0, 1, 1)]
    >>> t = sum(hand_counts(s), HandCounts())
    >>> t.hands, round(t.vpip_pct, 1), t.af, t.wtsd_pct, t.wsd_pct
    (3, 66.7, 3.0, 100.0, 50.0)
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Self

from loki.engine import FOLD, RAISE, ActionTaken, BoardDealt, HandEnded, HandStarted
from loki.errors import HandHistoryError

__all__ = ["COUNTERS", "RATIOS", "HandCounts", "hand_counts"]

#: Ratio name -> (numerator counter, denominator counter, scale of the ``_pct`` form).
RATIOS = {
    "vpip": ("vpip", "hands", 100.0),
    "pfr": ("pfr", "hands", 100.0),
    "af": ("pf_raises", "pf_calls", None),
    "wtsd": ("showdowns", "saw_flop", 100.0),
    "wsd": ("showdown_wins", "showdowns", 100.0),
}


@dataclass
class HandCounts:
    """Counters of one seat in one hand, or summed over hands (see the module docstring).

    ``a += b`` adds ``b``'s counters to ``a`` (``b`` any :class:`HandCounts`); ``a + b`` and
    ``sum(counts, HandCounts())`` give a new one.
    """

    hands: int = 0
    vpip: int = 0
    pfr: int = 0
    saw_flop: int = 0
    pf_raises: int = 0
    pf_calls: int = 0
    showdowns: int = 0
    showdown_wins: int = 0

    def __iadd__(self, other: HandCounts) -> Self:
        for k in COUNTERS:
            setattr(self, k, getattr(self, k) + getattr(other, k))
        return self

    def __add__(self, other: HandCounts) -> HandCounts:
        out = HandCounts(*self.astuple())
        out += other
        return out

    def astuple(self) -> tuple[int, ...]:
        """The counters in :data:`COUNTERS` order."""
        return tuple(getattr(self, k) for k in COUNTERS)

    def as_dict(self) -> dict[str, int]:
        """``{counter: value}`` in :data:`COUNTERS` order (JSON-able)."""
        return {k: getattr(self, k) for k in COUNTERS}

    @classmethod
    def from_dict(cls, d: dict) -> HandCounts:
        """From a dict with (at least) the :data:`COUNTERS` keys."""
        return cls(*(d[k] for k in COUNTERS))

    def ratio(self, name: str, percent: bool = True) -> float | None:
        """Ratio ``name`` of :data:`RATIOS` (``None`` if its denominator is 0): in percent (AF as
        is) by default, as a fraction with ``percent=False``."""
        num, den, scale = RATIOS[name]
        b = getattr(self, den)
        if not b:
            return None
        a = getattr(self, num)
        return scale * a / b if percent and scale is not None else a / b

    def fractions(self) -> dict[str, float | None]:
        """``{"vpip", "pfr", "af", "wtsd", "wsd"}`` as fractions (the tournament summary's form)."""
        return {k: self.ratio(k, percent=False) for k in RATIOS}

    @property
    def vpip_pct(self) -> float | None:
        return self.ratio("vpip")

    @property
    def pfr_pct(self) -> float | None:
        return self.ratio("pfr")

    @property
    def af(self) -> float | None:
        return self.ratio("af")

    @property
    def wtsd_pct(self) -> float | None:
        return self.ratio("wtsd")

    @property
    def wsd_pct(self) -> float | None:
        return self.ratio("wsd")


#: Counter names, in order (also the keys of the tournament journal's ``counters``).
COUNTERS = tuple(f.name for f in fields(HandCounts))


def _events_of(hand, n_players: int | None) -> tuple[list, int]:
    """``(events, n)`` of a finished hand given as a state or as its events (see :func:`hand_counts`)."""
    if hasattr(hand, "events") and hasattr(hand, "n_players"):
        if not hand.events:
            raise HandHistoryError("hand_counts: the hand has no events (recording was disabled)")
        return hand.events, hand.n_players
    events = list(hand)
    n = n_players
    if n is None:
        n = next((ev.n_players for ev in events if ev.__class__ is HandStarted), None)
        if n is None:
            raise HandHistoryError("hand_counts: n_players is needed: no HandStarted event among the events")
    return events, n


def _count_action(c: HandCounts, ev: ActionTaken, folded: list[bool]) -> None:
    """One action into its seat's counters: pre-flop VPIP/PFR, post-flop bets/raises and calls (AF), folds."""
    a = ev.action
    if a == FOLD:
        folded[ev.seat] = True
    elif ev.round == 0:
        if a == RAISE:
            c.vpip = c.pfr = 1
        elif ev.amount > 0:
            c.vpip = 1
    elif a == RAISE:
        c.pf_raises += 1
    elif ev.amount > 0:
        c.pf_calls += 1


def hand_counts(hand, n_players: int | None = None) -> list[HandCounts]:
    """Per-seat :class:`HandCounts` of one finished hand (``hands`` = 1 for every seat).

    Args:
        hand: a finished :class:`~loki.engine.HandState` (with events recorded), or the events
            of one finished hand (an iterable of :mod:`loki.engine` events).
        n_players: number of seats when ``hand`` is events without a ``HandStarted`` event.

    Raises:
        HandHistoryError: the hand is not finished (no ``HandEnded`` event), no events were
            recorded, or the number of seats is unknown (a ``ValueError``).
    """
    events, n = _events_of(hand, n_players)
    counts = [HandCounts(hands=1) for _ in range(n)]
    folded = [False] * n
    ended = False
    for ev in events:
        cls = ev.__class__
        if cls is ActionTaken:
            _count_action(counts[ev.seat], ev, folded)
        elif cls is BoardDealt:
            if ev.round == 1:
                for s in range(n):
                    counts[s].saw_flop = 0 if folded[s] else 1
        elif cls is HandEnded:
            ended = True
            if ev.showdown:
                winners = {w for pot in ev.pots for w in pot.winners}
                for s in range(n):
                    if not folded[s]:
                        counts[s].showdowns = 1
                        counts[s].showdown_wins = 1 if s in winners else 0
    if not ended:
        raise HandHistoryError("hand_counts: the hand is not finished (no HandEnded event)")
    return counts
