"""Local best response (LBR): a heads-up player that knows the fixed strategy it plays against and, at every decision,
takes the action that is best if both players only check or call after it (Lisý & Bowling, "Equilibrium
Approximation Quality of Current No-Limit Poker Bots", AAAI-17 workshops, arXiv 1612.07547, Algorithm 1).

**What it knows.**  The measured player σ, frozen (:mod:`loki.players.frozen`: its state after a stated warm-up,
restored every hand); not σ's cards.  It keeps σ's **range**, a weight per holding (1,326; 0 for those sharing a
card with its own hole cards or the board), multiplied after each of σ's actions ``a`` by ``σ(a | h, history)``
(Bayes' rule), the probabilities read from σ itself for every holding (:class:`loki.lbr.oracle.StrategyOracle`).

**How it decides** (chips, relative to now; ``pot`` the chips in the pot, ``c`` the chips to call, ``B`` the bet of
the street; ``WP`` our chance of winning the showdown against the range, ties half, over every way the board can
be completed):

* fold: 0 (only when facing a bet);
* check/call: ``WP·(pot + c) − c``;
* bet/raise (when legal): ``fp·pot + (1 − fp)·(WP'·(pot + c + 2B) − c − B)``, where ``fp`` is σ's probability of
  folding to it, summed over the range (σ's answer for every holding, asked of σ after the bet), and ``WP'`` our
  chance against the range of the holdings that do not fold (the range re-weighted by ``1 − fold``:
  ``called_range``, on by default; off, ``WP' = WP`` as in the paper's Algorithm 1).

It takes the best (ties: call, then raise, then fold).  A re-raise by σ is valued as a call, and later streets as
checked through: that is the "local" of the name.  It plays its own cards truthfully.  In limit hold'em the bet
size is fixed, so the paper's bet-size abstractions (FC, FCPA, ...) collapse to fold, call, raise.

**Pre-flop** ``WP`` is exact: the all-in equity of the heads-up matchup from the shipped table of every matchup
(:func:`loki.aivat.heads_up_preflop_shares`) averaged over the range.  ``preflop = "call"`` plays the paper's cheaper
variant (check or call every pre-flop decision, the look-ahead from the flop on).

**The bound.**  Whatever it does, LBR is a strategy that sees only its own cards and the public history (the range
and the answers come from σ's published strategy, never from σ's cards, and the copies of σ draw their own random
numbers), so its expected winnings against σ are a lower bound on σ's exploitability: what a best response wins.
The winnings are measured in a duplicate match (each deal in both seats) with AIVAT (:mod:`loki.lbr.run`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import numpy as np
from pydantic import Field, field_validator

from loki.cards import HOLDING_CARDS, HOLDING_INDEX, N_HOLDINGS
from loki.engine import CALL, FOLD, RAISE, Action, ActionTaken, BoardDealt, GameConfig, PlayerView
from loki.errors import ConfigError, PlayerSpecError
from loki.lbr.oracle import ShadowHand, StrategyOracle, live_mask
from loki.players.base import Player
from loki.players.frozen import FrozenConfig, frozen_snapshot
from loki.players.registry import PlayerConfig, PlayerKind, parse_player, spec_of

__all__ = ["LBRConfig", "LBRPlayer", "LBR", "preflop_equity_row", "lbr_values", "compile_kernels"]

#: The most holdings ``holdings`` samples (every holding is 0).
MAX_HOLDINGS = N_HOLDINGS


class LBRConfig(PlayerConfig):
    """A local best response against one frozen player (module docstring).

    Attributes:
        opponent: the measured player: a spec of a frozen player (:class:`~loki.players.frozen.FrozenConfig`), or of
            any player, frozen as built (``loki2:BR`` is ``frozen:loki2:BR``); stored as the frozen player's spec.
            Not an LBR itself, frozen or not: the look-ahead keeps a copy of the measured player per holding
            (:mod:`loki.lbr.oracle`), and an LBR's copies would each keep theirs (~1.7 million players a hand).
        preflop: ``"lbr"`` (the look-ahead pre-flop too, with exact pre-flop equities) or ``"call"`` (check or call
            pre-flop: the paper's cheaper variant).
        called_range: the bet's ``WP'`` against the range that does not fold to it (True) or the whole range (the
            paper's Algorithm 1).
        holdings: 0 to ask σ for every holding; ``K`` to sample ``K`` holdings (:mod:`loki.lbr.oracle`).
        fold_samples: 0 to ask σ's answer to a bet of ours for every holding of the range; ``K`` to ask it for ``K``
            holdings drawn from the range (with replacement, in proportion to their weights): ``fp`` is then the
            sample's mean and ``WP'`` the sample's ratio estimate (module docstring).  A cheaper, noisier look-ahead;
            the bound stays a bound.
    """

    kind: Literal["lbr"] = "lbr"
    opponent: str
    preflop: Literal["lbr", "call"] = "lbr"
    called_range: bool = True
    holdings: int = Field(0, ge=0, le=MAX_HOLDINGS)
    fold_samples: int = Field(0, ge=0, le=MAX_HOLDINGS)

    @field_validator("opponent", mode="before")
    @classmethod
    def _frozen(cls, v: Any) -> str:
        try:
            cfg = parse_player(v)
            if cfg.kind != "frozen":
                cfg = FrozenConfig(player=spec_of(cfg))
            assert isinstance(cfg, FrozenConfig)
            if parse_player(cfg.player).kind == "lbr":
                raise ValueError(
                    f"{cfg.player}: an LBR cannot measure an LBR (it keeps a copy of the measured player per "
                    "holding, and each copy would keep its own)"
                )
        except (PlayerSpecError, ConfigError) as e:
            raise ValueError(str(e)) from None
        return spec_of(cfg)

    @property
    def frozen(self) -> FrozenConfig:
        """The measured player's configuration."""
        cfg = parse_player(self.opponent)
        assert isinstance(cfg, FrozenConfig)
        return cfg


_ROWS: dict[int, np.ndarray] = {}


def preflop_equity_row(hole: tuple[int, int]) -> np.ndarray:
    """``(1326,) float64``: the exact heads-up pre-flop all-in equity of ``hole`` against every holding (0 for
    holdings that share a card with it), from the shipped table of every matchup
    (:func:`loki.aivat.heads_up_preflop_shares`); cached per holding (read-only).

    >>> row = preflop_equity_row((51, 50))  # AsAh
    >>> from loki.cards import HOLDING_INDEX
    >>> round(float(row[HOLDING_INDEX[47, 46]]), 6)  # against KsKh
    0.826366
    """
    from loki.aivat import heads_up_preflop_shares

    a, b = int(hole[0]), int(hole[1])
    key = int(HOLDING_INDEX[a, b])
    row = _ROWS.get(key)
    if row is None:
        row = np.zeros(N_HOLDINGS)
        live = live_mask((a, b))
        for h in np.flatnonzero(live):
            c, d = HOLDING_CARDS[h]
            st = heads_up_preflop_shares((a, b), (int(c), int(d)))
            if st is None:  # pragma: no cover - a broken install without the table
                raise ConfigError("the heads-up pre-flop equity table (loki/data/hu_preflop_equity.npz) is missing")
            row[h] = st[0] / st[1]
        row.setflags(write=False)
        _ROWS[key] = row
    return row


def compile_kernels() -> None:
    """Compile (or load from numba's disk cache) the kernel of the look-ahead, :func:`loki.lbr.kernels.holding_equities`,
    once, before a measurement (not inside its first timed block)."""
    from loki.evaluator import kernel_tables
    from loki.lbr.kernels import holding_equities

    holding_equities(0, 1, np.array([2, 3, 4, 5, 6], dtype=np.int64), kernel_tables())


def lbr_values(
    wp: float, wp_called: float, fp: float, pot: float, to_call: float, bet: float
) -> tuple[float, float, float]:
    """The look-ahead's values ``(fold, call, raise)`` in chips from now (module docstring).

    Args:
        wp: the chance to win against the range; wp_called: against the range that calls a raise.
        fp: σ's fold probability to the raise; pot, to_call, bet: chips.

    >>> lbr_values(0.5, 0.5, 1.0, 15.0, 5.0, 10.0)  # a raise that always wins the pot
    (0.0, 5.0, 15.0)
    """
    call = wp * (pot + to_call) - to_call
    raise_ = fp * pot + (1.0 - fp) * (wp_called * (pot + to_call + 2.0 * bet) - to_call - bet)
    return 0.0, call, raise_


class LBRPlayer(Player):
    """The local best response of an :class:`LBRConfig` (module docstring); heads-up only.

    Args:
        config: the configuration.
        seed: seeds the copies of the measured player (their own random draws).
        name: display name (default ``"LBR"``).

    Attributes:
        oracle: the measured player's probabilities for every holding.
        counts: this player's decisions, ``{"fold"|"call"|"raise": n}``, and ``"empty"``: decisions where σ's
            range had no weight left (σ took an action its copies said it never takes: the range falls back to every
            holding it may hold).
    """

    table_sizes = (2, 2)  # the look-ahead is heads-up (Lisý & Bowling 2017)

    def __init__(self, config: LBRConfig, seed: int = 0, name: str | None = None):
        self.config = config
        fz = config.frozen
        self.oracle = StrategyOracle(frozen_snapshot(fz), fz, seed, config.holdings)
        self.name = name or "LBR"
        self.counts = {"fold": 0, "call": 0, "raise": 0, "empty": 0}
        self._last: Action | None = None
        self._rng = np.random.default_rng([int(seed), 6])
        self._eq_board: tuple[int, ...] | None = None
        self._eq = np.zeros(N_HOLDINGS)

    def begin_hand(self, seat: int, config: GameConfig, hole_cards: tuple[int, int], button: int) -> None:
        """A new hand: the range is every holding that shares no card with ours.

        Raises:
            ConfigError: a table of other than two players.
        """
        if config.n_players != 2:
            raise ConfigError(f"a local best response plays heads-up, not at {config.n_players} players")
        self.seat = seat
        self.hole = (int(hole_cards[0]), int(hole_cards[1]))
        self.shadow = ShadowHand(config, button, seat, self.hole)
        self._eq_board = None
        self.oracle.begin_hand(1 - seat, config, button, live_mask(self.hole).astype(np.float64))

    def observe(self, event) -> None:
        """σ's actions update the range (before the copies see them); every action moves the public state; a board
        shows its cards."""
        if isinstance(event, ActionTaken):
            if event.seat != self.seat:
                st = self.shadow.state
                legal = st.legal_actions()
                probs = self.oracle.probabilities(st, legal)
                self.oracle.decided(st, legal, event.action, probs)
            self.oracle.observe(event)
            self.shadow.apply(event.action)
        elif isinstance(event, BoardDealt):
            self.shadow.show(event.board)
            self.oracle.observe(event)
        elif type(event).__name__ in ("HandStarted", "BlindPosted"):
            self.oracle.observe(event)

    def range_weights(self, board: Sequence[int]) -> np.ndarray:
        """``(1326,)`` σ's range now: the oracle's weights on holdings live with our cards and ``board``; every such
        holding alike when no weight is left (counted in ``counts["empty"]``)."""
        live = live_mask(self.hole + tuple(board))
        w = np.where(live, self.oracle.weight, 0.0)
        if not w.sum() > 0.0:
            self.counts["empty"] += 1
            w = live.astype(np.float64)
        return w

    def equities(self, board: tuple[int, ...]) -> np.ndarray:
        """``(1326,)`` our equity against every holding on ``board`` (:func:`loki.lbr.kernels.holding_equities`;
        pre-flop :func:`preflop_equity_row`), computed once per street."""
        if self._eq_board != board:
            if board:
                from loki.evaluator import kernel_tables
                from loki.lbr.kernels import holding_equities

                self._eq = holding_equities(
                    self.hole[0], self.hole[1], np.array(board, dtype=np.int64), kernel_tables()
                )
            else:
                self._eq = preflop_equity_row(self.hole)
            self._eq_board = board
        return self._eq

    def act(self, view: PlayerView, legal_actions: Sequence[Action]) -> Action:
        """The look-ahead's best action (module docstring)."""
        if view.round == 0 and self.config.preflop == "call":
            return self._take(CALL)
        board = tuple(int(c) for c in view.board)
        eq = self.equities(board)
        w = self.range_weights(board)
        tot = float(w.sum())
        wp = float(w @ eq) / tot
        to_call, pot, bet = float(view.to_call()), float(view.pot), float(view.bet_size)
        fp, wp_called = 0.0, wp
        if RAISE in legal_actions:
            fp, wp_called = self._answer_to_raise(w, tot, eq, wp)
        u_fold, u_call, u_raise = lbr_values(wp, wp_called, fp, pot, to_call, bet)
        best, a = u_call, CALL
        if RAISE in legal_actions and u_raise > best:
            best, a = u_raise, RAISE
        if FOLD in legal_actions and u_fold > best:
            a = FOLD
        return self._take(a)

    def _answer_to_raise(self, w: np.ndarray, tot: float, eq: np.ndarray, wp: float) -> tuple[float, float]:
        """``(fp, WP')``: σ's fold probability to a raise of ours now, and our chance against the range that does not
        fold (or ``WP`` without ``called_range``), from σ's answers for every holding or for a sample.  With the range
        emptied (no copy of σ left to ask: :meth:`range_weights` counts it) ``fp`` is 0: the response then plays as if
        σ never folded, a weaker response and still a lower bound."""
        k = self.config.fold_samples
        live = np.flatnonzero(w)
        if k and live.size > k:
            sample = self._rng.choice(live, size=k, p=w[live] / tot)
            fold = self.oracle.after_raise(self.shadow.state, np.unique(sample))[sample, 0]
            fp = float(fold.mean())
            stay = 1.0 - fold
            if not self.config.called_range or not stay.sum() > 0.0:
                return fp, wp
            return fp, float(stay @ eq[sample]) / float(stay.sum())
        fold = self.oracle.after_raise(self.shadow.state)[:, 0]
        fp = float(w @ fold) / tot
        wc = w * (1.0 - fold)
        if not self.config.called_range or not wc.sum() > 0.0:
            return fp, wp
        return fp, float(wc @ eq) / float(wc.sum())

    def _take(self, a: Action) -> Action:
        self._last = a
        self.counts[a.name.lower()] += 1
        return a

    def action_probabilities(self) -> tuple[float, float, float] | None:
        """A pure policy: one-hot on the last action."""
        a = self._last
        if a is None:
            return None
        out = [0.0, 0.0, 0.0]
        out[int(a)] = 1.0
        return out[0], out[1], out[2]


def _lbr_options(opts: list[str]) -> dict[str, Any]:
    if not opts or not opts[0]:
        raise ValueError("give the player to measure, e.g. 'lbr:loki2:BR'")
    return {"opponent": ":".join(opts)}


def _lbr_spec(cfg: LBRConfig) -> str | None:
    if cfg.preflop != "lbr" or not cfg.called_range or cfg.holdings or cfg.fold_samples:
        return None
    return f"lbr:{cfg.opponent}" if "{" not in cfg.opponent else None


LBR = PlayerKind(
    name="lbr",
    build=lambda cfg, seed, name: LBRPlayer(cfg, seed, name),
    config=LBRConfig,
    options=_lbr_options,
    spec=_lbr_spec,
    description="local best response against a frozen player (heads-up; a lower bound on its exploitability)",
    live_table=lambda cfg: (
        "an LBR plays out every holding of its opponent at each decision (seconds to minutes): not at a live "
        "table; use loki lbr, tournaments or matches"
    ),
)
