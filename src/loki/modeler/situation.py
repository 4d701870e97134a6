"""A post-flop decision's inputs, gathered once: the public view, the legal actions and the opponent models.

Data flows one way (docs/ARCHITECTURE.md): the engine's :class:`~loki.engine.PlayerView` holds the public
facts (computed once by the engine), the :class:`~loki.modeler.ModelStore` the weight tables; a
:class:`Situation` combines them for a policy (Bettor, Action Selector, Simulator) and computes, on demand,
the two things every post-flop policy of Loki asks for: our hand's assessment against the field of the
live opponents (:meth:`hand_values`, the Hand Evaluator box) and the public betting spot
(:meth:`betting_spot`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from loki.assessment import Assessment, assess, assess_field, equity_against
from loki.engine import Action, PlayerView
from loki.errors import InputError
from loki.modeler.model import ModelStore
from loki.triples.spot import BettingSpot, HandValues

__all__ = ["Situation"]


class Situation:
    """Everything a post-flop policy needs for one decision.

    Args:
        view: the deciding player's view (its seat, hole cards, the board, the public state).
        legal: the legal actions (non-empty).
        models: the player's opponent models (weight tables by seat).
        modeler: the player's opponent modeler (the Simulator's believed play-out plays each opponent by it).
        revealed: every seat's hole cards, for an **oracle** player only (a cheat of the experiments on what limits B and S,
            given by the table in ``loki tournament`` and ``loki tune``); None for every honest player.

    Attributes:
        view, legal, models, modeler, revealed: as given; ``seat`` the deciding seat.
    """

    __slots__ = ("view", "legal", "models", "modeler", "seat", "revealed", "_values", "_assessments")

    def __init__(
        self,
        view: PlayerView,
        legal: Sequence[Action],
        models: ModelStore,
        modeler: object = None,
        revealed: Sequence[tuple[int, int]] | None = None,
    ):
        self.view = view
        self.legal = legal
        self.models = models
        self.modeler = modeler
        self.revealed = revealed
        self.seat = view.seat
        self._values: dict[int, HandValues] = {}
        self._assessments: dict[int, Assessment] = {}

    @property
    def live_opponents(self) -> list[int]:
        """Seats of the opponents still in the hand, in seat order."""
        folded = self.view.folded
        return [s for s in range(self.view.n_players) if s != self.seat and not folded[s]]

    def assessment(self, lookahead: int = 1) -> Assessment:
        """Our hand assessed against the field array of the live opponents' weight tables (HS_n with n = live
        opponents, PPot/NPot with ``lookahead`` 1 or 2 on the flop, 1 later; PAPP98 papp/node39-41, §6.2): the full
        :class:`loki.assessment.Assessment` (counts included; explanations show it).

        Computed once per lookahead and cached for this decision.

        Raises:
            loki.errors.RangeError: a live opponent's table has no weight on any possible holding (cannot
                happen with the 0.01 floor of the modelers).
        """
        la = lookahead if self.view.round == 1 else 1
        a = self._assessments.get(la)
        if a is None:
            opps = self.live_opponents
            a = self._assessments[la] = assess_field(
                self.view.hole_cards, self.view.board, [self.models[s].weights for s in opps], len(opps), la
            )
        return a

    def hand_values(self, lookahead: int = 1) -> HandValues:
        """The four numbers of :meth:`assessment` the betting rules read (EHS', EHS, HS_n, PPot)."""
        la = lookahead if self.view.round == 1 else 1
        v = self._values.get(la)
        if v is None:
            a = self.assessment(la)
            v = self._values[la] = HandValues(ehs_prime=a.ehs_prime, ehs=a.ehs, hs_n=a.hs_n, ppot=a.ppot)
        return v

    def oracle_values(self) -> HandValues:
        """CHEAT (the ablations of what limits B and S): our hand's exact all-in equity against the live opponents' **true** holdings
        as every value the rules read (EHS' = EHS = HS_n = PPot = equity; :func:`loki.assessment.equity_against`).

        Raises:
            InputError: the player was not given the hole cards (``revealed`` is None).
        """
        if self.revealed is None:
            raise InputError("oracle values need every seat's hole cards: oracle players play in loki tournament only")
        opps = [self.revealed[s] for s in self.live_opponents]
        e = equity_against(self.view.hole_cards, self.view.board, opps)
        return HandValues(ehs_prime=e, ehs=e, hs_n=e, ppot=e)

    def betting_spot(self, semi_bluffing: bool = False) -> BettingSpot:
        """The public betting situation of our decision (:class:`loki.triples.spot.BettingSpot`), with our own
        semi-bluff state (Bettor rule 4's continuation; only the player knows it).

        ``first_to_act`` is "nobody has acted yet this round"; ``aggressor_behind`` is "an opponent who bet or
        raised in the previous round is still in the hand and has not acted this round" (the check-raise rule's
        condition, loki-algorithms.md §3 rule 6)."""
        v = self.view
        n = v.n_players
        r = v.round
        seat = self.seat
        folded, acted, raised = v.folded, v.acted_this_round, v.raised_last_round
        aggressor_behind = any(
            raised[s] and not folded[s] and not acted[s] for s in ((seat + k) % n for k in range(1, n))
        )
        g = v.config
        return BettingSpot(
            street=r,
            pot=float(v.pot),
            to_call=float(v.to_call()),
            bet_size=float(v.bet_size),
            bets_this_round=v.bets_this_round,
            voluntarily_in=v.voluntary_this_round[seat],
            can_raise=Action.RAISE in self.legal,
            first_to_act=v.actions_this_round == 0,
            aggressor_behind=aggressor_behind,
            semi_bluffing=semi_bluffing,
            next_bet_size=float(g.bet_sizes[r + 1]) if r < 3 else 0.0,
        )

    def called_strength(self, fold_frequencies: Sequence[float], lookahead: int = 1, softness: float = 0.1) -> float:
        """EHS of our hand against the opponents that would call a raise: each live opponent's table without the
        bottom ``fold_frequencies[i]`` of its range (ranked by EHS' as it would rate its hand, soft edge of
        ``softness`` in percentile; DEFAULT), HS_n with n = the live opponents.  Used by the EV generator."""
        from loki.assessment import uniform_board_values
        from loki.cards import HOLDING_MASKS, cards_mask
        from loki.modeler.specific import range_percentiles

        v = self.view
        opps = self.live_opponents
        hs1, pp, _ = uniform_board_values(v.board)
        hs_n = hs1 ** max(1, len(opps))
        values = hs_n + (1.0 - hs_n) * pp
        live = (HOLDING_MASKS & np.uint64(cards_mask(tuple(v.hole_cards) + tuple(v.board)))) == 0
        ranges = []
        for s, phi in zip(opps, fold_frequencies):
            w = self.models[s].weights
            q = range_percentiles(values, w, live)
            keep = np.clip((q - (phi - softness)) / (2.0 * softness), 0.0, 1.0)
            ranges.append(np.maximum(w * keep, 1e-9))
        la = lookahead if v.round == 1 else 1
        return float(assess(v.hole_cards, v.board, ranges, n_opponents=len(opps), lookahead=la).ehs)

    def weights_in_order(self, order: Sequence[int]) -> np.ndarray:
        """``(len(order), 1326) float64`` weight tables of the seats in ``order`` (rows of our seat and of folded
        players are 1.0: unused)."""
        w = np.ones((len(order), 1326))
        folded = self.view.folded
        for i, s in enumerate(order):
            if s != self.seat and not folded[s]:
                w[i] = self.models[s].weights
        return w
