"""The Opponent Modeler's data (PAPP98 papp/node53-56; AAAI99 Figure 2): per opponent a weight table over the
1,326 holdings (reset each hand) and action frequencies by context (kept across hands), in a seat-keyed store.

Frequencies by context (round, bets to call 0 / 1 / 2+) are blended linearly with Table B.2's defaults until 20
observations (:class:`ActionFrequencies`, RECONSTRUCTED Eq. 7.4).  The re-weighting rules live in
:mod:`loki.modeler.loki1` (Loki-1's μ/σ ramp) and :mod:`loki.modeler.triple_model` (probability triples).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal, Protocol

import numpy as np

from loki.assessment.weights import LOW_WEIGHT
from loki.cards import HOLDING_INDEX, HOLDING_MASKS, N_HOLDINGS, cards_mask
from loki.engine import Action, ActionTaken, GameConfig, Showdown
from loki.errors import InputError
from loki.modeler.kernels import BLEND_OBSERVATIONS, any_above, blend_frequencies, pooled_counts_into
from loki.modeler.quality import ModelQuality, holding_percentile
from loki.triples.rule_chain import bets_to_call_bucket as _bucket_kernel

#: The rule chain's bets-to-call bucket, called from Python without numba's dispatch (the same code).
bets_to_call_bucket = _bucket_kernel.py_func

__all__ = [
    "COLLAPSE_WEIGHT",
    "ModelTables",
    "DEFAULT_FREQUENCIES",
    "check_context",
    "pooled_counts",
    "pooled_counts_all",
    "frequency_counts",
    "BLEND_OBSERVATIONS",
    "ActionFrequencies",
    "OpponentModel",
    "ModelStore",
    "SharedModels",
    "ModelingContext",
    "OpponentModeler",
    "PlayoutPolicy",
    "ReweightDetails",
    "playout_policy_of",
    "bayesian_mean",
    "believed_of",
    "reweight_details_of",
]

#: Table B.2 (PAPP98 papp/node76): default frequencies d'[bets to call 0/1/2+][fold, check/call, bet/raise].
DEFAULT_FREQUENCIES = np.array([[0.0, 0.5, 0.5], [0.5, 0.3, 0.2], [0.7, 0.2, 0.1]])
DEFAULT_FREQUENCIES.setflags(write=False)
#: A re-weighting after which no possible holding weighs more than this has collapsed (every one at the floor).
COLLAPSE_WEIGHT = LOW_WEIGHT * (1.0 + 1e-9)


def pooled_counts_all(counts: np.ndarray, pool: float) -> np.ndarray:
    """``(4, 3, 3) float64``: an opponent's ``(fold, call, raise)`` counts in every context [round][bets to call
    0/1/2+], each with the counts of its neighbour contexts weighing ``pool`` each (DEFAULT, beyond the sources: how a
    player acts facing one bet says something of how it acts facing two, and on the flop of how it acts on the turn):
    the same street's other bucket facing a bet, and after the flop the other post-flop streets' same bucket (their
    other bucket ``pool²``).  Pre-flop pools pre-flop only.  Each context's sum is taken in one order (its own
    counts, its other bucket, then each other post-flop street in turn: its bucket, its other bucket), so that one
    context's floats do not depend on how many contexts are pooled at once.

    Args:
        counts: ``(4, 3, 3)`` counts [round][bets to call 0/1/2+][fold, call, raise].
        pool: in [0, 1] (0: each context's own counts).

    >>> c = np.zeros((4, 3, 3)); c[1, 1] = (0, 4, 0); c[2, 2] = (1, 0, 0)
    >>> p = pooled_counts_all(c, 0.5)
    >>> p[3, 1].tolist(), p[0, 1].tolist()  # the river facing one bet: the flop's 4 calls, the turn's fold (x 0.25)
    ([0.25, 2.0, 0.0], [0.0, 0.0, 0.0])

    Raises:
        InputError: counts of another shape than ``(4, 3, 3)`` (:func:`frequency_counts`).
    """
    out = np.empty((4, 3, 3))
    pooled_counts_into(frequency_counts(counts), float(pool), out)  # one kernel: the rule context by context
    return out


def frequency_counts(counts) -> np.ndarray:
    """An opponent's action counts as the frequency kernels read them: ``(4, 3, 3) float64`` C-contiguous
    [round][bets to call 0/1/2+][fold, call, raise] (a copy unless ``counts`` already is one).

    Raises:
        InputError: counts of another shape (the kernels do not check their indices).
    """
    c = np.ascontiguousarray(counts, dtype=np.float64)
    if c.shape != (4, 3, 3):
        raise InputError(f"action counts of shape {c.shape}: expected (4, 3, 3) [round][bucket][action]")
    return c


def pooled_counts(counts: np.ndarray, street: int, bucket: int, pool: float) -> np.ndarray:
    """``(3,) float64``: an opponent's ``(fold, call, raise)`` counts in one context (``street`` 0..3, ``bucket`` 0..2),
    pooled with its neighbour contexts: :func:`pooled_counts_all`'s entry.

    >>> c = np.zeros((4, 3, 3)); c[1, 1] = (0, 4, 0); c[2, 2] = (1, 0, 0)
    >>> pooled_counts(c, 3, 1, 0.5).tolist()  # the river facing one bet: the flop's 4 calls, the turn's fold (x 0.25)
    [0.25, 2.0, 0.0]
    """
    return pooled_counts_all(counts, pool)[street, bucket]


def bayesian_mean(count, total, prior, weight: float):
    """The Bayesian mean of observed counts under a prior of ``weight`` pseudo-observations at ``prior``:
    ``(count + weight · prior) / (total + weight)``, for one count (floats) or arrays of counts, totals and priors
    (broadcast: e.g. ``(4, 3, 3)`` counts, ``(4, 3, 1)`` totals and a ``(3, 3)`` prior).  The rule by which the
    card-blind hypothesis (:mod:`loki.modeler.blind`) and the contest valuation (:mod:`loki.modeler.contest`) learn an
    opponent's frequencies in a context (DEFAULT, beyond the sources: a few pseudo-observations move after a hand or
    two where Loki-1's linear blend needs 20 observations).

    >>> bayesian_mean(3.0, 3.0, 0.5, 1.0)  # three calls in three chances, a prior of one half-call
    0.875
    """
    return (count + weight * prior) / (total + weight)


def check_context(round_: int, bucket: int) -> None:
    """Raise :class:`~loki.errors.InputError` unless ``round_`` is 0..3 and ``bucket`` 0..2 (a frequency context)."""
    if not (0 <= round_ <= 3 and 0 <= bucket <= 2):
        raise InputError(f"bad context round={round_!r} bucket={bucket!r}: expected 0..3 and 0..2")


@dataclass
class ActionFrequencies:
    """Counts of an opponent's actions by context, kept across hands (papp/node56).

    ``counts`` is ``(4, 3, 3) int64``: [round 0..3][bets-to-call bucket 0..2][fold, check/call, bet/raise].
    """

    counts: np.ndarray = field(default_factory=lambda: np.zeros((4, 3, 3), dtype=np.int64))

    def record(self, round_: int, bucket: int, action: Action) -> None:
        """Count one observed action.

        Raises:
            ValueError: round not 0..3 or bucket not 0..2.
        """
        if not (0 <= round_ <= 3 and 0 <= bucket <= 2):
            raise InputError(f"bad context round={round_!r} bucket={bucket!r}: expected 0..3 and 0..2")
        self.counts[round_, bucket, int(action)] += 1

    def blended(self, round_: int, bucket: int, specific: bool = True, prior_obs: float = 0.0) -> np.ndarray:
        """``(3,) float64`` frequencies [f, c, r] for a context (RECONSTRUCTED Eq. 7.4).

        With n observations in the context, ``f' = f·n/20 + d·(1 − n/20)`` for n < 20, where the default
        d is Table B.2 pre-flop and the blended frequency of the previous round (same bucket) afterwards.
        ``specific=False`` is generic modelling: always Table B.2.  ``prior_obs = k > 0``: ``n/(n + k)`` in place of
        ``n/20``, the Bayesian mean with the default as ``k`` pseudo-observations (DEFAULT, beyond the sources;
        :func:`loki.modeler.kernels.blend_frequencies`).
        """
        check_context(round_, bucket)
        out = np.empty(3)
        counts = np.ascontiguousarray(self.counts, dtype=np.int64)[np.newaxis]
        blend_frequencies(
            counts, 0, int(round_), int(bucket), bool(specific), DEFAULT_FREQUENCIES, out, float(prior_obs)
        )
        return out


class ModelTables:
    """The arrays behind an observer's opponent models (the compiled kernels): one row per model, so that the compiled
    re-weighting kernels (:mod:`loki.modeler.kernels`) work on plain arrays and a hand or a round starts for every
    opponent in one array operation.

    Attributes:
        weights: ``(rows, 1326) float64`` the weight tables (1.0 at the deal).
        round_start: ``(rows, 1326) float64`` the copies stored at the start of the round (Loki-1's stored copy).
        applied_mu: ``(rows,) float64`` the highest μ applied this round (−1 when none).
        counts: ``(rows, 4, 3, 3) int64`` action counts [round][bets-to-call bucket][fold, check/call, bet/raise].

    Rows are handed out by :meth:`add_row` and given back by :meth:`free_row`; the arrays grow (and are replaced)
    when more rows are needed, so hold the tables, not the arrays.

    Rows written are tracked so that a new hand resets, and a new round copies, only those (most opponents
    fold pre-flop without an action that re-weights them): whoever writes a row's weights (or hands out a writable
    view of them) marks it with :meth:`touch`, which puts it in ``dirty`` (weights may differ from 1.0);
    ``rs_dirty`` holds the rows whose round-start copy may differ from 1.0.  Views of a row obtained in one hand must
    not be written in the next.
    """

    def __init__(self, capacity: int = 1) -> None:
        cap = max(1, int(capacity))
        self.weights = np.ones((cap, N_HOLDINGS))
        self.round_start = np.ones((cap, N_HOLDINGS))
        self.applied_mu = np.full(cap, -1.0)
        self.counts = np.zeros((cap, 4, 3, 3), dtype=np.int64)
        # the counts as one flat memoryview (ModelStore.observe adds one count with one int index, no numpy scalar)
        self.counts_flat = self.counts.reshape(-1).data
        self._free = list(range(cap - 1, -1, -1))
        self.dirty: set[int] = set()
        self.rs_dirty: set[int] = set()

    def __getstate__(self) -> dict:
        # a memoryview does not pickle: the copy of a player (loki.players.frozen) rebuilds it from the counts
        state = dict(self.__dict__)
        del state["counts_flat"]
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self.counts_flat = self.counts.reshape(-1).data

    def touch(self, row: int) -> None:
        """Mark ``row``'s weights as possibly written this hand (no longer 1.0)."""
        self.dirty.add(row)

    def start_hand(self, rows: list[int] | None = None) -> None:
        """A hand starts for ``rows`` (row numbers, a list: numpy reads a tuple as one index per axis): their weights
        and round-start copies back to 1.0, no μ applied this round.  None: every row of the tables, one contiguous
        write each; the round-start copies then only if one may differ from 1.0 (a row in ``rs_dirty``: stored by
        :meth:`start_round` or handed out writable since the last reset; none is where no modeler reads them after
        the flop)."""
        if rows is None:
            self.weights.fill(1.0)
            if self.rs_dirty:
                self.round_start.fill(1.0)
                self.rs_dirty.clear()
            self.applied_mu.fill(-1.0)
            self.dirty.update(range(self.weights.shape[0]))
            return
        self.weights[rows] = 1.0
        self.round_start[rows] = 1.0
        self.applied_mu[rows] = -1.0
        self.dirty.update(rows)
        self.rs_dirty.update(rows)

    def start_round(self, rows: list[int] | None = None, copy: bool = True) -> None:
        """A betting round starts for ``rows`` (None: every row): their round-start copies of the weights (Loki-1's
        stored-copy rule; ``copy=False``: left as they are, for rows whose modelers never read them after the flop),
        no μ applied this round."""
        at = slice(None) if rows is None else rows
        if copy:
            self.round_start[at] = self.weights[at]
            self.rs_dirty.update(range(self.weights.shape[0]) if rows is None else rows)
        self.applied_mu[at] = -1.0

    def reserve(self, rows: int) -> None:
        """Make room for ``rows`` rows in use (the arrays are replaced when they grow)."""
        cap = self.weights.shape[0]
        more = rows - (cap - len(self._free))
        if more <= len(self._free):
            return
        grow = more - len(self._free)
        self.weights = np.concatenate([self.weights, np.ones((grow, N_HOLDINGS))])
        self.round_start = np.concatenate([self.round_start, np.ones((grow, N_HOLDINGS))])
        self.applied_mu = np.concatenate([self.applied_mu, np.full(grow, -1.0)])
        self.counts = np.concatenate([self.counts, np.zeros((grow, 4, 3, 3), dtype=np.int64)])
        self.counts_flat = self.counts.reshape(-1).data
        self._free = list(range(cap + grow - 1, cap - 1, -1)) + self._free

    def add_row(self) -> int:
        """A fresh row (weights 1.0, no counts), growing the arrays if all are in use."""
        if not self._free:
            self.reserve(2 * self.weights.shape[0])
        row = self._free.pop()
        self.weights[row] = 1.0
        self.round_start[row] = 1.0
        self.applied_mu[row] = -1.0
        self.counts[row] = 0
        return row

    def free_row(self, row: int) -> None:
        """Give a row back (its model is gone)."""
        self._free.append(row)


class OpponentModel:
    """What we know about one opponent: the hand's weight table and the long-run frequencies.

    The arrays live in a row of a :class:`ModelTables` (shared by a :class:`ModelStore`'s models; a model made on
    its own gets tables of its own).

    Attributes:
        weights: ``(1326,) float64`` current weight table (1.0 at the deal); assigning copies into the row.
        round_start: ``(1326,) float64`` copy stored at the start of the round (Loki-1's stored-copy rule).
        applied_mu: the highest μ applied this round (−1 when none).
        frequencies: :class:`ActionFrequencies` over the row's counts, kept across hands.
        trace: this hand's modelled actions, ``(round, action, likelihood)`` where ``likelihood(holding index)`` is
            the model's probability of the action given that holding (read at a showdown for model quality and
            learning); reset every hand.
        round_actions: the opponent's actions so far in the current round, ``(action, facing a bet)`` (a check is
            ``(CALL, False)``; a check then a raise is a check-raise).
        stats: what a modeler keeps about this opponent: statistics across hands (e.g. how unpredictable it has
            been), and state of the current hand tagged so that it is not read in another
            (:class:`loki.preflop.reweighting.StrategyReweighting`).

    >>> m = OpponentModel(); m.weights[:3] = 0.5; m.new_round(); m.round_start[:4].tolist()
    [0.5, 0.5, 0.5, 1.0]
    """

    __slots__ = ("tables", "row", "trace", "round_actions", "stats")

    def __init__(self, tables: ModelTables | None = None, row: int | None = None) -> None:
        if tables is None:
            tables = ModelTables(1)
            row = tables.add_row()
        elif row is None:
            row = tables.add_row()
        self.tables = tables
        self.row = row
        self.trace: list[tuple[int, Action, Callable[[int], float]]] = []
        self.round_actions: list[tuple[Action, bool]] = []
        self.stats: dict[str, Any] = {}

    @property
    def weights(self) -> np.ndarray:
        t = self.tables
        t.touch(self.row)  # a writable view
        return t.weights[self.row]

    @weights.setter
    def weights(self, value) -> None:
        t = self.tables
        t.touch(self.row)
        t.weights[self.row] = value

    @property
    def round_start(self) -> np.ndarray:
        t = self.tables
        t.rs_dirty.add(self.row)  # a writable view
        return t.round_start[self.row]

    @round_start.setter
    def round_start(self, value) -> None:
        t = self.tables
        t.rs_dirty.add(self.row)
        t.round_start[self.row] = value

    @property
    def applied_mu(self) -> float:
        return float(self.tables.applied_mu[self.row])

    @applied_mu.setter
    def applied_mu(self, value: float) -> None:
        self.tables.applied_mu[self.row] = value

    @property
    def frequencies(self) -> ActionFrequencies:
        return ActionFrequencies(self.tables.counts[self.row])

    def new_hand(self) -> None:
        """Reset the weight table to 1.0 and the hand's trace (frequencies and stats are kept)."""
        self.tables.start_hand([self.row])
        self.trace = []
        self.round_actions = []

    def new_round(self) -> None:
        """Store a copy of the weights for this round's (single) Loki-1 re-weighting."""
        self.tables.start_round([self.row])
        self.round_actions = []


class SharedModels:
    """Opponent models held once for a group of observers whose models would be equal (:meth:`ModelStore.share`):
    the group's :class:`ModelTables`, its model of the player at each seat, and, so that each event updates the
    models once, the last action and board they were updated for (held, not just compared by ``id``, so that a later
    event cannot be taken for them).  It holds no member (no reference cycle: a block's players are freed as soon as
    it ends).

    Attributes:
        tables: the rows of every model of the group.
        by_seat: the group's model of the player at each seat (one per player, the members' own seats included).
        moves: how many seating changes ``by_seat`` has followed (each member counts those it heard: the first to
            hear a change re-keys ``by_seat``).
        last_action, last_board: the ``ActionTaken`` and ``BoardDealt`` events the models were last updated for.
    """

    __slots__ = ("tables", "by_seat", "moves", "last_action", "last_board")

    def __init__(self) -> None:
        self.tables = ModelTables(1)
        self.by_seat: dict[int, OpponentModel] = {}
        self.moves = 0
        self.last_action: object = None
        self.last_board: object = None

    def model_at(self, seat: int) -> OpponentModel:
        """The group's model of the player at ``seat`` (a new one the first time the seat is asked for)."""
        m = self.by_seat.get(seat)
        if m is None:
            m = self.by_seat[seat] = OpponentModel(self.tables)
        return m


class ModelStore:
    """The Opponent Modeler's data: one :class:`OpponentModel` per opponent seat (AAAI99 Figure 2).

    Keyed by seat; the weight tables are reset every hand (:meth:`begin_hand`) and the action
    frequencies kept across hands; :meth:`reseat` re-keys the models when the players change seats
    (duplicate tournaments), so each model follows its opponent.  The models' arrays are rows of one
    :class:`ModelTables` (``store.tables``), so a hand or a round starts for all of them at once.
    Mapping-like: ``store[seat]``, ``seat in store``, ``len(store)``, ``store.items()``, ``store.values()``.

    >>> st = ModelStore(); st.begin_hand(me=0, n_players=3); sorted(st.models)
    [1, 2]
    >>> st.reseat({0: 2, 1: 0, 2: 1}); sorted(st.models)
    [0, 1]
    """

    def __init__(self) -> None:
        self.models: dict[int, OpponentModel] = {}
        self.quality = ModelQuality()
        self.tables = ModelTables(1)
        self.shared: SharedModels | None = None
        self._moves = 0  # seating changes heard (in a group: SharedModels.moves)

    @staticmethod
    def share(stores: Sequence[ModelStore]) -> None:
        """Let fresh stores hold their models once: observers whose modelers are equal and ``public_only`` (see
        :class:`OpponentModeler`) and who see the same events (the players of one table) hold equal models of every
        opponent, so the group keeps one model per player (one row of one :class:`ModelTables`) and each event
        updates it once, by the first member that observes it; each member keeps its own view by seat (without
        itself), its own model quality (the collapse test with its own dead cards) and its own reseating.  The
        members must observe every event and every seating change of the group (players of one table do).

        A model no member keeps after a reseating keeps its row (the rows are freed with the group).

        Raises:
            InputError: a store that already holds models or is in a group.
        """
        if len(stores) < 2:
            return
        group = SharedModels()
        for st in stores:
            if st.models or st.shared is not None:
                raise InputError("ModelStore.share: every store must be fresh (no models yet, in no group)")
        for st in stores:
            st.tables = group.tables
            st.shared = group
            st._moves = 0

    def begin_hand(self, me: int, n_players: int) -> None:
        """A hand starts at a table of ``n_players`` with us at ``me``: every other seat gets a model (new
        ones for new seats; in a group, the group's) and every weight table goes back to 1.0."""
        models = self.models
        group = self.shared
        self.tables.reserve(n_players - 1 if group is None else n_players)
        for s in range(n_players):
            if s != me and s not in models:
                models[s] = OpponentModel(self.tables) if group is None else group.model_at(s)
        t = self.tables
        # only rows that may have been written, row by row (cheaper than fancy indexing for the few rows written);
        # rows not in use are reset again when handed out
        if t.dirty:
            w = t.weights
            for r in t.dirty:
                w[r] = 1.0
            t.dirty.clear()
        if t.rs_dirty:
            rs = t.round_start
            for r in t.rs_dirty:
                rs[r] = 1.0
            t.rs_dirty.clear()
        t.applied_mu.fill(-1.0)
        for m in models.values():
            m.trace = []
            m.round_actions = []

    def new_round(self, folded: Collection[int] = (), event: object = None) -> None:
        """A betting round starts: every model stores its round-start copy (Loki-1's stored-copy rule).

        Args:
            folded: seats out of the hand; their models take no round-start copy (they will not act again this hand,
                so no re-weighting reads it; the next hand resets every table).  In a group every row written this
                hand takes its copy (the group's seats are not one member's).
            event: the ``BoardDealt`` event that started the round: in a group, the copies are taken once per event.
        """
        t = self.tables
        # a row not written since the hand began holds 1.0 in both arrays: its copy would change nothing
        dirty = t.dirty
        group = self.shared
        copy = True
        if group is not None:  # the copies once per event, of every row (the group's seats are not ours)
            copy = event is None or group.last_board is not event
            group.last_board = event
            folded = ()
        if dirty and copy:
            w, rs = t.weights, t.round_start
            if folded:
                for s, m in self.models.items():
                    r = m.row
                    if r in dirty and s not in folded:
                        rs[r] = w[r]
                        t.rs_dirty.add(r)
            else:
                for r in dirty:
                    rs[r] = w[r]
                t.rs_dirty.update(dirty)
        t.applied_mu.fill(-1.0)
        for m in self.models.values():
            m.round_actions = []

    def reseat(self, mapping: dict[int, int]) -> None:
        """Players moved: ``mapping[old_seat] = new_seat``; models of seats not in it are dropped (in a group their
        rows are kept: another member may hold them)."""
        group = self.shared
        if group is None:
            for s, m in self.models.items():
                if s not in mapping:
                    self.tables.free_row(m.row)
        else:
            self._moves += 1
            if self._moves > group.moves:  # the first member to hear this change: the group's models follow too
                group.moves = self._moves
                group.by_seat = {mapping[s]: m for s, m in group.by_seat.items() if s in mapping}
        self.models = {mapping[s]: m for s, m in self.models.items() if s in mapping}

    def observe(self, ev: ActionTaken, modeler: OpponentModeler, game: GameConfig, ctx: ModelingContext) -> None:
        """An opponent acted: re-weight its table with ``modeler`` (thresholds from the frequencies *before*
        this action; a fold re-weights nothing), then count the action in its frequencies (papp/node56).  In a
        group (:meth:`share`) the first member to observe ``ev`` does both; every member counts the re-weighting in
        its model quality, testing the table for a collapse with its own dead cards."""
        model = self.models[ev.seat]
        group = self.shared
        first = group is None or group.last_action is not ev  # in a group, another member may have updated it
        if group is not None:
            group.last_action = ev
        t = self.tables
        a = int(ev.action)
        if first:
            r = ev.round
            bucket = bets_to_call_bucket(ev.to_call / game.bet_sizes[r])
        if a != 0:  # not a fold
            collapsed = None
            if first:
                t.touch(model.row)
                collapsed = modeler.reweight(model, ev, bucket, ctx)
            q = self.quality
            q.reweights += 1
            if collapsed is None:  # the modeler does not say, or another member re-weighted: test the row
                collapsed = not any_above(t.weights, model.row, ctx.dead_mask(), HOLDING_MASKS, COLLAPSE_WEIGHT)
            if collapsed:
                q.collapses += 1
        if first:
            t.counts_flat[((model.row * 4 + r) * 3 + bucket) * 3 + a] += 1  # counts[row, r, bucket, a]
            model.round_actions.append((ev.action, ev.to_call > 0))

    def showdown(self, ev: Showdown, modeler: OpponentModeler, ctx: ModelingContext) -> None:
        """Hands are shown: for every opponent shown, its holding's percentile in our final table, the
        likelihood of its traced actions given that holding (:mod:`loki.modeler.quality`), and the modeler's
        ``learn(model, holding, ctx)`` if it has one."""
        dead = tuple(ctx.hole) + tuple(ctx.board)
        learn = getattr(modeler, "learn", None)
        for seat, cards, _rank in ev.hands:
            model = self.models.get(seat)
            if model is None:
                continue
            h = int(HOLDING_INDEX[cards[0], cards[1]])
            self.quality.percentiles.append(holding_percentile(model.weights, cards, dead))
            for _round, _action, lik in model.trace:
                self.quality.add_likelihood(lik(h))
            if learn is not None:
                model.tables.touch(model.row)
                learn(model, h, ctx)

    def __getitem__(self, seat: int) -> OpponentModel:
        return self.models[seat]

    def __contains__(self, seat: object) -> bool:
        return seat in self.models

    def __len__(self) -> int:
        return len(self.models)

    def items(self):
        return self.models.items()

    def values(self):
        return self.models.values()

    def keys(self):
        return self.models.keys()


@lru_cache(maxsize=4096)
def _cards_mask_of(cards: tuple[int, ...]) -> int:
    # a board is shared by every observer of a hand (and a hole pair by its rounds): its mask is looked up, not rebuilt
    return cards_mask(cards)


@lru_cache(maxsize=4096)
def _live_of(dead: int) -> np.ndarray:
    # the holdings sharing no card with the 52-bit mask ``dead``, (1326,) bool read-only
    a = (HOLDING_MASKS & np.uint64(dead)) == 0
    a.setflags(write=False)
    return a


@dataclass
class ModelingContext:
    """What the observer knows when it re-weights: its own seat and hole cards (dead cards for the
    opponent's possible holdings), the visible board, the rules, and the public facts of the round that an
    opponent's situation depends on (kept by :meth:`follow` from every action of the hand).

    Attributes:
        actions_this_round: actions taken in the current round before the one being modelled.
        acted, folded: seats that have checked/called/raised this round; seats out of the hand.
        raised_last_round: seats that bet or raised in the previous round.
        button: the hand's button seat (−1: not known; a pre-flop rule that needs the seats' positions then steps
            aside, :class:`loki.preflop.reweighting.StrategyReweighting`).
    """

    seat: int
    hole: tuple[int, int]
    board: tuple[int, ...]
    game: GameConfig
    button: int = -1
    actions_this_round: int = 0
    acted: set[int] = field(default_factory=set)
    folded: set[int] = field(default_factory=set)
    raised_this_round: set[int] = field(default_factory=set)
    raised_last_round: set[int] = field(default_factory=set)
    _dead_of: tuple = field(default=((), ()), init=False, repr=False, compare=False)
    _dead: np.uint64 = field(default=np.uint64(0), init=False, repr=False, compare=False)
    _live: np.ndarray | None = field(default=None, init=False, repr=False, compare=False)
    _per_board: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def dead_mask(self) -> np.uint64:
        """The 52-bit mask of the cards no opponent can hold (our hole cards and the board), kept until they change."""
        if self._dead_of[0] is not self.hole or self._dead_of[1] is not self.board:
            self._dead = np.uint64(_cards_mask_of(tuple(self.hole)) | _cards_mask_of(tuple(self.board)))
            self._dead_of = (self.hole, self.board)
            self._live = None
        return self._dead

    def per_board(self, key: Hashable, compute: Callable[[tuple[int, ...]], Any]) -> Any:
        """``compute(board)`` for the current board, computed once per board and ``key`` (values that depend on the
        board only, e.g. every holding's EHS' against a uniform range)."""
        memo = self._per_board
        if memo.get("") is not self.board:
            memo.clear()
            memo[""] = self.board
        v = memo.get(key)
        if v is None:
            v = memo[key] = compute(self.board)
        return v

    def live_holdings(self) -> np.ndarray:
        """``(1326,) bool`` read-only: the holdings sharing no card with our hole cards and the board (the ones an
        opponent may hold), a function of the dead cards only: kept process-wide (:func:`_live_of`, the same
        hole cards and board recur in every seating of a duplicate deal) and shared by the modelers that read it."""
        dead = self.dead_mask()
        if self._live is None:
            self._live = _live_of(int(dead))
        return self._live

    def follow(self, ev: ActionTaken) -> None:
        """Count an action (anyone's) into the round's public facts; call it after the models saw the action."""
        self.actions_this_round += 1
        if ev.action == Action.FOLD:
            self.folded.add(ev.seat)
        else:
            self.acted.add(ev.seat)
            if ev.action == Action.RAISE:
                self.raised_this_round.add(ev.seat)

    def next_round(self, board: tuple[int, ...]) -> None:
        """A new board: the round's facts start again."""
        self.board = board
        self.actions_this_round = 0
        self.acted = set()
        self.raised_last_round, self.raised_this_round = self.raised_this_round, set()

    def check_raise_condition(self, seat: int) -> bool:
        """The check-raise rule's public condition for ``seat`` about to act (loki-algorithms.md §3 rule 6): first
        to act this round, with a live player who raised in the previous round still to act behind it."""
        return self.actions_this_round == 0 and any(
            s != seat and s not in self.folded and s not in self.acted for s in self.raised_last_round
        )


class OpponentModeler(Protocol):
    """A re-weighting rule: updates one opponent's weight table after one of its (non-fold) actions.

    ``reweight(model, ev, bucket, ctx)`` gets the opponent's model, the ``ActionTaken`` event (the
    situation it faced before acting), its bets-to-call bucket (0, 1, 2+) and the observer's
    :class:`ModelingContext`; it changes ``model.weights`` in place or replaces them.  Frequencies
    are counted by :meth:`ModelStore.observe` after the call.  It may return whether the table collapsed (no
    holding sharing no card with ``ctx.dead_mask()`` above :data:`COLLAPSE_WEIGHT`), e.g. from the kernel that
    re-weighted it; None (or nothing) lets the store test the table.

    Optional methods (every built-in modeler has them; a plug-in without them gets the defaults of
    :func:`playout_policy_of` and :func:`reweight_details_of`):

    - ``learn(model, holding, ctx)``: called at a showdown with the holding the opponent showed;
    - ``playout_policy(model) -> PlayoutPolicy``: how the Simulator's believed play-out plays this opponent;
    - ``asks_believed(model) -> bool``: its policy's ``believed``, answered without building the policy
      (:func:`believed_of`);
    - ``reweight_details(model, ev, bucket) -> ReweightDetails``: what the re-weighting of ``ev`` is about to use, for
      explanations (called before ``reweight``);
    - ``reads_round_start``: whether its re-weighting after the flop reads the table stored at the start of the round
      (``model.round_start``, Loki-1's stored-copy rule); a modeler without it is taken to read it (the adaptive model
      stores its candidates' copies at the flop, turn and river only when one of them does);
    - ``public_only``: True when its re-weighting reads public information only (the opponent's actions, the board,
      the rules; the observer's own cards at most in the collapse test it returns) and it keeps nothing in
      ``model.stats`` and has no ``learn``: observers with equal modelers that saw the same events then hold the same
      models, which they may hold once (:meth:`ModelStore.share`).  A modeler without it is taken not to be.
    """

    def reweight(self, model: OpponentModel, ev: ActionTaken, bucket: int, ctx: ModelingContext) -> bool | None: ...


@dataclass(frozen=True)
class PlayoutPolicy:
    """How the Simulator's believed play-out plays one opponent: the opponent model as a play-out policy.

    The play-out kernel plays every simulated player by a mixture of three experts
    (:class:`loki.simulator.playout.PlayoutPolicies`): the rule chain with ``rules``, the frequency expert on the
    holding's percentile in the player's own range (:func:`loki.modeler.kernels.freq_triple`) with ``frequencies``,
    ``check_raise`` and ``softness``, and the card-blind ``frequencies`` as they are.  A modeler supplies one per
    opponent through ``playout_policy(model)``, so a plug-in model plays inside the Simulator as itself.

    Attributes:
        label: what the opponent is believed to be, for explanations (e.g. ``"observer triples"``).
        rules: the rule chain's parameters (:class:`loki.triples.TripleParams`); None: the observer's own Triple
            Generator.
        mix: weights of (rules, frequency expert, card-blind frequencies), non-negative, summing to 1.
        frequencies: ``(4, 3, 3) float64`` context frequencies [round][bets to call 0/1/2+][fold, call, raise] of the
            two frequency experts; None (zeros) when ``mix`` gives them no weight.
        check_raise: the frequency expert's check-raise propensity ρ in [0, 1].
        softness: the frequency expert's ramp half-width, in percentile (DEFAULT 0.1).
        ranking: where the frequency expert places a holding: ``"range"``, its percentile in the player's own range;
            ``"deck"``, among all the holdings alike (:class:`loki.modeler.SpecificModelConfig`'s
            ``frequency_ranking``).
        believed: the model asks for the believed play-out (a player with ``sim.play_outs = "auto"`` plays it when a
            live opponent's policy asks; the paper's model does not).

    Raises:
        InputError: a mixture that is not a distribution, frequencies of the wrong shape, ρ outside [0, 1], an unknown
            ranking.
    """

    label: str = "observer triples"
    rules: Any = None
    mix: tuple[float, float, float] = (1.0, 0.0, 0.0)
    frequencies: np.ndarray | None = None
    check_raise: float = 0.0
    softness: float = 0.1
    believed: bool = False
    ranking: Literal["range", "deck"] = "range"

    def __post_init__(self) -> None:
        m = tuple(float(x) for x in self.mix)
        if len(m) != 3 or min(m) < 0.0 or abs(sum(m) - 1.0) > 1e-9:
            raise InputError(f"PlayoutPolicy.mix = {self.mix!r}: expected three non-negative weights summing to 1")
        if self.frequencies is not None and np.shape(self.frequencies) != (4, 3, 3):
            raise InputError(f"PlayoutPolicy.frequencies: expected shape (4, 3, 3), got {np.shape(self.frequencies)}")
        if self.ranking not in ("range", "deck"):
            raise InputError(f"PlayoutPolicy.ranking = {self.ranking!r}: expected 'range' or 'deck'")
        if not 0.0 <= float(self.check_raise) <= 1.0 or not float(self.softness) > 0.0:
            raise InputError(
                f"PlayoutPolicy: check_raise={self.check_raise!r} must be in [0, 1], softness={self.softness!r} > 0"
            )


@dataclass(frozen=True)
class ReweightDetails:
    """What a re-weighting is about to use, for explanations (read before the modeler runs).

    Attributes:
        method: the rule: ``"loki1"`` (μ/σ ramp), ``"triple"`` (feature R), ``"specific"`` (opponent-specific triples)
            or a plug-in's own name.
        mu, sigma, lo, hi: Loki-1's threshold, its spread and the ramp's ends (None for other methods).
        frequencies: the ``(fold, call, raise)`` frequencies Loki-1's thresholds came from (None for other methods).
        model_weights: the adaptive model's candidates and their weights before the action (None for other methods).
    """

    method: str
    mu: float | None = None
    sigma: float | None = None
    lo: float | None = None
    hi: float | None = None
    frequencies: tuple[float, float, float] | None = None
    model_weights: tuple[tuple[str, float], ...] | None = None


def playout_policy_of(modeler: object, model: OpponentModel) -> PlayoutPolicy:
    """The modeler's :class:`PlayoutPolicy` for ``model`` (its ``playout_policy`` method), or, for a modeler without
    one, the observer's own Triple Generator labelled with the modeler's name."""
    f = getattr(modeler, "playout_policy", None)
    if f is None:
        return PlayoutPolicy(label=f"{_name(modeler)} (played by the observer's triples)")
    return f(model)


def believed_of(modeler: object, model: OpponentModel) -> bool:
    """Whether the modeler asks the Simulator to play ``model``'s opponent as believed: its ``asks_believed(model)``
    (a cheap answer, the ``believed`` of its play-out policy), else :func:`playout_policy_of`'s ``believed`` (a
    player with ``sim.play_outs = "auto"`` asks before it builds the beliefs, which most of its decisions at a table
    of Loki-1 players do not need)."""
    f = getattr(modeler, "asks_believed", None)
    if f is not None:
        return bool(f(model))
    return playout_policy_of(modeler, model).believed


def reweight_details_of(modeler: object, model: OpponentModel, ev: ActionTaken, bucket: int) -> ReweightDetails:
    """The modeler's :class:`ReweightDetails` of ``ev`` (its ``reweight_details`` method), or its name alone."""
    f = getattr(modeler, "reweight_details", None)
    if f is None:
        return ReweightDetails(method=_name(modeler))
    return f(model, ev, bucket)


def _name(modeler: object) -> str:
    return str(getattr(modeler, "name", None) or type(modeler).__name__)
