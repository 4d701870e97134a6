"""A player frozen: its state after a stated warm-up, restored at every hand (a fixed strategy).

A Loki player learns as it plays: action frequencies, weight tables, the adaptive model's weights, the card-blind
evidence.  Measured against an opponent that adapts (a best response, :mod:`loki.lbr`), such a player is a moving
target; what is measured is then neither its strategy at the start nor after it learned.  A **frozen** player is the
player as it stands after ``warmup`` hands against ``warmup_opponent`` (0: as built, before it has seen anything),
restored from that snapshot at the start of every hand, so that whatever it learns in a hand is forgotten at the
next: within a hand it plays exactly as the player would (its weight tables follow the hand's actions, its
frequencies count them), and across hands it is one fixed strategy, a function of its cards and the public history
of the hand only.  Its random choices (the Action Selector's number, the Simulator's seeds, the check-raise coin)
are drawn anew every hand from the frozen player's own seed.

:class:`Snapshot` is the mechanism, usable on its own: a player pickled once, restored as many independent copies as
needed (the local best response keeps one per holding of its opponent), each with its random generators re-seeded
(every ``numpy.random.Generator`` and ``random.Random`` in the player, replaced on load: the player protocol asks
that every random choice come from a seeded generator, :mod:`loki.players.base`) and sharing the immutable parts
(frozen configurations, read-only tables) with the other copies instead of rebuilding them (a Loki-2 B+R copy loads
in about 50 µs).

The spec is ``frozen:<player spec>`` (``frozen:loki2:BRS:adaptive``) for the player as built, or the table form for a
warm-up: ``frozen{"player": "loki2:BRS:adaptive", "warmup": 1000, "warmup_opponent": "equity"}``.  A warm-up is
heads-up (the frozen player in seat 1, the opponent in seat 2, the button alternating, the cards dealt from
``warmup_seed``); at a later table the player's models follow the seats (the snapshot's opponent model becomes the
model of whoever sits in the other seat), so a warmed-up frozen player plays heads-up only.
"""

from __future__ import annotations

import functools
import io
import pickle
import random
from collections.abc import Sequence
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, Field, field_validator

from loki.engine import Action, GameConfig, PlayerView
from loki.errors import ConfigError, PlayerSpecError
from loki.players.base import Player, table_sizes
from loki.players.registry import PlayerConfig, PlayerKind, make_player, parse_player, spec_of

__all__ = ["Snapshot", "FrozenConfig", "FrozenPlayer", "frozen_snapshot", "FROZEN", "MAX_WARMUP", "LIVE_MAX_WARMUP"]

#: The most warm-up hands a frozen player plays (a warm-up is played in every process that builds the player).
MAX_WARMUP = 100_000

#: The most warm-up hands of a frozen player at a live table (:func:`loki.players.registry.live_table_specs`, the web
#: table, whose page waits for the players to be built): DEFAULT, a few seconds of a Loki-2's play (200 hands of
#: ``loki2:BRS`` take ~3 s of CPU).
LIVE_MAX_WARMUP = 200


#: Types pickled as they are, never shared nor re-seeded (the fast path of :meth:`_Pickler.persistent_id`).
_PLAIN = frozenset({str, int, float, bool, type(None), tuple, list, dict, set, frozenset, bytes, complex})


def _immutable(obj: Any) -> bool:
    """Objects every copy may share: frozen pydantic records (the configurations), frozen dataclasses (records and
    tables their authors declared immutable; a cache inside one is shared too, which is what a cache is for) and
    read-only arrays."""
    if isinstance(obj, BaseModel):
        return bool(obj.model_config.get("frozen"))
    if isinstance(obj, np.ndarray):
        return not obj.flags.writeable and obj.dtype != object
    params = getattr(type(obj), "__dataclass_params__", None)
    return params is not None and bool(params.frozen)


class _Pickler(pickle.Pickler):
    def __init__(self, file: io.BytesIO, shared: list, index: dict):
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self._shared = shared
        self._index = index
        self.generators = 0

    def persistent_id(self, obj: Any) -> Any:
        t = type(obj)
        if t in _PLAIN:
            return None
        if t is np.random.Generator:
            self.generators += 1
            return ("rng", type(obj.bit_generator).__name__, id(obj))
        if isinstance(obj, random.Random):
            self.generators += 1
            return ("random", "", id(obj))
        k = self._index.get(id(obj))
        if k is not None:
            return ("shared", "", k)
        if _immutable(obj):
            k = self._index[id(obj)] = len(self._shared)
            self._shared.append(obj)
            return ("shared", "", k)
        return None


class _Unpickler(pickle.Unpickler):
    def __init__(self, data: bytes, shared: list, seed: int):
        super().__init__(io.BytesIO(data))
        self._shared = shared
        self._seq = np.random.SeedSequence(seed)
        self._made: dict = {}

    def persistent_load(self, pid: Any) -> Any:
        kind, name, key = pid
        if kind == "shared":
            return self._shared[key]
        hit = self._made.get(key)  # one generator referred to twice stays one generator
        if hit is not None:
            return hit
        child = self._seq.spawn(1)[0]
        if kind == "rng":
            bitgen = getattr(np.random, name, None)
            if bitgen is None:  # pragma: no cover - a bit generator numpy does not name
                raise pickle.UnpicklingError(f"unknown numpy bit generator {name!r}")
            made: Any = np.random.Generator(bitgen(child))
        else:
            made = random.Random(int(child.generate_state(2, np.uint64)[0]))
        self._made[key] = made
        return made


class Snapshot:
    """A player pickled once and restored as independent copies, each with its random generators re-seeded.

    Args:
        player: the player to freeze (unchanged by this).

    Attributes:
        generators: the random generators found in the player (each copy gets new ones, in the same places).
        size: the pickle's bytes (the shared immutable parts not counted).

    Raises:
        ConfigError: the player cannot be pickled (an attribute pickle refuses, e.g. an open file or a lambda).

    >>> from loki.players.registry import make_player
    >>> snap = Snapshot(make_player("random", seed=1))
    >>> a, b = snap.restore(7), snap.restore(7)
    >>> a is not b and a.rng.random() == b.rng.random() != snap.restore(8).rng.random()
    True
    """

    def __init__(self, player: Player):
        self._shared: list = []
        buf = io.BytesIO()
        p = _Pickler(buf, self._shared, {})
        try:
            p.dump(player)
        except (pickle.PicklingError, TypeError, AttributeError) as e:
            raise ConfigError(
                f"{getattr(player, 'name', type(player).__name__)} cannot be frozen: it does not pickle ({e})"
            ) from None
        self._data = buf.getvalue()
        self.generators = p.generators
        self.size = len(self._data)

    def restore(self, seed: int) -> Any:
        """A fresh copy of the player with every random generator seeded from ``seed`` (the same seed gives the
        same copy; its generators are children of ``numpy.random.SeedSequence(seed)`` in the order the pickle
        met them)."""
        return _Unpickler(self._data, self._shared, int(seed)).load()

    @property
    def shared(self) -> tuple:
        """The immutable parts every copy shares (frozen configurations and records, read-only tables)."""
        return tuple(self._shared)


# ------------------------------------------------------------------------------------------ the kind
class FrozenConfig(PlayerConfig):
    """A frozen player (module docstring).

    Attributes:
        player: the player frozen: a spec or a configuration table (stored as its shortest spec).
        warmup: hands played heads-up before the snapshot (0: the player as built), at most :data:`MAX_WARMUP`.
        warmup_opponent: the opponent of the warm-up (a spec).
        warmup_seed: seeds the warm-up (its cards, both players); the frozen player's own choices after it are
            seeded by the seed it is built with.
    """

    kind: Literal["frozen"] = "frozen"
    player: str
    warmup: int = Field(0, ge=0, le=MAX_WARMUP)
    warmup_opponent: str = "equity"
    warmup_seed: int = Field(0, ge=0, le=2**63 - 1)

    @field_validator("player", "warmup_opponent", mode="before")
    @classmethod
    def _spec(cls, v: Any) -> str:
        try:
            cfg = parse_player(v)
        except PlayerSpecError as e:
            raise ValueError(str(e)) from None
        if getattr(cfg, "cheats", False):
            raise ValueError(f"{spec_of(cfg)} is an oracle (a cheat for experiments): it cannot be frozen")
        if cfg.kind == "frozen":
            raise ValueError("a frozen player is frozen already")
        return spec_of(cfg)


@functools.lru_cache(maxsize=16)
def _snapshot(player: str, warmup: int, opponent: str, seed: int) -> Snapshot:
    from loki.players.table import play_session

    p = make_player(player, seed=seed)
    if warmup:
        play_session(GameConfig(n_players=2), [p, make_player(opponent, seed=seed + 1)], warmup, seed=seed)
    return Snapshot(p)


def frozen_snapshot(config: FrozenConfig) -> Snapshot:
    """The snapshot of ``config``'s player after its warm-up (played once per process and configuration: every
    player built from the same configuration in a process shares it; the warm-up is deterministic, so every
    process gets the same snapshot)."""
    return _snapshot(config.player, config.warmup, config.warmup_opponent, config.warmup_seed)


class FrozenPlayer(Player):
    """The player of a :class:`FrozenConfig`, restored from its snapshot at every hand (module docstring).

    Args:
        config: the configuration.
        seed: seeds the random choices of every hand (one seed per hand drawn from ``default_rng([seed, 4])``).
        name: display name (default: the player's name with ``(frozen)``).
    """

    def __init__(self, config: FrozenConfig, seed: int = 0, name: str | None = None):
        self.config = config
        self.snapshot = frozen_snapshot(config)
        self._rng = np.random.default_rng([int(seed), 4])
        self.inner: Any = self.snapshot.restore(0)
        base = getattr(self.inner, "name", config.player)
        self.name = name or f"{base} (frozen{f' after {config.warmup} hands' if config.warmup else ''})"
        # a heads-up warm-up's models are of one opponent (restored): heads-up only; else the player's own range
        self.table_sizes = (2, 2) if config.warmup else table_sizes(self.inner)

    @property
    def decider(self) -> Any:
        """The hand's restored copy, which makes this hand's decisions (:func:`loki.players.base.decider_of`)."""
        return self.inner

    def hand_seed(self) -> int:
        """The seed of the next hand's copy (drawn from the player's own stream)."""
        return int(self._rng.integers(2**63 - 1))

    def begin_hand(self, seat: int, config: GameConfig, hole_cards: tuple[int, int], button: int) -> None:
        """Restore the snapshot with new random generators, move its models to the seats of this hand (warm-up
        seat 1 becomes ``seat``), and start the hand.

        Raises:
            ConfigError: a warmed-up player at a table of other than two players.
        """
        self.inner = restored(self.snapshot, self.config, self.hand_seed(), seat, config.n_players)
        self.inner.begin_hand(seat, config, hole_cards, button)

    def observe(self, event) -> None:
        self.inner.observe(event)

    def act(self, view: PlayerView, legal_actions: Sequence[Action]) -> Action:
        return self.inner.act(view, legal_actions)

    def end_hand(self, view: PlayerView) -> None:
        self.inner.end_hand(view)

    def action_probabilities(self) -> tuple[float, float, float] | None:
        return self.inner.action_probabilities()

    def action_values(self) -> tuple[float, float, float] | None:
        get = getattr(self.inner, "action_values", None)
        return None if get is None else get()

    def reseat(self, mapping: dict[int, int]) -> None:
        """Nothing to follow: every hand restores the snapshot and places its models by the hand's seats."""


def restored(snapshot: Snapshot, config: FrozenConfig, seed: int, seat: int, n_players: int) -> Any:
    """A copy of a frozen player for a hand at ``seat`` of an ``n_players`` table: restored with generators from
    ``seed``, its models moved from the warm-up's seats (itself 0, its opponent 1) to this hand's.

    Raises:
        ConfigError: a warmed-up player at a table of other than two players.
    """
    p = snapshot.restore(seed)
    if config.warmup:
        if n_players != 2:
            raise ConfigError(
                f"frozen {config.player} after a heads-up warm-up plays heads-up only, not at {n_players} players"
            )
        if seat != 0:
            p.reseat({0: seat, 1: 1 - seat})
    return p


def _frozen_options(opts: list[str]) -> dict[str, Any]:
    if not opts or not opts[0]:
        raise ValueError("give the player to freeze, e.g. 'frozen:loki2:BRS:adaptive'")
    return {"player": ":".join(opts)}


def _frozen_spec(cfg: FrozenConfig) -> str | None:
    if cfg.warmup or cfg.warmup_seed:
        return None
    return f"frozen:{cfg.player}"


FROZEN = PlayerKind(
    name="frozen",
    build=lambda cfg, seed, name: FrozenPlayer(cfg, seed, name),
    config=FrozenConfig,
    options=_frozen_options,
    spec=_frozen_spec,
    description="a player restored every hand from its state after a warm-up (a fixed strategy)",
    live_table=lambda cfg: (
        f"warmup={cfg.warmup}: at most {LIVE_MAX_WARMUP} warm-up hands at a live table (the page waits for them)"
        if cfg.warmup > LIVE_MAX_WARMUP
        else None
    ),
)
