"""Loki in RLCard's ``limit-holdem``, and RLCard's limit hold'em rule agent at Loki's table (optional extra:
``pip install "loki-poker[rlcard]"``).

**RLCard's game is not quite Loki's** (``rlcard/games/limitholdem/game.py`` and ``round.py``, rlcard 1.2): the
blinds are 1 and 2 chips and the bets 2 (pre-flop, flop) and 4 (turn, river) chips, Loki's 5/10 and 10/20 divided by
5 (the same game in small bets); the small blind acts first pre-flop as in Loki's heads-up game, but after the flop the
first to act is the player after the one whose action closed the last round (in Loki's game, the ACPC's, the big
blind); a round allows 4 raises, pre-flop on top of the big blind (5 bets; Loki's game 4); folding is legal when
checking is free.  So the same cards do not make the same hands, and a match through RLCard is compared with the same
match through ``loki match`` within their intervals.

**The mappings.**

* cards: RLCard's ``"SA"``, ``"H2"``, ``"DT"``, ``"CK"`` (suit ``S H D C``, then rank ``A 2 ... 9 T J Q K``) are Loki's
  ``As``, ``2h``, ``Td``, ``Kc`` (:func:`to_rlcard_card`, :func:`from_rlcard_card`);
* actions: ``"fold"``, ``"check"``/``"call"``, ``"raise"`` are ``FOLD``, ``CALL``, ``RAISE``; a fold when checking is free
  is played as a check at Loki's table (as the ACPC dealer plays an illegal fold), a raise after the cap as a call;
* Loki in RLCard (:class:`LokiRLCardAgent`, ``use_raw = True``): it reads the raw state (``raw_obs``: ``hand``,
  ``public_cards``, ``legal_actions``) and the game's action record (``action_record``: ``(player, action)`` in order),
  and replays the hand in Loki's game (:func:`loki_betting`): each round's actions in order, with the small blind's
  opening check of a round that Loki's game opens with the big blind moved after the big blind's action (so
  ``check, bet, call`` is ``bet, call``, and ``check, check`` stays two checks), a bet that opens such a round preceded
  by the big blind's check, and a small blind still to open such a round after the big blind's check; then Loki
  decides on that hand as ``loki acpc`` would (:class:`loki.io.acpc_client.HandTracker`), replayed at each decision on
  a copy of the player as it was when the hand began (the translation need not extend itself: RLCard's small blind
  that checks first moves behind the big blind), which decides again at its earlier turns of the hand, so that each
  decision draws the player's next random numbers (a Simulator's seed, a check-raise coin), as at Loki's table.  A
  hand Loki's game cannot hold (a fifth pre-flop bet) is checked or called and counted.  It never sees the end of a
  hand (RLCard does not show an agent the final state), so its models learn from the actions before its last
  decision, not from showdowns.
* RLCard's rule agent at Loki's table (:class:`RLCardRuleAgent`, kind ``rlcard``: ``rlcard:limit-holdem-rule-v1``): each
  decision is given to it as RLCard's raw state (its cards and the board in RLCard's spelling, the legal actions in
  RLCard's names, chips in RLCard's units, the raises per round).

A state that cannot be read (a card RLCard does not spell, an action it does not name, a record that does not fit the
cards) is an :class:`~loki.errors.InputError` naming what was expected.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from typing import Any, Literal

import numpy as np

from loki.cards import format_cards
from loki.engine import Action, PlayerView
from loki.errors import ConfigError, InputError
from loki.players.base import Player
from loki.players.registry import PlayerConfig, PlayerKind

__all__ = [
    "to_rlcard_card",
    "from_rlcard_card",
    "loki_betting",
    "LokiRLCardAgent",
    "RLCardRuleAgent",
    "RLCARD",
    "rlcard_module",
    "RLCARD_ACTIONS",
    "CHIP_SCALE",
]

#: RLCard's action names in the order of its action ids (``rlcard.envs.limitholdem.LimitholdemEnv.actions``).
RLCARD_ACTIONS = ("call", "raise", "fold", "check")
#: Loki's chips per RLCard chip (blinds 5/10 against 1/2).
CHIP_SCALE = 5
_RANKS = "23456789TJQKA"
_SUITS = "CDHS"  # Loki's suit order c, d, h, s (card = 4 * rank + suit)


def rlcard_module() -> Any:
    """The ``rlcard`` module.

    Raises:
        ConfigError: RLCard is not installed (with the command that installs it).
    """
    try:
        import rlcard
    except ImportError:
        raise ConfigError('RLCard is not installed: pip install "loki-poker[rlcard]"') from None
    return rlcard


def to_rlcard_card(card: int) -> str:
    """RLCard's spelling of Loki's card ``card``.

    >>> to_rlcard_card(51), to_rlcard_card(0)
    ('SA', 'C2')
    """
    return _SUITS[int(card) % 4] + _RANKS[int(card) // 4]


def from_rlcard_card(text: str) -> int:
    """Loki's card of RLCard's ``"SA"``-style spelling.

    Raises:
        InputError: not two characters, suit then rank.

    >>> from_rlcard_card("SA"), from_rlcard_card("C2")
    (51, 0)
    """
    if not isinstance(text, str) or len(text) != 2 or text[0] not in _SUITS or text[1] not in _RANKS:
        raise InputError(f"RLCard card {text!r}: expected a suit of {_SUITS} then a rank of {_RANKS} (e.g. 'SA')")
    return 4 * _RANKS.index(text[1]) + _SUITS.index(text[0])


_LETTER = {"fold": "f", "check": "c", "call": "c", "raise": "r"}


def loki_betting(
    record: Sequence[tuple[int, str]], small_blind: int, rounds_done: int, to_act: int | None = None
) -> str:
    """The ACPC betting string, in Loki's heads-up game, of an RLCard hand's action record (module docstring).

    Args:
        record: ``(player, action)`` in order (RLCard's ``action_record``).
        small_blind: the RLCard player who posted the small blind (it acts first pre-flop).
        rounds_done: how many rounds the record has completed (the board shows 0, 3, 4 or 5 cards: 0, 1, 2, 3).
        to_act: the RLCard player to act now (None: the hand is over); a round that the small blind opens, in RLCard
            and not in Loki's game, begins with the big blind's check while the small blind has not acted in it.

    Raises:
        InputError: an action RLCard does not name.

    >>> loki_betting([(1, "call"), (0, "check"), (1, "check"), (0, "raise")], 1, 1, to_act=1)  # check, bet: a bet
    'cc/r'
    >>> loki_betting([(1, "call"), (0, "check")], 1, 1, to_act=1)  # the small blind opens the flop in RLCard
    'cc/c'
    """
    rounds: list[list[tuple[int, str]]] = [[]]
    pending = list(record)
    # split the record into rounds: a round ends when every live player has acted and the bets are equal
    bets = {small_blind: 1, 1 - small_blind: 2}
    acted: set[int] = set()
    for player, action in pending:
        if action not in _LETTER:
            raise InputError(f"RLCard action {action!r}: expected one of fold, check, call, raise")
        if len(rounds) - 1 >= rounds_done + 1:
            break
        rounds[-1].append((player, action))
        if action == "fold":
            break
        acted.add(player)
        if action == "raise":
            bets[player] = max(bets.values()) + 1
        elif action == "call":
            bets[player] = max(bets.values())
        if len(acted) == 2 and bets[0] == bets[1]:
            rounds.append([])
            acted = set()
    out = []
    for r, acts in enumerate(rounds[: rounds_done + 1]):
        letters = [(p, _LETTER[a]) for p, a in acts]
        if r == 0:
            text, raises = "", 0
            for _, ch in letters:
                if ch == "r":
                    raises += 1
                    if raises > 3:  # Loki's game caps pre-flop at 4 bets: a fifth bet is a call, which ends the round
                        text += "c"
                        break
                text += ch
        else:
            big = 1 - small_blind
            if not letters and r == rounds_done and to_act is not None and to_act != big:
                text = "c"  # the small blind opens: the big blind has checked, in Loki's game
            elif letters and letters[0][0] != big:  # Loki's game opens the round with the big blind
                first = letters[0][1]
                if first == "c":
                    rest = letters[1:]
                    text = "".join(ch for _, ch in rest)
                    if len(rest) == 1 and rest[0][1] == "c":
                        text += "c"  # check, check: both checks, in Loki's order
                elif first == "r":
                    text = "c" + "".join(ch for _, ch in letters)
                else:
                    text = "".join(ch for _, ch in letters)
            else:
                text = "".join(ch for _, ch in letters)
        out.append(text)
    return "/".join(out)


class LokiRLCardAgent:
    """A Loki player as an RLCard agent for ``limit-holdem`` (``use_raw = True``; module docstring).

    Args:
        player: a loki player, or a spec (built with ``seed``).
        seed: the seed of a player given as a spec.

    Attributes:
        use_raw: True (RLCard gives raw states and takes action names).
        hands: hands it has seen.
        errors: decisions Loki's game could not hold (a fifth pre-flop bet), checked or called.
    """

    use_raw = True

    def __init__(self, player: Any, seed: int = 0):
        from loki.players.registry import make_player

        self.player = make_player(player, seed=seed) if isinstance(player, (str, dict)) else player
        self.hands = 0
        self.errors = 0
        self._rng = np.random.default_rng([int(seed), 7])
        self._record_id: int | None = None
        self._record_len = 0
        self._base: Any = None
        self._copy: Any = None

    def step(self, state: dict) -> str:
        """The action name for RLCard's raw ``state`` (its ``raw_obs``, ``raw_legal_actions``, ``action_record``).

        The hand is replayed in Loki's game at every decision, on a copy of the player as it was when the hand began
        (a translated history need not extend the last one: a check that opens a round in RLCard may move), restored
        with the hand's seed; the copy decides again at each of its earlier turns of the translated hand (each turn's
        state in order, as a dealer sends them: :func:`_our_turns`), so that every decision of a hand draws the
        player's next random numbers, as at Loki's table, not the first ones again.  The copy of the hand's last
        decision is what the player is when the next hand begins (:class:`~loki.players.frozen.Snapshot`).
        """
        from loki.io.acpc_client import HandTracker, parse_matchstate
        from loki.io.gamedef import bundled_gamedef
        from loki.players.frozen import Snapshot

        raw, legal, record = _read_state(state)
        hole = [from_rlcard_card(c) for c in raw["hand"]]
        board = [from_rlcard_card(c) for c in raw["public_cards"]]
        if len(hole) != 2 or len(board) not in (0, 3, 4, 5) or len(set(hole + board)) != len(hole) + len(board):
            raise InputError(
                f"RLCard state: hand {raw['hand']!r} and board {raw['public_cards']!r} are not a hold'em hand"
            )
        me = _who_acts(record, raw)
        if id(record) != self._record_id or len(record) < self._record_len or self._base is None:
            self.hands += 1
            self._base = Snapshot(self._copy if self._copy is not None else self.player)
            self._hand_seed = int(self._rng.integers(2**63 - 1))
        self._record_id, self._record_len = id(record), len(record)
        small = record[0][0] if record else me
        rounds_done = {0: 0, 3: 1, 4: 2, 5: 3}[len(board)]
        betting = loki_betting(record, small, rounds_done, me)
        position = 1 if me == small else 0  # ACPC 2p: position 1 posts the small blind
        cards = ["", ""]
        cards[position] = format_cards(hole)
        from loki.errors import ProtocolError

        game = bundled_gamedef(2)
        self._copy = self._base.restore(self._hand_seed)
        tracker = HandTracker(game, self._copy, fixed_seats=False)
        try:
            a = None
            for line in _our_turns(game, position, self.hands - 1, betting, cards, format_cards(board)):
                a = tracker.update(parse_matchstate(line, 2))
        except ProtocolError:  # a hand Loki's game cannot hold (a fifth pre-flop bet)
            a = None
        if a is None:  # checked or called, counted
            self.errors += 1
            return "call" if "call" in legal else "check"
        if a is Action.RAISE and "raise" in legal:
            return "raise"
        if a is Action.FOLD and "fold" in legal and "check" not in legal:
            return "fold"
        return "call" if "call" in legal else "check"

    def eval_step(self, state: dict) -> tuple[str, dict]:
        """:meth:`step`, and no action probabilities (RLCard's evaluation interface)."""
        return self.step(state), {}


def _our_turns(game: Any, position: int, hand: int, betting: str, cards: Sequence[str], board: str) -> list[str]:
    """The ACPC states of our turns in a hand whose betting so far is ``betting`` (ours now): a state for every prefix
    of it at which ``position`` was to act, and the whole of it last, each with the board of its rounds
    (:func:`loki.io.acpc_client.format_matchstate`; ``board``: the cards dealt so far; ``cards``: the hole cards by
    position, ours only)."""
    from loki.io.acpc_client import format_matchstate, our_turn_without_cards

    turns = [
        format_matchstate(position, hand, betting[:i], cards, board) for i in range(len(betting)) if betting[i] != "/"
    ]
    return [t for t in turns if our_turn_without_cards(game, t)] + [
        format_matchstate(position, hand, betting, cards, board)
    ]


def _read_state(state: Any) -> tuple[dict, list[str], list[tuple[int, str]]]:
    if not isinstance(state, dict) or "raw_obs" not in state:
        raise InputError("RLCard state: expected the env's state dict with 'raw_obs' (an agent with use_raw = True)")
    raw = state["raw_obs"]
    if not isinstance(raw, dict) or not {"hand", "public_cards", "legal_actions"} <= set(raw):
        raise InputError("RLCard raw_obs: expected 'hand', 'public_cards' and 'legal_actions' (limit-holdem)")
    given = state.get("raw_legal_actions", raw["legal_actions"])
    legal = list(given) if isinstance(given, (list, tuple)) else []
    if not legal or any(a not in _LETTER for a in legal):
        raise InputError(f"RLCard legal actions {legal!r}: expected some of fold, check, call, raise")
    record = state.get("action_record")
    if not isinstance(record, list):
        raise InputError("RLCard state: no 'action_record' (the env's record of the hand's actions)")
    return raw, legal, record


def _who_acts(record: Sequence[tuple[int, str]], raw: dict) -> int:
    """The RLCard player to act: heads-up the one who did not act last (after a round too: RLCard's next round opens
    with the player after the one who closed it), or at the start the small blind, who has 1 chip in (``all_chips``).

    Raises:
        InputError: an empty record whose chips are not the blinds.
    """
    if record:
        return 1 - int(record[-1][0])
    chips = list(raw.get("all_chips", ()))
    if sorted(chips) != [1, 2]:
        raise InputError(f"RLCard state at the start of a hand with chips {chips!r}: expected the blinds 1 and 2")
    return chips.index(1)


# -------------------------------------------------------------------------------- RLCard's rule agent at our table
class RLCardRuleConfig(PlayerConfig):
    """``rlcard:limit-holdem-rule-v1``: RLCard's limit hold'em rule agent (``rlcard.models.load``)."""

    kind: Literal["rlcard"] = "rlcard"
    model: Literal["limit-holdem-rule-v1"] = "limit-holdem-rule-v1"


class RLCardRuleAgent(Player):
    """An RLCard limit hold'em model's agent at a Loki table (module docstring).

    Args:
        model: the RLCard model name (``limit-holdem-rule-v1``).
        name: display name.

    Raises:
        ConfigError: RLCard is not installed.
    """

    def __init__(self, model: str = "limit-holdem-rule-v1", name: str | None = None):
        rlcard_module()
        from rlcard.models import load

        self.agent = load(model).agents[0]
        self.name = name or f"RLCard {model}"

    def raw_state(self, view: PlayerView, legal: Sequence[Action]) -> dict:
        """RLCard's raw state of this decision (module docstring)."""
        to_call = view.to_call()
        names = []
        for a in legal:
            names.append(
                "fold" if a is Action.FOLD else "raise" if a is Action.RAISE else "check" if to_call == 0 else "call"
            )
        me = view.seat
        raw = {
            "hand": [to_rlcard_card(c) for c in view.hole_cards],
            "public_cards": [to_rlcard_card(c) for c in view.board],
            "all_chips": [int(x) // CHIP_SCALE for x in view.total_committed],
            "my_chips": int(view.total_committed[me]) // CHIP_SCALE,
            "legal_actions": names,
            "raise_nums": [h.count("r") for h in view.round_histories] + [0] * (4 - len(view.round_histories)),
        }
        return {
            "raw_obs": raw,
            "raw_legal_actions": list(names),
            "legal_actions": OrderedDict((RLCARD_ACTIONS.index(n), None) for n in names),
        }

    def act(self, view: PlayerView, legal_actions: Sequence[Action]) -> Action:
        """The agent's action name, as Loki's action (module docstring)."""
        name, _ = self.agent.eval_step(self.raw_state(view, legal_actions))
        if name not in _LETTER:
            raise InputError(f"RLCard agent answered {name!r}: expected one of fold, check, call, raise")
        a = Action.parse(_LETTER[name])
        if a not in legal_actions:
            a = Action.CALL
        self._last = a
        return a

    def action_probabilities(self) -> tuple[float, float, float] | None:
        """Pure (a rule agent): one-hot on the last action."""
        a = getattr(self, "_last", None)
        return None if a is None else tuple(1.0 if b is a else 0.0 for b in (Action.FOLD, Action.CALL, Action.RAISE))  # type: ignore[return-value]


RLCARD = PlayerKind(
    name="rlcard",
    build=lambda cfg, seed, name: RLCardRuleAgent(cfg.model, name),
    config=RLCardRuleConfig,
    options=lambda opts: {"model": ":".join(opts).lower()} if opts else {},
    spec=lambda cfg: f"rlcard:{cfg.model}",
    description="RLCard's limit hold'em rule agent (optional extra: loki-poker[rlcard])",
)
