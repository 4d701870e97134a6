"""Pre-flop re-weighting by our own expert system (``preflop_reweighting = "strategy"``).

Oracles: the expert system itself (:class:`loki.preflop.PreflopPolicy` deciding with each hand class in the seat, a
brute force over the 169 classes), and the hole cards of Loki-1 opponents, who play that expert system, so their true
holding must never be leaked.
"""

from __future__ import annotations

import numpy as np
import pytest

from loki.cards import HOLDING_CARDS, HOLDING_CLASS, HOLDING_INDEX
from loki.engine import Action, ActionTaken, BoardDealt, GameConfig, new_hand
from loki.errors import ConfigError, PlayerSpecError
from loki.modeler import ModelingContext, ModelStore
from loki.players.registry import make_player, parse_player
from loki.players.table import play_hand
from loki.preflop import PreflopPolicy
from loki.preflop.reweighting import StrategyReweighting

GAME = GameConfig(n_players=10)


def _representatives() -> list[int]:
    """One holding of each of the 169 classes (the first in index order)."""
    first: dict[int, int] = {}
    for h, c in enumerate(HOLDING_CLASS.tolist()):
        first.setdefault(c, h)
    return [first[c] for c in range(169)]


def _random_preflop(rng: np.random.Generator, button: int, stacks):
    """A hand whose pre-flop actions are drawn at random among the legal ones (cards irrelevant to the draw);
    returns the actions in order and the state after them."""
    st = new_hand(GAME, button, rng=int(rng.integers(1 << 30)), stacks=stacks)
    actions = []
    while not st.is_terminal and st.round == 0:
        legal = st.legal_actions()
        a = legal[int(rng.integers(len(legal)))]
        actions.append(a)
        st.apply(a)
    return actions, st


def _expert_actions(button, stacks, actions, i, seat, tightness, shift) -> np.ndarray:
    """The brute force: for each of the 169 classes, the action the expert system takes at the ``i``-th action with
    that class in ``seat``, after the same earlier actions (the seat's own forced on it, its strategy chosen at its
    first decision as in play); ``(169,)`` action values."""
    out = np.empty(169, dtype=np.int64)
    for c, h in enumerate(_representatives()):
        mine = HOLDING_CARDS[h]
        rest = [x for x in range(52) if x not in mine]
        holes = [(rest[2 * s], rest[2 * s + 1]) for s in range(10)]
        holes[seat] = (int(mine[0]), int(mine[1]))
        st = new_hand(GAME, button, hole_cards=holes, board=rest[20:25], stacks=stacks)
        policy = PreflopPolicy(tightness, shift)
        for a in actions[:i]:
            if st.current_player == seat:
                policy.decide(st.view(seat), st.legal_actions())
            st.apply(a)
        out[c] = int(policy.decide(st.view(seat), st.legal_actions()).action)
    return out


@pytest.mark.parametrize(
    ("tightness", "shift", "finite"),
    [("loose", 0.0, False), ("tight", 50.0, True), ("moderate", -156.0, True)],
    ids=["loose-unlimited", "tight-shifted-finite-stacks", "moderate-shifted-finite-stacks"],
)
def test_factors_match_the_expert_system_class_by_class(tightness, shift, finite):
    """At every pre-flop action (not a fold) of 10 random hands, a class keeps factor 1 exactly when the expert
    system, holding that class in that seat after the same earlier actions, takes the observed action: first
    decisions, later ones (the small blind's call limits, the voluntary-money rule, the cap) and, with finite stacks
    (10-80 chips, a bet is 10), all-in calls and raises that calling would have made illegal."""
    rng = np.random.default_rng({"loose": 2027, "tight": 2028, "moderate": 2029}[tightness])
    rule = StrategyReweighting(tightness, shift, leak=0.05)
    checked = 0
    for hand in range(10):
        button = hand % 10
        stacks = tuple(int(x) for x in rng.integers(10, 81, size=10)) if finite else None
        actions, done = _random_preflop(rng, button, stacks)
        events = [e for e in done.events if isinstance(e, ActionTaken) and e.round == 0]
        ctx = ModelingContext(0, (0, 1), (), GAME, button)
        store = ModelStore()
        store.begin_hand(0, 10)
        for i, ev in enumerate(events):
            if ev.seat != 0 and ev.action != Action.FOLD:
                f = rule.factors(store[ev.seat], ev, ctx)
                taken = _expert_actions(button, stacks, actions, i, ev.seat, tightness, shift)
                assert np.array_equal(f, np.where(taken == int(ev.action), 1.0, 0.05)), (hand, i, ev)
                checked += 1
            if ev.seat in store:
                store[ev.seat].round_actions.append((ev.action, ev.to_call > 0))
            ctx.follow(ev)
    assert checked > 40


class _AtTheFlop:
    """A player that keeps a copy of its weight tables (of the opponents still in) when the flop comes."""

    def __init__(self, player):
        self.player = player
        self.tables: dict[int, np.ndarray] | None = None

    def __getattr__(self, name):
        return getattr(self.player, name)

    def observe(self, event) -> None:
        if isinstance(event, BoardDealt) and event.round == 1:
            folded = self.player._ctx.folded
            self.tables = {s: m.weights.copy() for s, m in self.player.models.items() if s not in folded}
        self.player.observe(event)


def _flop_tables(spec: str, hands: int, seed: int = 5):
    rng = np.random.default_rng(seed)
    out = []
    for hand in range(hands):
        players = [make_player("loki1", seed=i) for i in range(10)]
        watcher = _AtTheFlop(make_player(parse_player(spec), seed=99))
        players[3] = watcher
        st = play_hand(GAME, players, button=hand % 10, rng=int(rng.integers(1 << 30)))
        if watcher.tables is not None:
            out += [(w, int(HOLDING_INDEX[st.hole_cards(s)])) for s, w in watcher.tables.items()]
    return out


def test_loki1_opponents_keep_their_holding_and_the_tables_are_sharper():
    """Against Loki-1 opponents (who play the expert system) the true holding keeps weight 1 at the flop for every
    opponent still in; the tables are sharper than the ramp's on the same hands (the watcher's own pre-flop play does
    not depend on its tables at ten players, so both see the same hands).  Measured on 200 hands: 0 of 429 holdings
    leaked by the rule (111 below 1 with the ramp), on average 265 holdings above 0.5 against 505."""
    strategy = _flop_tables('loki1{"preflop_reweighting": "strategy"}', 80)
    ramp = _flop_tables("loki1", 80)
    assert len(strategy) == len(ramp) > 100
    assert all(w[h] == 1.0 for w, h in strategy)
    assert sum(w[h] < 1.0 for w, h in ramp) > 0.1 * len(ramp)
    sharp = np.mean([(w > 0.5).sum() for w, _ in strategy])
    wide = np.mean([(w > 0.5).sum() for w, _ in ramp])
    assert sharp < 0.7 * wide


def test_short_handed_tables_and_an_unknown_button_use_the_ramp():
    """At six players our own pre-flop decisions come from the adaptive model, so the rule steps aside; so it does
    without a button (a context made by hand)."""
    rule = StrategyReweighting()
    assert rule.applies(ModelingContext(0, (0, 1), (), GAME, 3))
    assert not rule.applies(ModelingContext(0, (0, 1), (), GameConfig(n_players=6), 3))
    assert not rule.applies(ModelingContext(0, (0, 1), (), GAME))
    assert StrategyReweighting(model="expert").applies(ModelingContext(0, (0, 1), (), GameConfig(n_players=6), 3))
    # explanations name the rule that re-weighted the model's last pre-flop action (the ramp here, with its μ/σ)
    six = GameConfig(n_players=6)
    store = ModelStore()
    store.begin_hand(0, 6)
    ev = ActionTaken(1, Action.RAISE, 20, 0, to_call=10, pot=15, bets=1, n_active=6)
    assert rule.reweight_details(store[1], ev, 1).method == "preflop strategy"  # nothing seen yet: the rule's name
    rule.reweight(store[1], ev, 1, ModelingContext(0, (0, 1), (), six, 3))
    details = rule.reweight_details(store[1], ev, 1)
    assert details.method == "loki1" and details.mu is not None


def test_bad_settings_are_refused():
    with pytest.raises(ConfigError, match="leak"):
        StrategyReweighting(leak=0.0)
    with pytest.raises(ConfigError, match="tightness"):
        StrategyReweighting(tightness="medium")
    with pytest.raises(PlayerSpecError, match="preflop_reweighting"):
        parse_player('loki2{"features": "BRS", "preflop_reweighting": "exact"}')
    with pytest.raises(PlayerSpecError, match="preflop_leak"):
        parse_player('loki2{"preflop_leak": 2.0}')


def test_the_option_reaches_feature_r_and_the_default_plays_the_ramp():
    """``loki2:BRS`` keeps Loki-1's ramp before the flop (the paper's); with the option its feature R model hands its
    pre-flop actions to the rule, with the player's own tightness and leak; ``loki tune`` lists the leak only then."""
    paper = make_player("loki2:BRS", seed=1)
    assert type(paper.modeler.preflop).__name__ == "Loki1Modeler"
    cfg = parse_player('loki2{"features": "BRS", "tightness": "tight", "preflop_reweighting": "strategy"}')
    rule = make_player(cfg, seed=1).modeler.preflop
    assert (rule.tightness, rule.leak) == ("tight", 0.05)
    assert "preflop_leak" in [p.path for p in cfg.search_space()]
    assert "preflop_leak" not in [p.path for p in parse_player("loki2:BRS").search_space()]
