"""The adaptive pre-flop model's opponent modelling (DEFAULT, beyond the sources: short-handed pre-flop; PAPP98 papp/node44).

The sources leave pre-flop opponent modelling for later ("until some amount of opponent modeling is implemented
into the pre-flop", papp/node44).  Here: each opponent's observed probability of playing instead of Eq. 6.2's
0.60 (:func:`play_probability`, :func:`modelled_expected_players`), and the facts of a heads-up contest
(:class:`HeadsUpSpot`), with their DEFAULTs in :class:`AdaptiveSettings`.  :class:`loki.preflop.PreflopPolicy` uses
them with ``model="adaptive"`` (or ``"auto"`` at short-handed tables); everything is re-exported by
:mod:`loki.preflop`.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Protocol

from loki.engine import PlayerView
from loki.errors import ConfigError, InputError
from loki.modeler.model import BLEND_OBSERVATIONS, OpponentModel

__all__ = [
    "PROBABILITY_PLAY",
    "PREFLOP_MODELS",
    "AdaptiveSettings",
    "SeatModels",
    "model_of",
    "HeadsUpSpot",
    "yet_to_act_seats",
    "play_probability",
    "modelled_expected_players",
]

#: Fraction of players yet to act expected to play to the flop (PAPP98 Eq. 6.2, "by default 0.60"): the model of an
#: opponent without observations.
PROBABILITY_PLAY = 0.6
#: The pre-flop models of :class:`PreflopPolicy`: ``"expert"`` is Loki-1's expert system as the sources describe it;
#: ``"adaptive"`` adds opponent modelling (DEFAULT, beyond the sources: :class:`AdaptiveSettings`).
PREFLOP_MODELS = ("auto", "expert", "adaptive", "contest")


@dataclass(frozen=True)
class AdaptiveSettings:
    """The DEFAULTs of the ``"adaptive"`` pre-flop model — opponent modelling the sources leave for later ("until
    some amount of opponent modeling is implemented into the pre-flop", papp/node44; "appropriate opponent modeling
    would provide much better estimates for this value [0.60]", papp/node44).  Everything here is beyond the sources.

    1. **Expected players** (Eq. 6.2 with observed values): each opponent still to act counts with its own playing
       probability (:func:`play_probability`: its observed pre-flop non-fold frequency facing what it will face,
       blended linearly with the 0.60 default until ``observations`` actions in that context, like Eq. 7.4).
    2. **Heads-up contests at short-handed tables** (group "2": exactly one live opponent, at a table of at most
       ``short_handed`` players; :class:`HeadsUpSpot`): the hand is valued
       against that opponent's current weight table — the range its observed pre-flop frequencies give it through the
       modeler's re-weighting (papp/node58-60) — as ``IR2 against the range = 1000·(2·equity − 1)``
       (:func:`loki.assessment.income_rate.holding_equity`), re-evaluated at every decision.  It raises when that value reaches
       Table B.1's group-2 Make4 threshold, or Make2's with fewer than two bets in; it checks when free; it calls
       when its equity is at least ``realization × to_call / (pot + to_call)`` (pot odds with a margin for playing
       the later streets), and folds otherwise.  This replaces the small blind's Call1/Call2 and Make1's
       "voluntarily in" kludge in heads-up contests; against an opponent who raises with anything the range is wide,
       so the blinds are defended, against one who raises only strong hands it is narrow, so Loki stays tight.
    3. Multi-way pots, and every pot at larger tables, keep the expert system (Table B.1 by the modelled group, the
       strategy kept for the round): the sources built and tuned it for 10-player rings, and there the calibration
       (docs/CALIBRATION.md) stays as it is (point 1 alone leaves 10-handed VPIP and PFR unchanged; heads-up contests
       valued as in point 2 would make the blinds defend more, +0.9 point of VPIP).

    Attributes:
        observations: observations of a context before its observed frequency replaces the 0.60 default
            (DEFAULT 20, the modeller's blending count, papp/node56).
        realization: the pot-odds margin of heads-up calls (DEFAULT, tuned heads-up on seeds ≥ 1000,
            experiments/short-handed-preflop); 1 = bare pot odds.
        default_play: Eq. 6.2's playing probability before any observation (PAPP98: 0.60).
        short_handed: the most players dealt in for point 2 (DEFAULT 6, "6-max"; measured at 2 and 3).

    Raises:
        ConfigError: a non-positive ``observations`` or ``realization``, or ``default_play`` outside [0, 1].
    """

    observations: int = BLEND_OBSERVATIONS
    realization: float = 1.3
    default_play: float = PROBABILITY_PLAY
    short_handed: int = 6
    raise_margin: float = 0.0
    contest_samples: int = 300
    prior_weight: float = 3.0
    pool: float = 0.5
    default_play_raised: float = 0.5
    default_reraise: float = 0.2

    def __post_init__(self) -> None:
        if (
            self.observations < 1
            or not 1 <= self.contest_samples <= 100_000
            or not -10.0 <= self.raise_margin <= 10.0
            or not self.realization > 0
            or not 0.0 <= self.default_play <= 1.0
            or self.short_handed < 2
        ):
            raise ConfigError(
                f"bad adaptive pre-flop settings: observations={self.observations!r} (≥ 1), "
                f"realization={self.realization!r} (> 0), default_play={self.default_play!r} (0..1), "
                f"short_handed={self.short_handed!r} (≥ 2)"
            )


class SeatModels(Protocol):
    """What the adaptive model reads of the opponent models: ``seat in models`` and ``models[seat]`` (a
    :class:`~loki.modeler.ModelStore` or a plain mapping)."""

    def __contains__(self, seat: object) -> bool: ...

    def __getitem__(self, seat: int) -> OpponentModel: ...


def model_of(models: SeatModels | None, seat: int) -> OpponentModel | None:
    """The model of ``seat`` in ``models``, or None (no models, or none for that seat)."""
    return models[seat] if models is not None and seat in models else None


def yet_to_act_seats(
    order: Sequence[int], me: int, small_blind: int, big_blind: int, folded: Collection[int], acted: Collection[int]
) -> list[int]:
    """The seats counted by ``num_yet_to_act`` (:func:`loki.engine.preflop_situation`): live players after ``me`` in the
    pre-flop order, before the small blind's turn comes round, that have not acted this round and are not blinds.

    >>> yet_to_act_seats([3, 4, 5, 0, 1, 2], me=5, small_blind=1, big_blind=2, folded={3, 4}, acted={3, 4})
    [0]
    """
    i = list(order).index(me)
    n = len(order)
    out = []
    for k in range(1, n):
        s = order[(i + k) % n]
        if s == small_blind:
            break
        if s in folded or s in acted or s == big_blind:
            continue
        out.append(s)
    return out


def play_probability(
    model: OpponentModel | None, bucket: int, settings: AdaptiveSettings = AdaptiveSettings()
) -> float:
    """An opponent's probability of playing on pre-flop (not folding) facing ``bucket`` (1: one bet, 2: two or more).

    ``a·(c + r)/n + (1 − a)·default_play`` with the opponent's observed pre-flop counts ``(f, c, r)`` in that bucket,
    ``n = f + c + r`` and ``a = min(n, observations)/observations`` (the linear blending of PAPP98 Eq. 7.4; DEFAULT).
    No model: ``default_play``.

    Raises:
        InputError: ``bucket`` not 1 or 2.

    >>> from loki.engine import Action
    >>> m = OpponentModel()
    >>> for _ in range(10): m.frequencies.record(0, 1, Action.FOLD)
    >>> play_probability(m, 1)  # half the way from 0.6 to the observed 0.0
    0.3
    """
    if bucket not in (1, 2):
        raise InputError(f"bucket={bucket!r}: expected 1 or 2 (a pre-flop player yet to act faces a bet)")
    if model is None:
        return settings.default_play
    cnt = model.frequencies.counts[0, bucket]
    n = int(cnt.sum())
    if n == 0:
        return settings.default_play
    a = min(n, settings.observations) / settings.observations
    return a * float(cnt[1] + cnt[2]) / n + (1.0 - a) * settings.default_play


def modelled_expected_players(
    view: PlayerView, models: SeatModels | None, settings: AdaptiveSettings = AdaptiveSettings()
) -> float:
    """Eq. 6.2 with each opponent's own playing probability: ``num_inpot + Σ play_probability(j)`` over the opponents
    yet to act (DEFAULT, :class:`AdaptiveSettings`); they face one bet (bucket 1) unless the pot has been raised."""
    inpot, _, _ = view.preflop_situation()
    folded = {s for s, f in enumerate(view.folded) if f}
    acted = {s for s, a in enumerate(view.acted_this_round) if a}
    seats = yet_to_act_seats(view.preflop_order, view.seat, view.small_blind_seat, view.big_blind_seat, folded, acted)
    bucket = 1 if view.bets_this_round <= 1 else 2
    return inpot + sum(play_probability(model_of(models, j), bucket, settings) for j in seats)


@dataclass(frozen=True)
class HeadsUpSpot:
    """How the ``"adaptive"`` model valued a heads-up contest (:class:`AdaptiveSettings` point 2).

    Attributes:
        opponent: the one live opponent's seat.
        equity: our all-in equity against its weight table (0..1).
        value: IR2 against that range, ``1000·(2·equity − 1)`` (IR ×1000).
        price: ``to_call / (pot + to_call)`` (0 when checking is free).
        required: the equity a call needs, ``realization × price``.
        modelled: the opponent's weight table came from a model (False: uniform, no model of that seat).
    """

    opponent: int
    equity: float
    value: float
    price: float
    required: float
    modelled: bool
