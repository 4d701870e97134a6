"""Player kinds and specs: build any player from a short text spec or a configuration table.

A **spec** is shorthand for a typed configuration (case-insensitive):

- ``random``, ``calling`` — the reference players (no options);
- ``loki1`` — Loki-1; ``loki1:TC``, ``loki1:TA``, ``loki1:LC``, ``loki1:LA`` — the style presets;
- ``loki2:<features>[:<style>][:trials=N][:cutoff=paper|paired|none][:fast]`` — Loki-2 with features from
  B, R, S (``loki2:BR``, ``loki2:BRS:LA``, ``loki2:S:trials=100:fast``; the Simulator options need S).

A **configuration table** (a mapping, e.g. from TOML) gives the same thing field by field, with ``kind``:
``{"kind": "loki2", "features": "BRS", "style": "LA", "sim": {"trials": 100}}``.  Both parse into the kind's
frozen pydantic record (:func:`parse_player`); :func:`make_player` builds the player.

**Kinds** are :class:`PlayerKind` objects found through the Python entry-point group ``loki.players``
(``[project.entry-points."loki.players"]`` in a package's ``pyproject.toml``, value ``"module:KIND"``), so
an installed plug-in package adds player kinds that work everywhere specs are accepted, tournament worker
processes included.  loki's own kinds are registered the same way.  :func:`register_kind` adds one at run
time (tests, notebooks: it does not reach worker processes started with "spawn").

>>> make_player("loki1:TA", seed=3).name
'Loki-1 TA'
>>> parse_player("loki2:BRS:LA:trials=100").sim.trials
100
>>> make_player("calling").name
'calling station'
"""

from __future__ import annotations

import contextlib
import contextvars
import importlib
import json
import os
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from typing import Any

from loki.config import LokiModel
from loki.errors import ConfigError, PlayerSpecError
from loki.players.base import Player

__all__ = [
    "PlayerKind",
    "ENTRY_POINT_GROUP",
    "player_kinds",
    "title_of",
    "reload_kinds",
    "builtin_kind_modules",
    "get_kind",
    "register_kind",
    "parse_player",
    "make_player",
    "spec_of",
    "config_table",
    "read_player_file",
    "built_in_specs_only",
    "live_table_specs",
    "MAX_PLAYER_FILE",
    "MAX_SPEC_DEPTH",
    "NoOptions",
    "PlayerConfig",
]

ENTRY_POINT_GROUP = "loki.players"
#: loki's own kinds, as its pyproject.toml registers them (used as well when loki runs from a source tree
#: that was never installed, where no entry points exist).
_BUILTIN = {
    "random": "loki.players.simple:RANDOM",
    "calling": "loki.players.simple:CALLING",
    "maniac": "loki.players.simple:MANIAC",
    "equity": "loki.players.simple:EQUITY",
    "folding": "loki.players.simple:FOLDING",
    "raising": "loki.players.simple:RAISING",
    "loki1": "loki.players.kinds:LOKI1",
    "loki2": "loki.players.kinds:LOKI2",
    "frozen": "loki.players.frozen:FROZEN",
    "lbr": "loki.lbr.player:LBR",
    "openspiel": "loki.adapters.openspiel:OPENSPIEL",
    "rlcard": "loki.adapters.rlcard:RLCARD",
    "pettingzoo": "loki.adapters.pettingzoo:PETTINGZOO",
}


class PlayerConfig(LokiModel):
    """Base of every player configuration: the ``kind`` it is built by (kinds narrow it to a ``Literal``)."""

    kind: str


class NoOptions(PlayerConfig):
    """The configuration of a kind that takes no options: just its ``kind``."""


def _no_options(opts: list[str]) -> dict[str, Any]:
    if opts:
        raise ValueError(f"unknown option {opts[0]!r} (this kind takes no options)")
    return {}


@dataclass(frozen=True)
class PlayerKind:
    """A kind of player: its configuration record, how a spec's options map onto it, and how to build one.

    Attributes:
        name: the spec's first part (lower case), e.g. ``"loki2"``.
        build: ``(config, seed, name) -> Player``; ``name`` None means the default display name.
        config: a :class:`PlayerConfig` subclass (its ``kind`` e.g. ``Literal["loki2"]``); default
            :class:`NoOptions`.
        options: ``(list of spec options after the kind) -> dict`` of config fields; raises ValueError on a bad
            option (the message is prefixed with the spec).  Default: no options.
        spec: ``config -> short spec`` when one exists, else None (then :func:`spec_of` writes the JSON table).
        description: one line for listings.
        fitted: ``config -> the name of the fitted set it plays`` (``loki tune``'s sets, explicit or implied by an
            option), or None: what :func:`title_of` adds to a spec.  Default: none.
        live_table: ``config -> why`` a player of this configuration cannot sit at a live table (one decision longer
            than a person waits for, e.g. an LBR's or a Simulator's of 100,000 trials), or None.  Read within
            :func:`live_table_specs` only.  Default: every configuration may.
    """

    name: str
    build: Callable[[Any, int, str | None], Player]
    config: type[PlayerConfig] = NoOptions
    options: Callable[[list[str]], dict[str, Any]] = _no_options
    spec: Callable[[Any], str | None] = field(default=lambda cfg: None)
    description: str = ""
    fitted: Callable[[Any], str | None] = field(default=lambda cfg: None)
    live_table: Callable[[Any], str | None] = field(default=lambda cfg: None)


_KINDS: dict[str, PlayerKind] = {}
_LOADED = False  # discovery started (in the thread holding _LOCK, or finished)
_READY = False  # discovery finished
_LOCK = threading.RLock()


def _load(target: str, where: str) -> PlayerKind:
    mod, _, attr = target.partition(":")
    kind = getattr(importlib.import_module(mod), attr)
    if not isinstance(kind, PlayerKind):
        raise PlayerSpecError(f"{where}: {target!r} is not a loki.players.registry.PlayerKind")
    return kind


def _discover() -> None:
    global _LOADED, _READY
    if _READY:
        return
    with _LOCK:  # threads (e.g. the ACPC clients of one match) may build their first players at once
        if _LOADED:  # done, or under way in this very thread (a kind's module looking kinds up)
            return
        _LOADED = True
        try:
            _discover_locked()
        except BaseException:
            _LOADED = False  # not found: the next lookup looks again (and says why again), not at a half-filled table
            raise
        _READY = True


def _discover_locked() -> None:
    found = {ep.name.lower(): ep for ep in entry_points(group=ENTRY_POINT_GROUP)}
    for name, target in _BUILTIN.items():
        if name not in found:
            _KINDS.setdefault(name, _load(target, "loki"))
    for name, ep in found.items():
        if name not in _KINDS:
            try:
                kind = ep.load()
            except Exception as e:  # noqa: BLE001 - a broken plug-in must not hide the others
                raise PlayerSpecError(f"player kind {name!r} (entry point {ep.value!r}) failed to load: {e}") from None
            if not isinstance(kind, PlayerKind):
                raise PlayerSpecError(f"entry point {ep.value!r} of {ENTRY_POINT_GROUP!r} is not a PlayerKind")
            _KINDS[name] = kind


def builtin_kind_modules() -> tuple[str, ...]:
    """The modules that define the built-in kinds, in their order (importing them registers nothing: a pool's
    forkserver imports them once so that its workers start with them, :mod:`loki.tournament.worker_start`)."""
    return tuple(dict.fromkeys(target.partition(":")[0] for target in _BUILTIN.values()))


def reload_kinds() -> None:
    """Forget the kinds found so far and look for entry points again at the next lookup (after installing a
    plug-in, or changing ``sys.path``, in a running process)."""
    global _LOADED, _READY
    with _LOCK:
        _KINDS.clear()
        _LOADED = _READY = False


def player_kinds() -> dict[str, PlayerKind]:
    """All known kinds by name (entry points of ``loki.players`` and :func:`register_kind` calls)."""
    _discover()
    return dict(_KINDS)


def register_kind(kind: PlayerKind) -> PlayerKind:
    """Add (or replace) a kind in this process (plug-in packages use the entry-point group instead)."""
    _discover()
    _KINDS[kind.name.lower()] = kind
    return kind


def get_kind(name: str) -> PlayerKind:
    """The kind called ``name`` (case-insensitive).

    Raises:
        PlayerSpecError: no such kind; the message lists the known ones.
    """
    _discover()
    k = _KINDS.get(name.strip().lower())
    if k is None:
        raise PlayerSpecError(
            f"unknown player type {name!r}: expected one of {sorted(_KINDS)} (e.g. 'loki1:TC', 'loki2:BR')"
        )
    return k


#: The deepest :func:`parse_player` calls may nest (a frozen player's ``player``, an LBR's ``opponent``, each a spec
#: that may name another; a table form or a player file adds a level): the built-in kinds' deepest sensible spec,
#: an LBR against a frozen player given as JSON in a player file, needs 7.
MAX_SPEC_DEPTH = 16


class _Nesting:
    """What the outermost :func:`parse_player` of a spec knows about the specs parsed within it: the player files
    being read (their real paths, outermost first) and the first reason the nesting itself was refused (a spec
    nested deeper than :data:`MAX_SPEC_DEPTH`, a player file naming itself), reported instead of the chain of
    wrapped messages that leads to it."""

    def __init__(self) -> None:
        self.depth = 0
        self.files: list[str] = []
        self.refused: str | None = None

    @contextlib.contextmanager
    def reading(self, path: str) -> Iterator[None]:
        """Within it the player file ``path`` is being read.  Its real path is looked at only where player files may
        be read at all (within :func:`built_in_specs_only`, :func:`read_player_file` refuses it unresolved).

        Raises:
            PlayerSpecError: ``path`` is being read already (a file that names itself, through its own specs).
        """
        if not _PLAYER_FILES.get():
            yield
            return
        real = os.path.realpath(path)
        if real in self.files:
            if self.refused is None:
                self.refused = f"player file {path!r} names itself (through its own player specs)"
            raise PlayerSpecError(self.refused)
        self.files.append(real)
        try:
            yield
        finally:
            self.files.pop()


_NESTING: contextvars.ContextVar[_Nesting | None] = contextvars.ContextVar("loki_spec_nesting", default=None)


def parse_player(spec: str | Mapping[str, Any] | PlayerConfig) -> PlayerConfig:
    """The typed, frozen configuration of a player spec or configuration table.

    Args:
        spec: a spec string (module docstring), the path of a player file ending in ``.toml``
            (:func:`read_player_file`), a mapping with ``kind`` and the config's fields, or an already parsed
            configuration (returned as it is).

    Raises:
        PlayerSpecError: an empty spec, an unknown kind or option, a bad value; one line naming the spec.  A spec
            that names specs nested deeper than :data:`MAX_SPEC_DEPTH`, or a player file that names itself (at any
            depth), is refused with that reason alone.

    >>> parse_player("frozen:" * 40 + "random")
    Traceback (most recent call last):
    ...
    loki.errors.PlayerSpecError: player spec 'frozen:frozen:...': specs nested more than 16 deep ...
    """
    if isinstance(spec, PlayerConfig):
        return spec
    nesting = _NESTING.get()
    outermost = nesting is None
    if nesting is None:
        nesting = _Nesting()
        token = _NESTING.set(nesting)
    try:
        if nesting.depth >= MAX_SPEC_DEPTH:
            if nesting.refused is None:
                nesting.refused = f"specs nested more than {MAX_SPEC_DEPTH} deep (a player within a player ...)"
            raise PlayerSpecError(nesting.refused)
        nesting.depth += 1
        try:
            return _parse_player(spec, nesting)
        finally:
            nesting.depth -= 1
    except PlayerSpecError:
        if outermost and nesting.refused is not None:
            text = spec if isinstance(spec, str) else repr(spec)
            raise PlayerSpecError(
                f"player spec {text[:48] + '...' if len(text) > 48 else text!r}: {nesting.refused}"
            ) from None
        raise
    finally:
        if outermost:
            _NESTING.reset(token)


def _parse_player(spec: str | Mapping[str, Any], nesting: _Nesting) -> PlayerConfig:
    """:func:`parse_player` within its nesting (``nesting``: the player files being read)."""
    if isinstance(spec, str):
        if not spec.strip():
            raise PlayerSpecError(f"player spec must be a non-empty string, got {spec!r}")
        if spec.strip().endswith(".toml"):  # a player file, e.g. the best.toml of loki tune
            path = spec.strip()
            with nesting.reading(path):
                return parse_player(read_player_file(path))
        if "{" in spec:  # the table form spec_of writes: kind{json}
            name, brace, text = spec.strip().partition("{")
            from loki.io.limits import loads_json

            # strict and bounded JSON (nesting, NaN, huge numbers): a spec comes from a command line or a web page
            table = loads_json(brace + text, f"{spec[:80]!r}: the table after the kind", PlayerSpecError)
            if not isinstance(table, dict):
                raise PlayerSpecError(f"{spec!r}: expected a JSON object after the kind")
            return parse_player({**table, "kind": name.strip()})
        name, *opts = [p.strip() for p in spec.strip().split(":")]
        kind = get_kind(name)
        try:
            data = dict(kind.options(opts))
            data["kind"] = kind.name
            cfg = kind.config.model_validate(data)
        except (ValueError, ConfigError) as e:
            raise PlayerSpecError(f"{spec!r}: {e}") from None
        return _seatable(kind, cfg, repr(spec))
    if isinstance(spec, Mapping):
        if "kind" not in spec or not isinstance(spec["kind"], str):
            raise PlayerSpecError(f"player configuration {dict(spec)!r}: needs a 'kind' (e.g. 'loki2')")
        kind = get_kind(spec["kind"])
        try:
            cfg = kind.config.model_validate({**spec, "kind": kind.name})
        except ConfigError as e:
            raise PlayerSpecError(f"player configuration of kind {kind.name!r}: {e}") from None
        return _seatable(kind, cfg, f"player configuration of kind {kind.name!r}")
    raise PlayerSpecError(f"player spec must be a string or a configuration table, got {spec!r}")


#: Largest player file read (bytes): a configuration is a few hundred bytes.
MAX_PLAYER_FILE = 64 * 1024


#: False within :func:`built_in_specs_only`: a player file is then refused unopened.
_PLAYER_FILES: contextvars.ContextVar[bool] = contextvars.ContextVar("loki_player_files", default=True)


@contextlib.contextmanager
def built_in_specs_only() -> Iterator[None]:
    """Within it, every player file a spec names (``x.toml``, at any depth: a frozen player's ``player``, an LBR's
    ``opponent``) is refused without being opened, with the same error whether the file exists or not; for specs from
    a web page, which must not learn which files the server holds.

    >>> with built_in_specs_only():
    ...     parse_player('frozen{"player": "/etc/best.toml"}')
    Traceback (most recent call last):
    ...
    loki.errors.PlayerSpecError: ... player file '/etc/best.toml': not opened: built-in player specs only here ...
    """
    token = _PLAYER_FILES.set(False)
    try:
        yield
    finally:
        _PLAYER_FILES.reset(token)


#: True within :func:`live_table_specs`: every configuration parsed must pass its kind's ``live_table``.
_LIVE_TABLE: contextvars.ContextVar[bool] = contextvars.ContextVar("loki_live_table", default=False)


@contextlib.contextmanager
def live_table_specs() -> Iterator[None]:
    """Within it, a spec whose player (or a player named inside it, at any depth) cannot sit at a live table is
    refused, with its kind's reason (:attr:`PlayerKind.live_table`): for tables where a person waits for every bot's
    decision (``loki web``), where a decision must not take minutes.

    >>> with live_table_specs():
    ...     parse_player("loki2:BRS:trials=100000")
    Traceback (most recent call last):
    ...
    loki.errors.PlayerSpecError: 'loki2:BRS:trials=100000': trials=100000: at most 5000 Simulator trials at a live table ...
    """
    token = _LIVE_TABLE.set(True)
    try:
        yield
    finally:
        _LIVE_TABLE.reset(token)


def _seatable(kind: PlayerKind, cfg: PlayerConfig, what: str) -> PlayerConfig:
    """``cfg``, unless :func:`live_table_specs` is in force and its kind says it cannot sit at a live table.

    Raises:
        PlayerSpecError: naming ``what`` (the spec as given) and the kind's reason.
    """
    if _LIVE_TABLE.get():
        why = kind.live_table(cfg)
        if why:
            raise PlayerSpecError(f"{what}: {why}")
    return cfg


def read_player_file(path: str) -> dict[str, Any]:
    """The ``[player]`` table of a player file (TOML; ``loki tune`` writes them as ``best.toml``, with a
    ``[provenance]`` table that is not read here).

    Raises:
        PlayerSpecError: a file that is missing, larger than :data:`MAX_PLAYER_FILE`, not TOML, or without a
            ``[player]`` table; any player file within :func:`built_in_specs_only`.
    """
    from loki.io.limits import open_regular, parse_toml

    if not _PLAYER_FILES.get():
        raise PlayerSpecError(
            f"player file {path!r}: not opened: built-in player specs only here (loki1, loki2:BR, ...)"
        )
    try:
        with open_regular(path) as f:  # a FIFO or a device is refused at once
            raw = f.read(MAX_PLAYER_FILE + 1)
    except OSError as e:
        raise PlayerSpecError(f"player file {path!r}: cannot read it ({e.strerror or e})") from None
    if len(raw) > MAX_PLAYER_FILE:
        raise PlayerSpecError(f"player file {path!r}: larger than {MAX_PLAYER_FILE} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise PlayerSpecError(f"player file {path!r}: not a TOML file (not UTF-8: {e})") from None
    # shape-checked first (nesting, dotted keys): tomllib's memory grows with the square of a long dotted key
    doc = parse_toml(text, f"player file {path!r}", PlayerSpecError)
    table = doc.get("player")
    if not isinstance(table, dict):
        raise PlayerSpecError(f"player file {path!r}: expected a [player] table with the configuration")
    return table


def config_table(config: PlayerConfig) -> dict[str, Any]:
    """The fields (JSON values, without ``kind``) that :func:`parse_player` needs, with ``kind``, to read ``config``
    back: those that differ from the defaults, and whole the fields that would read back otherwise.  A field set back to its
    class default over a tuned set that changes it (``{"tuned": "A5", "sim": {"card_blind_values": false}}``) is not a
    default there: left out, the set's value would come back.

    >>> config_table(parse_player("loki2:BRS:trials=100"))
    {'features': 'BRS', 'sim': {'trials': 100}}
    >>> config_table(parse_player({"kind": "loki2", "tuned": "B1", "bettor": {"make1": 0.5}}))["bettor"]["make1"]
    0.5
    """
    name = str(config.kind)
    data = config.model_dump(mode="json", exclude_defaults=True, exclude={"kind"})
    back = parse_player({**data, "kind": name})
    if back != config:  # write whole the fields that read back otherwise
        full = config.model_dump(mode="json", exclude={"kind"})
        for field in type(config).model_fields:
            if field != "kind" and getattr(back, field) != getattr(config, field):
                data[field] = full[field]
    return data


def spec_of(config: PlayerConfig) -> str:
    """A spec string for ``config`` that :func:`parse_player` reads back: the kind's shorthand when it says the
    same, else ``kind`` followed by the JSON of :func:`config_table` (``loki2{"bettor":{"make1":0.45}}``)."""
    name = str(config.kind)
    short = get_kind(name).spec(config)
    if short is not None:
        return short
    return name + json.dumps(config_table(config), sort_keys=True, separators=(",", ":"))


def title_of(spec: str | Mapping[str, Any] | PlayerConfig) -> str:
    """The spec (:func:`spec_of`) with the fitted set it plays, for listings and explanations:
    ``"loki2:BRS:tuned=BRS3 (fitted: BRS3)"``, ``"loki2:BRS:adaptive (fitted: A8)"``; the spec alone otherwise.

    Raises:
        PlayerSpecError: as :func:`parse_player`.
    """
    cfg = parse_player(spec)
    text = spec if isinstance(spec, str) else spec_of(cfg)
    fitted = get_kind(str(cfg.kind)).fitted(cfg)
    if not fitted:
        return text
    from loki.players.tuned import set_label

    return f"{text} ({set_label(fitted)})"


def make_player(
    spec: str | Mapping[str, Any] | PlayerConfig, seed: int = 0, name: str | None = None, *, oracles: bool = False
) -> Player:
    """Build a player from a spec such as ``"loki1:LA"`` or ``"loki2:BR"``, or from a configuration table.

    Args:
        spec: as :func:`parse_player`.
        seed: seeds every random choice of the player.
        name: display name (default: from the configuration).
        oracles: allow an oracle (a configuration whose ``cheats`` is true: it is shown every seat's hole cards, a cheat
            of the experiments on what limits B and S); only the tournament runner, its warm-up and ``loki tune`` allow them.

    Raises:
        PlayerSpecError: as :func:`parse_player`; an oracle without ``oracles``; ConfigError when building fails
            (e.g. a custom modeler that cannot be imported).
    """
    cfg = parse_player(spec)
    if getattr(cfg, "cheats", False) and not oracles:
        raise PlayerSpecError(
            f"{spec_of(cfg)} is an oracle (it sees every seat's hole cards: a cheat for experiments); only loki "
            "tournament and loki tune play it"
        )
    return get_kind(str(cfg.kind)).build(cfg, seed, name)
