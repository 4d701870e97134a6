"""The Loki-2 player (AAAI99; PENA99): Loki-1 plus probability triples and simulation.

Three switchable features, so that the paper's variants B, R, B+R, S and B+R+S are configurations
of one class (:class:`Loki2Player`, a :class:`~loki.players.loki1.Loki1Player`):

- **B** (betting by PT): post-flop, the Action Selector (:mod:`loki.selector`) replaces the Bettor:
  the Triple Generator (:mod:`loki.triples`) turns our hand values (the same HS_n/PPot/EHS' Loki-1
  feeds its Bettor) and the betting spot into ``[f, c, r]``, and one uniform number per hand picks
  the action.
- **R** (re-weighting by PT): post-flop, after each opponent action, each holding's weight is
  multiplied by its PT entry for the observed action, computed in the opponent's situation (the
  ``ActionTaken`` context: to_call, pot, bets, active players; its voluntary-money state this
  round), floor 0.01 (:func:`loki.modeler.triple_reweight`).  Pre-flop re-weighting stays Loki-1's.
- **S** (simulation): post-flop, every decision asks the Simulator (:mod:`loki.simulator`) for
  EV(call) and EV(raise) and takes the best (EV(fold) = 0, ties to the more aggressive).  With S,
  B only matters through the play-out (every simulated player acts by PT anyway).

Pre-flop is always Loki-1's expert system (pena/node21).  S simulates post-flop only (DEFAULT).
A Loki-1 style preset (TC, TA, LC, LA) sets the pre-flop tightness and the Bettor thresholds, and
the Triple Generator uses the same thresholds (:meth:`loki.triples.TripleConfig.from_bettor`).

Specs (registry): ``loki2:<features>[:<style>][:trials=N][:cutoff=paper|paired|none][:fast]`` e.g.
``loki2:BR``, ``loki2:BRS``, ``loki2:BR:LA``, ``loki2:S:trials=100:fast`` (``fast`` = the
always-call Simulator variant).  The Simulator options (``trials``, ``cutoff``, ``fast``) need
feature S: without it they would do nothing, so they raise ValueError (as do unknown options).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from loki.bettor import BettingSpot, pot_odds2
from loki.cards import HOLDING_MASKS, N_HOLDINGS, cards_mask
from loki.engine import Action, ActionTaken, BoardDealt, GameConfig, PlayerView
from loki.modeler import OpponentModel, triple_reweight
from loki.players.loki1 import STYLES, Loki1Config, Loki1Player
from loki.players.registry import register
from loki.selector import ActionSelector
from loki.simulator import SimConfig, SimResult, SimSpot, simulate
from loki.triples import TripleConfig, generate_triple, opponent_triples

__all__ = ["Loki2Config", "Loki2Player", "parse_features"]


def parse_features(text: str) -> frozenset[str]:
    """``"BRS"`` → ``{"B", "R", "S"}``; raises ValueError on other letters, repeats or an empty string."""
    t = text.strip().upper()
    if not t or any(ch not in "BRS" for ch in t) or len(set(t)) != len(t):
        raise ValueError(f"Loki-2 features {text!r}: expected a non-empty combination of B, R, S (e.g. 'BR', 'BRS')")
    return frozenset(t)


@dataclass(frozen=True)
class Loki2Config:
    """Loki-2's knobs.

    Attributes:
        loki1: the Loki-1 configuration underneath (pre-flop, Bettor, modelling).
        features: subset of {"B", "R", "S"}.
        triple: Triple Generator config; None = derived from ``loki1.bettor`` with the DEFAULT widths.
        sim: Simulator config (its ``triple`` is replaced by this config's Triple Generator).
    """

    loki1: Loki1Config = field(default_factory=Loki1Config)
    features: frozenset = frozenset("BR")
    triple: TripleConfig | None = None
    sim: SimConfig = field(default_factory=SimConfig)

    def __post_init__(self):
        feats = parse_features("".join(sorted(self.features))) if self.features else None
        if feats is None:
            raise ValueError("Loki-2 needs at least one feature among B, R, S")
        object.__setattr__(self, "features", feats)
        if self.triple is None:
            object.__setattr__(self, "triple", TripleConfig.from_bettor(self.loki1.bettor))
        object.__setattr__(self, "sim", replace(self.sim, triple=self.triple))


class Loki2Player(Loki1Player):
    """Loki-2 (see the module docstring).

    Args:
        config: :class:`Loki2Config`.
        seed: seeds every random choice (the selector's per-hand number, the simulator's seeds, the
            Loki-1 check-raise coin).
        name: display name.

    ``act`` is Loki-1's (:meth:`~loki.players.loki1.Loki1Player.act`: pre-flop expert system,
    result mapped onto the legal actions; IndexError on an empty ``legal_actions``), with the
    post-flop decision replaced by feature S (the Simulator's best EV, AAAI99 §5) or else B (the
    Action Selector on the triple, AAAI99 §4), else the Loki-1 Bettor.

    Attributes:
        last_sim: the last :class:`~loki.simulator.SimResult` (feature S), for logs and tests.
        last_triple: the last PT used by the Action Selector (feature B).
    """

    def __init__(self, config: Loki2Config = Loki2Config(), seed: int = 0, name: str | None = None):
        super().__init__(
            config.loki1, seed=seed, name=name or f"Loki-2 {''.join(sorted(config.features, key='BRS'.index))}"
        )
        self.config2 = config
        self.features = config.features
        self.selector = ActionSelector(np.random.default_rng([seed, 2]))
        self.sim_rng = np.random.default_rng([seed, 3])
        self.last_sim: SimResult | None = None
        self.last_triple = None

    # ------------------------------------------------------------------ bookkeeping
    def begin_hand(self, seat: int, config: GameConfig, hole_cards, button: int) -> None:
        """Loki-1's :meth:`~loki.players.loki1.Loki1Player.begin_hand`, plus a new per-hand
        selector number ``u`` (feature B, AAAI99 §4), the seats with voluntary money this round and
        our cards as the simulator's dead cards.

        Raises:
            TypeError, ValueError: a hole card that ``int()`` cannot convert.
        """
        super().begin_hand(seat, config, hole_cards, button)
        self.selector.new_hand()
        self.vol_seats: set[int] = set()
        self._dead_mask = np.uint64(cards_mask(self.hole))

    def observe(self, event) -> None:
        """Loki-1's :meth:`~loki.players.loki1.Loki1Player.observe` (with feature R the post-flop
        re-weighting uses the opponent's probability triples, :meth:`_reweight`), plus the seats
        that put voluntary money in this round (reset on each ``BoardDealt``).  Raises nothing
        for well-formed events."""
        super().observe(event)
        if isinstance(event, ActionTaken):
            if event.action != Action.FOLD and event.amount > 0:
                self.vol_seats.add(event.seat)
        elif isinstance(event, BoardDealt):
            self.vol_seats = set()

    def _reweight(self, model: OpponentModel, ev: ActionTaken, bucket: int) -> None:
        """Feature R post-flop (triples in the opponent's situation); Loki-1's μ/σ method otherwise."""
        if "R" not in self.features or ev.round == 0:
            return super()._reweight(model, ev, bucket)
        g = self.game
        spot = BettingSpot(
            street=ev.round,
            pot=float(ev.pot),
            to_call=float(ev.to_call),
            bet_size=float(g.bet_sizes[ev.round]),
            bets_this_round=int(ev.bets),
            voluntarily_in=ev.seat in self.vol_seats,
            can_raise=int(ev.bets) < g.max_bets,
            next_bet_size=float(g.bet_sizes[ev.round + 1]) if ev.round < 3 else 0.0,
        )
        triples = opponent_triples(self.board, spot, max(1, int(ev.n_active) - 1), self.config2.triple)
        dead = np.uint64(cards_mask(self.hole + tuple(self.board)))
        live = (HOLDING_MASKS & dead) == 0
        triple_reweight(model, triples, ev.action, live)

    # ------------------------------------------------------------------ decisions
    def _act_postflop(self, view: PlayerView, legal) -> Action:
        if "S" in self.features:
            return self._act_simulate(view, legal)
        if "B" in self.features:
            return self._act_triple(view, legal)
        return super()._act_postflop(view, legal)

    def _act_triple(self, view: PlayerView, legal) -> Action:
        values = self.hand_values(view)
        spot = self.betting_spot(view, legal)
        pt = generate_triple(
            values, spot, self.config2.triple, check_raise_flag=spot.first_to_act and spot.aggressor_behind
        )
        self.last_triple = pt
        a = self.selector.select(pt, spot.to_call, spot.can_raise)
        tc = self.config2.triple
        if (
            a is Action.RAISE
            and spot.to_call <= 1e-9
            and values.ehs_prime < tc.bettor.make1 - tc.make_width
            and tc.bettor.semi_bluff
            and values.ppot >= pot_odds2(spot.pot, spot.bet_size) - tc.odds_width
        ):
            self.semi_bluffing = True  # a bet inside the semi-bluff gate (Bettor rule 4): keep it going
        self.last_decision = pt
        return a

    def sim_spot(self, view: PlayerView) -> SimSpot:
        """The :class:`~loki.simulator.SimSpot` of our decision (post-flop acting order from the button)."""
        g = self.game
        n = g.n_players
        order = view.postflop_order
        folded = view.folded
        committed = view.committed
        weights = np.ones((n, N_HOLDINGS))
        for i, s in enumerate(order):
            if s != self.seat and not folded[s]:
                weights[i] = self.models[s].weights
        return SimSpot(
            hole=self.hole,
            board=tuple(self.board),
            me=order.index(self.seat),
            active=np.array([not folded[s] for s in order]),
            round_bets=np.array([float(committed[s]) for s in order]),
            acted=np.array([s in self.acted for s in order]),
            vol_in=np.array([(s in self.vol_seats) if s != self.seat else self.voluntarily_in for s in order]),
            weights=weights,
            pot=float(view.pot),
            bets_this_round=int(view.bets_this_round),
            max_bets=int(g.max_bets),
            bet_sizes=tuple(float(b) for b in g.bet_sizes),
        )

    def _act_simulate(self, view: PlayerView, legal) -> Action:
        spot = self.sim_spot(view)
        seed = int(self.sim_rng.integers(2**31 - 1))
        res = simulate(spot, self.config2.sim, seed=seed)
        self.last_sim = res
        self.last_decision = res
        a = res.action
        if a is Action.RAISE and Action.RAISE not in legal:
            a = Action.CALL
        return a


@register("loki2")
def _loki2(opts, seed, name):
    """Factory for ``loki2:<features>[:<style>][:trials=N][:cutoff=...][:fast]``.

    Raises:
        ValueError: no or bad features, an unknown or repeated option, ``trials`` that is not a
            positive integer, an unknown ``cutoff``, or a Simulator option (``trials``, ``cutoff``,
            ``fast``) without feature S (it would be silently ignored); the message names the spec.
    """
    spec = ":".join(["loki2"] + list(opts))
    if not opts:
        raise ValueError(f"{spec!r}: give the features, e.g. 'loki2:BR' or 'loki2:BRS'")
    try:
        feats = parse_features(opts[0])
    except ValueError as e:
        raise ValueError(f"{spec!r}: {e}") from None
    loki1 = Loki1Config()
    style = None
    sim_kw: dict = {}
    for o in opts[1:]:
        key, eq, val = o.partition("=")
        k = key.strip().lower()
        if not eq and key.strip().upper() in STYLES and style is None:
            style = key.strip().upper()
            loki1 = STYLES[style]
        elif k == "trials" and eq and "trials" not in sim_kw:
            v = val.strip()
            if not v.isdigit() or int(v) < 1:
                raise ValueError(f"{spec!r}: option trials={val!r}: expected a positive integer (e.g. trials=500)")
            sim_kw["trials"] = int(v)
        elif k == "cutoff" and eq and "cutoff" not in sim_kw:
            sim_kw["cutoff"] = val.strip().lower()
        elif k in ("fast", "always_call") and not eq and "always_call" not in sim_kw:
            sim_kw["always_call"] = True
        else:
            raise ValueError(
                f"{spec!r}: unknown or repeated option {o!r} "
                f"(one style of {sorted(STYLES)}, trials=N, cutoff=paper|paired|none, fast)"
            )
    if sim_kw and "S" not in feats:
        given = ", ".join("fast" if k == "always_call" else k for k in sim_kw)
        raise ValueError(f"{spec!r}: the Simulator options ({given}) need feature S (e.g. 'loki2:BRS:trials=100')")
    try:
        sim = SimConfig(**sim_kw)
    except ValueError as e:
        raise ValueError(f"{spec!r}: {e}") from None
    cfg = Loki2Config(loki1=loki1, features=feats, sim=sim)
    label = "".join(sorted(feats, key="BRS".index)) + (f" {style}" if style else "")
    return Loki2Player(cfg, seed=seed, name=name or f"Loki-2 {label}")
