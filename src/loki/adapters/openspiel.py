"""Loki in OpenSpiel, and OpenSpiel's uniform random bot at Loki's table (optional extra: ``pip install
"loki-poker[openspiel]"``; OpenSpiel's Python package is ``open_spiel``, its module ``pyspiel``).

**The game.**  OpenSpiel's ``universal_poker`` plays the ACPC game definitions; :func:`game_string` writes Loki's
heads-up limit game (ACPC ``holdem.limit.2p.reverse_blinds``, :func:`loki.io.gamedef.bundled_gamedef`) as its
parameters: ``betting=limit``, ``blind=10 5`` (position 0 posts the big blind), ``firstPlayer=2 1 1 1``,
``maxRaises=3 4 4 4``, ``raiseSize=10 10 20 20``; a stack no limit hand can reach (universal_poker wants one; the
ACPC limit games have none).  Same rules, same positions, so a match through OpenSpiel and the same match through
``loki match`` are the same games.

**The mappings** (``open_spiel/games/universal_poker.cc``, ``open_spiel/games/universal_poker/acpc/``):

* players: OpenSpiel's player ``p`` is ACPC position ``p`` (0 the big blind, 1 the small blind and button);
* actions: 0 ``Fold``, 1 ``Call`` (a check when nothing is to call), 2 ``Bet`` (a bet or raise, the fixed limit
  size) -- Loki's ``Action.FOLD``, ``CALL``, ``RAISE`` (:class:`loki.engine.Action`, the same ints);
* cards: chance outcome ``c`` is the card ``c`` (rank ``c // 4`` from deuce, suit ``c % 4`` in ``cdhs``), Loki's card
  ints (:mod:`loki.cards`); the first ``2·n`` chance outcomes of a hand are the hole cards, position 0's two first,
  then the board in the order dealt;
* what a bot may read: its own hole cards (its two chance outcomes), the board (chance outcomes after the hole
  cards), the betting (``[Sequences: ...]`` of its information state, ``|`` between rounds) and, at a showdown, the
  other hole cards (shown).  Nothing else of the state is read.

:class:`LokiBot` is a ``pyspiel.Bot``: it turns that into the ACPC ``MATCHSTATE`` line the ACPC dealer would send
and drives the Loki player with :class:`loki.io.acpc_client.HandTracker`, the code ``loki acpc`` and ``loki match``
drive it with, so it plays exactly as there (its hand count gives the seat rotation, as the ACPC hand number does).
:func:`play_match` deals the ACPC dealer's cards for a seed (:class:`loki.io.acpc_deal.AcpcDeals`) through
universal_poker, with positions rotating every hand as the ACPC dealer rotates them.  The player kind
``openspiel`` (``openspiel:random``) seats OpenSpiel's uniform random bot (``pyspiel.make_uniform_random_bot``) at a
Loki table: each decision is asked of it on the universal_poker state rebuilt from what the seat sees (its own cards;
the other seat's cards are stand-ins the bot never reads).

A state the bot cannot read (not universal_poker, an unknown action in the betting, a card outside the deck) is a
:class:`~loki.errors.InputError` naming what was expected.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from loki.cards import format_cards
from loki.engine import Action, PlayerView
from loki.errors import ConfigError, InputError
from loki.players.base import Player
from loki.players.registry import PlayerConfig, PlayerKind

__all__ = [
    "game_string",
    "load_game",
    "matchstate_of",
    "LokiBot",
    "play_match",
    "OpenSpielMatch",
    "make_bot",
    "OpenSpielRandom",
    "OPENSPIEL",
    "pyspiel_module",
]

#: universal_poker's stack for the limit game: more than any hand can put in (4 bets of 10, 4 of 10, 4 of 20, 4 of 20).
STACK = 20000


def pyspiel_module() -> Any:
    """The ``pyspiel`` module.

    Raises:
        ConfigError: OpenSpiel is not installed (with the command that installs it).
    """
    try:
        import pyspiel
    except ImportError:
        raise ConfigError(
            'OpenSpiel is not installed: pip install "loki-poker[openspiel]" (the open_spiel package)'
        ) from None
    return pyspiel


def game_string() -> str:
    """The universal_poker parameters of Loki's heads-up limit game (ACPC ``holdem.limit.2p.reverse_blinds``).

    >>> game_string()[:54]
    'universal_poker(betting=limit,numPlayers=2,numRounds=4'
    """
    from loki.io.gamedef import bundled_gamedef

    g = bundled_gamedef(2)
    c = g.config
    first = " ".join(str(p + 1) for p in g.first_player)
    raises = " ".join(str(c.max_bets - 1 if r == 0 else c.max_bets) for r in range(4))
    return (
        f"universal_poker(betting=limit,numPlayers=2,numRounds=4,blind={' '.join(map(str, g.blinds))},"
        f"raiseSize={c.small_bet} {c.small_bet} {c.big_bet} {c.big_bet},firstPlayer={first},maxRaises={raises},"
        f"numSuits=4,numRanks=13,numHoleCards=2,numBoardCards=0 3 1 1,stack={STACK} {STACK})"
    )


def load_game() -> Any:
    """The universal_poker game of :func:`game_string`.

    Raises:
        ConfigError: OpenSpiel is not installed.
    """
    return pyspiel_module().load_game(game_string())


_SEQUENCES = re.compile(r"\[Sequences: ([^\]]*)\]")
_ACTIONS = {0: Action.FOLD, 1: Action.CALL, 2: Action.RAISE}


def _chance_cards(state: Any) -> list[int]:
    """The chance outcomes of the hand so far (the cards, in the order dealt)."""
    n = state.num_players()
    out = []
    for item in state.full_history():
        if item.player == -1:  # chance
            out.append(int(item.action))
    if any(not 0 <= c < 52 for c in out):
        raise InputError(f"universal_poker state: a card outside 0..51 among the chance outcomes {out}")
    if len(out) < 2 * n and not state.is_chance_node():
        raise InputError(f"universal_poker state: {len(out)} cards dealt at a decision, expected at least {2 * n}")
    return out


def matchstate_of(state: Any, player: int, hand: int) -> str:
    """The ACPC ``MATCHSTATE`` line the ACPC dealer would send position ``player`` in hand ``hand`` of this
    universal_poker state: its hole cards, the board dealt so far (by round), the betting; the other hole cards only
    after a showdown (module docstring: what a bot may read).

    Raises:
        InputError: not a heads-up universal_poker state, or one whose betting or cards cannot be read.
    """
    n = state.num_players()
    if n != 2:
        raise InputError(f"universal_poker state of {n} players: Loki's OpenSpiel bot plays heads-up")
    info = state.information_state_string(player)
    m = _SEQUENCES.search(info)
    if m is None:
        raise InputError(f"not a universal_poker information state (no [Sequences: ...]): {info[:120]!r}")
    rounds = m.group(1).split("|")
    if len(rounds) > 4 or any(set(r) - set("fcr") for r in rounds):
        raise InputError(f"universal_poker betting {m.group(1)!r}: expected up to 4 rounds of f, c, r")
    cards = _chance_cards(state)
    holes = [cards[2 * p : 2 * p + 2] for p in range(n)]
    board = cards[2 * n :]
    shown = state.is_terminal() and not any("f" in r for r in rounds)
    fields = [format_cards(h) if (p == player or shown) else "" for p, h in enumerate(holes)]
    cuts = (3, 4, 5)
    segs = [format_cards(board[:3])] if len(board) >= 3 else []
    segs += [format_cards(board[cuts[i] : cuts[i + 1]]) for i in range(2) if len(board) >= cuts[i + 1]]
    text = "|".join(fields) + "".join("/" + s for s in segs)
    return f"MATCHSTATE:{player}:{hand}:{'/'.join(rounds)}:{text}"


def _bot_base() -> Any:
    return pyspiel_module().Bot


class LokiBot:
    """A Loki player as an OpenSpiel bot for the universal_poker game of :func:`game_string` (module docstring).

    Made by :func:`make_bot` (a ``pyspiel.Bot`` subclass is built on first use, so that importing this module needs
    no OpenSpiel).  ``step(state)`` returns the action id; ``restart_at(state)`` starts a new hand (the hand count
    gives the seat rotation as the ACPC hand number does); ``inform_terminal(state)`` shows it the end of a hand
    (its result, and the cards shown at a showdown).

    Args:
        player: a loki player (``make_player(spec, seed=...)``) or a spec.
        player_id: the OpenSpiel player this bot is for, or None for whichever player is to act (a bot that moves
            between positions from hand to hand, as in :func:`play_match`).
        seed: the seed when ``player`` is a spec.
    """


def make_bot(player: Any, player_id: int | None = None, seed: int = 0) -> Any:
    """A :class:`LokiBot` (a ``pyspiel.Bot``).

    Raises:
        ConfigError: OpenSpiel is not installed; PlayerSpecError: a bad spec.
    """
    from loki.io.acpc_client import HandTracker, parse_matchstate
    from loki.io.gamedef import bundled_gamedef
    from loki.players.registry import make_player

    base = _bot_base()
    game = bundled_gamedef(2)

    class _LokiBot(base, LokiBot):  # type: ignore[misc, valid-type]
        def __init__(self) -> None:
            base.__init__(self)
            self.player = make_player(player, seed=seed) if isinstance(player, (str, dict)) else player
            self.player_id = player_id
            self.tracker = HandTracker(game, self.player)
            self.hand = -1
            self._seen: str | None = None

        def restart_at(self, state: Any) -> None:
            self.hand += 1

        def restart(self) -> None:
            self.hand += 1

        def inform_action(self, state: Any, player_id: int, action: int) -> None:
            """Nothing to do: the betting is read from the state at each decision."""

        def _update(self, state: Any, who: int) -> Action | None:
            line = matchstate_of(state, who, max(self.hand, 0))
            if line == self._seen:
                return None
            self._seen = line
            return self.tracker.update(parse_matchstate(line, 2))

        def step(self, state: Any) -> int:
            who = state.current_player() if self.player_id is None else self.player_id
            if state.current_player() != who:
                raise InputError(f"it is player {state.current_player()}'s turn, not this bot's ({who})")
            a = self._update(state, who)
            if a is None:  # pragma: no cover - the tracker answers at our turn
                raise InputError(f"the state of player {who} is not its turn: {matchstate_of(state, who, self.hand)}")
            if int(a) not in state.legal_actions():
                return 1  # the ACPC dealer's rule: an illegal action is a call
            return int(a)

        def inform_terminal(self, state: Any, player_id: int) -> None:
            """The hand is over: the final state as position ``player_id`` sees it (the player's ``end_hand``)."""
            self._update(state, player_id)

        def provides_policy(self) -> bool:
            return False

        def provides_force_action(self) -> bool:
            return False

    return _LokiBot()


@dataclass
class OpenSpielMatch:
    """A match through OpenSpiel: ``payoffs`` chips per hand per player (player order), ``totals`` their sums."""

    payoffs: list[list[float]] = field(default_factory=list)

    @property
    def totals(self) -> list[float]:
        return [float(sum(h[p] for h in self.payoffs)) for p in range(2)]


def play_match(players: Sequence[Any], hands: int, seed: int = 0) -> OpenSpielMatch:
    """A heads-up match through OpenSpiel between two loki players (or specs, seeded as ``loki match`` seeds them:
    ``seed * 100 + seat``), dealt the ACPC dealer's cards of ``seed`` (:class:`loki.io.acpc_deal.AcpcDeals`), positions
    rotating every hand (player ``p`` in position ``(p − hand) mod 2``) as the ACPC dealer rotates them.

    Returns:
        :class:`OpenSpielMatch` (chips per hand per player, in player order).

    Raises:
        ConfigError: OpenSpiel is not installed, or not two players.
    """
    from loki.io.acpc_deal import AcpcDeals
    from loki.io.acpc_match import player_seed

    if len(players) != 2:
        raise ConfigError(f"{len(players)} players: an OpenSpiel match here is heads-up")
    game = load_game()
    bots = [make_bot(p, None, player_seed(seed, i + 1)) for i, p in enumerate(players)]
    deals = AcpcDeals(seed, 2)
    out = OpenSpielMatch()
    for h in range(hands):
        holes, board = deals.draw_hand()
        state = game.new_initial_state()
        for b in bots:
            b.restart_at(state)
        dealt = [c for pos in range(2) for c in holes[pos]] + list(board)
        k = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(int(dealt[k]))
                k += 1
                continue
            pos = state.current_player()
            state.apply_action(bots[(pos + h) % 2].step(state))
        for pos in range(2):
            bots[(pos + h) % 2].inform_terminal(state, pos)
        returns = state.returns()
        row = [0.0, 0.0]
        for pos in range(2):
            row[(pos + h) % 2] = float(returns[pos])
        out.payoffs.append(row)
    return out


# ------------------------------------------------------------------------------------- OpenSpiel's bot at our table
class OpenSpielRandomConfig(PlayerConfig):
    """``openspiel:random``: OpenSpiel's uniform random bot (``pyspiel.make_uniform_random_bot``)."""

    kind: Literal["openspiel"] = "openspiel"
    bot: Literal["random"] = "random"


class OpenSpielRandom(Player):
    """OpenSpiel's uniform random bot at a Loki table (heads-up): each decision is asked of the bot on the
    universal_poker state rebuilt from what this seat sees (module docstring).

    Args:
        seed: the bot's seed (``pyspiel.make_uniform_random_bot(player, seed)``, one bot per position).
        name: display name.

    Raises:
        ConfigError: OpenSpiel is not installed.
    """

    table_sizes = (2, 2)  # OpenSpiel's universal_poker game is loaded heads-up here

    def __init__(self, seed: int = 0, name: str | None = None):
        ps = pyspiel_module()
        self.game = load_game()
        s = int(seed) % (2**31 - 1)
        self.bots = [ps.make_uniform_random_bot(p, s + p) for p in range(2)]
        self.name = name or "OpenSpiel random"

    def begin_hand(self, seat: int, config: Any, hole_cards: tuple[int, int], button: int) -> None:
        if config.n_players != 2:
            raise ConfigError(f"OpenSpiel's bot plays heads-up here, not at {config.n_players} players")
        self.seat, self.hole, self.button = seat, (int(hole_cards[0]), int(hole_cards[1])), button

    def act(self, view: PlayerView, legal_actions: Sequence[Action]) -> Action:
        """The bot's action on the universal_poker state of this decision."""
        # universal_poker position 1 is the button (it posts the small blind); our engine's button seat is view.button
        pos = 1 if self.seat == view.button else 0
        known = set(self.hole) | set(view.board)
        spare = [c for c in range(52) if c not in known][:2]
        holes = [self.hole, tuple(spare)] if pos == 0 else [tuple(spare), self.hole]
        state = self.game.new_initial_state()
        for c in [*holes[0], *holes[1]]:
            state.apply_action(int(c))
        board = list(view.board)
        for r, part in enumerate(view.round_histories):
            for ch in part:
                state.apply_action({"f": 0, "c": 1, "r": 2}[ch])
            while state.is_chance_node():
                state.apply_action(int(board.pop(0)))
            if r == view.round:
                break
        if state.current_player() != pos:
            raise InputError(f"the rebuilt universal_poker state is player {state.current_player()}'s turn, not {pos}")
        a = _ACTIONS[int(self.bots[pos].step(state))]
        self._legal = tuple(legal_actions)
        self._last = a if a in legal_actions else Action.CALL
        return self._last

    def action_probabilities(self) -> tuple[float, float, float] | None:
        """Uniform over the legal actions of the last decision (what the uniform random bot draws from: its legal
        actions are the same)."""
        legal = getattr(self, "_legal", None)
        if not legal:
            return None
        p = 1.0 / len(legal)
        return tuple(p if a in legal else 0.0 for a in (Action.FOLD, Action.CALL, Action.RAISE))  # type: ignore[return-value]


OPENSPIEL = PlayerKind(
    name="openspiel",
    build=lambda cfg, seed, name: OpenSpielRandom(seed, name),
    config=OpenSpielRandomConfig,
    options=lambda opts: {"bot": opts[0].lower()} if opts else {},
    spec=lambda cfg: f"openspiel:{cfg.bot}",
    description="OpenSpiel's uniform random bot (optional extra: loki-poker[openspiel])",
)
