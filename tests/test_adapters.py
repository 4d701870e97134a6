"""Loki among other programs (loki.adapters): real games through OpenSpiel, PettingZoo and RLCard.

Each test skips, saying which extra installs its library, where the library is missing (CI installs the extras).
Sizes: 1,000 hands outside CI (``CI`` unset), fewer in CI.

* OpenSpiel plays Loki's own game (ACPC heads-up limit), so Loki bots in OpenSpiel dealt the ACPC dealer's cards of a
  seed win, hand for hand, what the same players win in ``loki match`` with that seed.
* RLCard's and PettingZoo's ``limit-holdem`` has other rules (module docstring of loki.adapters.rlcard): the same
  players there and at Loki's table win the same within the matches' 95 % intervals (combined, times 1.5).
"""

from __future__ import annotations

import math
import os

import numpy as np
import pytest

from loki.engine import Action
from loki.errors import ConfigError, InputError
from loki.io.acpc_match import parse_seat, player_seed, run_match
from loki.io.gamedef import bundled_gamedef
from loki.players.base import Player
from loki.players.registry import make_player

HANDS = 200 if os.environ.get("CI") else 1000


def _match(specs, hands, seed, tmp_path):
    """``loki match``'s result: per hand, chips per player (player order)."""
    players = [make_player(s, seed=player_seed(seed, i + 1)) for i, s in enumerate(specs)]
    res = run_match(bundled_gamedef(2), [parse_seat(s) for s in specs], hands, seed, players=players,
                    log_path=tmp_path / "m.log")  # fmt: skip
    assert res.dealer.abort is None
    return np.array(res.dealer.payoffs, dtype=float)


def _mean_ci(x):
    x = np.asarray(x, dtype=float)
    return float(x.mean()), 1.96 * float(x.std(ddof=1)) / math.sqrt(len(x))


# ------------------------------------------------------------------------------------------------ OpenSpiel
def test_loki_bots_in_openspiel_play_the_loki_match_hand_for_hand(tmp_path):
    pytest.importorskip("pyspiel", reason='OpenSpiel not installed: pip install "loki-poker[openspiel]"')
    from loki.adapters.openspiel import game_string, play_match

    assert "firstPlayer=2 1 1 1" in game_string() and "maxRaises=3 4 4 4" in game_string()
    specs, seed = ["loki1", "loki2:BR"], 3
    through = play_match(specs, HANDS, seed)
    direct = _match(specs, HANDS, seed, tmp_path)
    assert np.array_equal(np.array(through.payoffs), direct)
    assert through.totals == [float(x) for x in direct.sum(axis=0)]


def test_openspiel_random_at_lokis_table(tmp_path):
    pytest.importorskip("pyspiel", reason='OpenSpiel not installed: pip install "loki-poker[openspiel]"')
    import pyspiel

    from loki.adapters.openspiel import load_game, make_bot

    # through OpenSpiel: Loki-1 against OpenSpiel's uniform random bot
    game = load_game()
    rng = np.random.default_rng(5)
    loki = make_bot("loki1", None, 1)
    there = []
    for h in range(HANDS):
        state = game.new_initial_state()
        loki.restart_at(state)
        rnd = pyspiel.make_uniform_random_bot(1 - h % 2, 100 + h)
        while not state.is_terminal():
            if state.is_chance_node():
                outs = state.chance_outcomes()
                state.apply_action(int(outs[rng.integers(len(outs))][0]))
            elif state.current_player() == h % 2:
                state.apply_action(loki.step(state))
            else:
                state.apply_action(rnd.step(state))
        loki.inform_terminal(state, h % 2)
        there.append(state.returns()[h % 2] / 10.0)
    # at Loki's table: the player kind openspiel:random in loki match
    here = _match(["loki1", "openspiel:random"], HANDS, 5, tmp_path)[:, 0] / 10.0
    (a, ca), (b, cb) = _mean_ci(there), _mean_ci(here)
    assert abs(a - b) < 1.5 * math.hypot(ca, cb), (a, ca, b, cb)


def test_openspiel_bot_reads_only_universal_poker():
    pytest.importorskip("pyspiel", reason='OpenSpiel not installed: pip install "loki-poker[openspiel]"')
    import pyspiel

    from loki.adapters.openspiel import matchstate_of

    kuhn = pyspiel.load_game("kuhn_poker").new_initial_state()
    for a in (0, 1):
        kuhn.apply_action(a)
    with pytest.raises(InputError, match="universal_poker"):
        matchstate_of(kuhn, 0, 0)


# ------------------------------------------------------------------------------------------------ RLCard
def test_loki_in_rlcard_against_its_rule_agent(tmp_path):
    rlcard = pytest.importorskip("rlcard", reason='RLCard not installed: pip install "loki-poker[rlcard]"')
    from rlcard.models import load

    from loki.adapters.rlcard import LokiRLCardAgent

    env = rlcard.make("limit-holdem", config={"seed": 7})
    loki = LokiRLCardAgent("loki1", seed=1)
    env.set_agents([loki, load("limit-holdem-rule-v1").agents[0]])
    there = [env.run(is_training=False)[1][0] / 2.0 for _ in range(HANDS)]  # RLCard chips: a small bet is 2
    assert loki.hands > 0.4 * HANDS and loki.errors <= 0.02 * loki.hands  # the rule agent folds many hands first
    here = _match(["loki1", "rlcard:limit-holdem-rule-v1"], HANDS, 7, tmp_path)[:, 0] / 10.0
    (a, ca), (b, cb) = _mean_ci(there), _mean_ci(here)
    assert abs(a - b) < 1.5 * math.hypot(ca, cb), (a, ca, b, cb)


def test_rlcard_cards_and_bad_states():
    pytest.importorskip("rlcard", reason='RLCard not installed: pip install "loki-poker[rlcard]"')
    from loki.adapters.rlcard import LokiRLCardAgent, from_rlcard_card, to_rlcard_card

    assert all(from_rlcard_card(to_rlcard_card(c)) == c for c in range(52))
    with pytest.raises(InputError, match="RLCard card"):
        from_rlcard_card("AS")
    agent = LokiRLCardAgent("calling")
    with pytest.raises(InputError, match="raw_obs"):
        agent.step({"obs": np.zeros(72)})
    bad = {"raw_obs": {"hand": ["SA", "SA"], "public_cards": [], "legal_actions": ["call"]}, "action_record": []}
    with pytest.raises(InputError):
        agent.step(bad)


class _Recording(Player):
    """Calls (raises on a draw below 0.3) and keeps every number it draws: what its random generator gave when."""

    def __init__(self):
        self.rng = np.random.default_rng(0)
        self.name = "recording"
        self.draws: list[float] = []

    def act(self, view, legal):
        self.draws.append(float(self.rng.random()))
        return Action.RAISE if self.draws[-1] < 0.3 and Action.RAISE in legal else Action.CALL


class _Steps:
    """An RLCard agent around a LokiRLCardAgent that keeps, at each of its decisions, the hand and the draws of the
    copy of the player that decided."""

    use_raw = True

    def __init__(self, inner):
        self.inner, self.steps = inner, []

    def step(self, state):
        a = self.inner.step(state)
        self.steps.append((self.inner.hands, list(self.inner._copy.draws)))
        return a

    def eval_step(self, state):
        return self.step(state), {}


class _RawCalling:
    """RLCard's calling station (raw actions)."""

    use_raw = True

    def step(self, state):
        return "call" if "call" in state["raw_legal_actions"] else "check"

    def eval_step(self, state):
        return self.step(state), {}


def test_loki_in_rlcard_draws_its_next_random_numbers_at_each_decision_of_a_hand():
    """The agent replays the hand on a copy of the player restored with the hand's seed at every decision; the copy
    decides again at its earlier turns, so each decision of a hand draws the player's next numbers (the first ones
    again before: every Simulator decision of a hand had one seed, every check-raise coin one draw)."""
    rlcard = pytest.importorskip("rlcard", reason='RLCard not installed: pip install "loki-poker[rlcard]"')
    from loki.adapters.rlcard import LokiRLCardAgent

    env = rlcard.make("limit-holdem", config={"seed": 3})
    agent = _Steps(LokiRLCardAgent(_Recording(), seed=1))
    env.set_agents([agent, _RawCalling()])
    for _ in range(30):
        env.run(is_training=False)
    by_hand: dict[int, list[list[float]]] = {}
    for hand, draws in agent.steps:
        by_hand.setdefault(hand, []).append(draws)
    new = again = 0
    for steps in by_hand.values():
        longest = max(steps, key=len)
        assert all(d == longest[: len(d)] for d in steps)  # one sequence a hand: the hand's seed, replayed
        for before, now in zip(steps, steps[1:]):
            new += len(now) > len(before)
            again += len(now) <= len(before)
    assert new >= 30 and again <= new / 4, (new, again)  # a decision the translation moves may repeat a draw


# ------------------------------------------------------------------------------------------------ PettingZoo
def test_loki_in_pettingzoo_against_its_random_agent(tmp_path):
    pytest.importorskip("pettingzoo.classic", reason='PettingZoo not installed: pip install "loki-poker[pettingzoo]"')
    pytest.importorskip("pygame", reason='PettingZoo classic needs pygame: pip install "loki-poker[pettingzoo]"')
    from loki.adapters.pettingzoo import LokiPettingZooAgent, texas_holdem_env

    env = texas_holdem_env()
    env.reset(seed=11)
    loki = LokiPettingZooAgent(env, "loki1", seed=1)
    space = env.action_space("player_1")
    space.seed(3)
    there = []
    for g in range(HANDS):
        env.reset(seed=1000 + g)
        for agent in env.agent_iter():
            obs, reward, term, trunc, _ = env.last()
            if term or trunc:
                if agent == "player_0":
                    there.append(reward / 2.0)
                env.step(None)
                continue
            env.step(loki.act(obs, agent) if agent == "player_0" else int(space.sample(obs["action_mask"])))
    assert len(there) == HANDS and loki.inner.errors <= 0.02 * loki.inner.hands
    here = _match(["loki1", "pettingzoo:random"], HANDS, 11, tmp_path)[:, 0] / 10.0
    (a, ca), (b, cb) = _mean_ci(there), _mean_ci(here)
    assert abs(a - b) < 1.5 * math.hypot(ca, cb), (a, ca, b, cb)


def test_pettingzoos_random_agent_samples_the_legal_actions_at_lokis_table():
    """The agent samples uniformly the actions legal at Loki's table (PettingZoo's mask but for the fold RLCard allows
    when checking is free), and says so to AIVAT."""
    pytest.importorskip("pettingzoo.classic", reason='PettingZoo not installed: pip install "loki-poker[pettingzoo]"')
    pytest.importorskip("pygame", reason='PettingZoo classic needs pygame: pip install "loki-poker[pettingzoo]"')
    from loki.engine import GameConfig, new_hand

    p = make_player("pettingzoo:random", seed=5)
    for limp, probs in ((True, (0.0, 0.5, 0.5)), (False, (1 / 3, 1 / 3, 1 / 3))):
        st = new_hand(GameConfig(n_players=2), 1, hole_cards=[[0, 1], [2, 3]], board=[10, 11, 12, 13, 14])
        if limp:
            st.apply(Action.CALL)  # the small blind limps: the big blind's check is free
        view, legal = st.view(st.current_player), st.legal_actions()
        drawn = [p.act(view, legal) for _ in range(3000)]
        assert p.action_probabilities() == pytest.approx(probs)
        for a, q in zip((Action.FOLD, Action.CALL, Action.RAISE), probs, strict=True):
            assert abs(drawn.count(a) / 3000 - q) < 4 * math.sqrt(q * (1 - q) / 3000) + 1e-9, (limp, a)


def test_a_bad_pettingzoo_observation_is_a_clear_error():
    pytest.importorskip("pettingzoo.classic", reason='PettingZoo not installed: pip install "loki-poker[pettingzoo]"')
    pytest.importorskip("pygame", reason='PettingZoo classic needs pygame: pip install "loki-poker[pettingzoo]"')
    from loki.adapters.pettingzoo import LokiPettingZooAgent, texas_holdem_env

    env = texas_holdem_env()
    env.reset(seed=1)
    loki = LokiPettingZooAgent(env, "calling")
    agent = env.agent_selection
    obs, *_ = env.last()
    with pytest.raises(InputError, match="expected a dict"):
        loki.act(obs["observation"], agent)
    with pytest.raises(InputError, match="shapes"):
        loki.act({"observation": np.zeros(10), "action_mask": obs["action_mask"]}, agent)
    wrong = obs["observation"].copy()
    wrong[:52] = 0
    with pytest.raises(InputError, match="cards do not agree"):
        loki.act({"observation": wrong, "action_mask": obs["action_mask"]}, agent)
    assert loki.act(obs, agent) in (0, 3)  # the calling station checks or calls


# ------------------------------------------------------------------------------------------------ the kinds
def test_their_agents_play_in_a_loki_league(tmp_path):
    """The three player kinds play wherever a spec is accepted (a league: tournaments underneath)."""
    specs = []
    for mod, spec in (
        ("pyspiel", "openspiel:random"),
        ("rlcard", "rlcard:limit-holdem-rule-v1"),
        ("pygame", "pettingzoo:random"),
    ):
        try:
            __import__(mod)
            specs.append(spec)
        except ImportError:
            pass
    if not specs:
        pytest.skip(
            'none of OpenSpiel, RLCard, PettingZoo installed: pip install "loki-poker[openspiel,rlcard,pettingzoo]"'
        )
    from loki.tournament.league import run_league

    res = run_league(specs + ["calling"], specs + ["calling"], deals=4, seed=2, out=tmp_path, workers=0)
    assert all(res.value[i][-1] is not None for i in range(len(specs)))


def test_a_missing_library_is_one_clear_error(monkeypatch):
    import builtins

    real = builtins.__import__

    def no_libs(name, *a, **kw):
        if name.split(".")[0] in ("pyspiel", "rlcard", "pettingzoo"):
            raise ImportError(f"No module named {name!r}")
        return real(name, *a, **kw)

    monkeypatch.setattr(builtins, "__import__", no_libs)
    for spec, extra in (("openspiel:random", "openspiel"), ("rlcard:limit-holdem-rule-v1", "rlcard"),
                        ("pettingzoo:random", "pettingzoo")):  # fmt: skip
        with pytest.raises(ConfigError, match=f"loki-poker\\[{extra}\\]"):
            make_player(spec)
