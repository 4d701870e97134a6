"""Tournament configurations: TOML files (the shipped presets and users' own) validated into frozen
pydantic models.

A configuration file::

    name = "fig3-BR"                   # used for the default results folder
    description = "8 x Loki-1 against 2 x Loki-2 B+R (AAAI-99 Figure 3)"
    deals = 2500                       # distinct deals; each is replayed once per seat rotation
    seed = 0
    block_deals = 25                   # deals per block (players are rebuilt at every block)
    histories = true                   # write PHH hand histories
    estimator = "plain"                # or "aivat" / "aivat-pot-equity": also the AIVAT estimate (loki.aivat)

    [game]                             # optional: GameConfig fields (chips)
    small_bet = 10
    big_bet = 20
    small_blind = 5
    big_blind = 10
    max_bets = 4

    [[players]]
    type = "loki1"                     # a player spec (loki.players.registry.make_player)
    count = 8
    label = "Loki-1"                   # the player type in the statistics (default: the spec)

    [[players]]                        # or the player as a configuration table instead of 'type'
    config = { kind = "loki2", features = "BR" }
    count = 2
    label = "Loki-2 B+R"

    [[compare]]                        # enhanced-minus-control differences, paired by deal
    name = "B+R minus Loki-1"
    enhanced = ["Loki-2 B+R"]
    control = ["Loki-1"]

A ``[[players]]`` entry gives exactly one of ``type`` (a spec string) and ``config`` (a player
configuration table such as ``{ kind = "loki2", features = "BRS", style = "LA", sim = { trials = 100 } }``,
parsed by :func:`loki.players.registry.parse_player`).  A table entry is reported under its canonical
spec (:func:`loki.players.registry.spec_of`, e.g. ``loki2:BRS:LA:trials=100``; also its default label)
and its players are built from the table itself, which :meth:`TournamentConfig.to_dict` keeps (the
spec of a table that no shorthand expresses is not a spec that parses back).

The shape of the file (keys, types, bounds) is checked by pydantic; the rules across keys (2 to 10
players, labels, comparisons, the game, the player specs) by :func:`config_from_dict`.  Every error
is a :class:`~loki.errors.TournamentConfigError` whose one-line message names the file (or preset),
the key and the problem.

**Limits.**  The counts have caps, so that no file can make a run take unbounded memory or time (a file
saying ``deals = 9223372036854775807`` is refused, naming the key and the cap): ``deals`` at most
:data:`MAX_DEALS`, ``block_deals`` at most :data:`MAX_BLOCK_DEALS`, ``seed`` at most :data:`MAX_SEED`,
the players (the sum of the ``count``) at most :data:`MAX_PLAYERS`, the ``[game]`` chip amounts at most :data:`MAX_CHIPS` and
``max_bets`` at most :data:`MAX_BETS`.  The file itself is read with the limits of :mod:`loki.io.limits`
(at most 1 MiB, arrays and tables nested at most 32 deep).

>>> cfg = load_preset("fig3-BR", check_players=False)
>>> cfg.n_players, cfg.deals, [p.label for p in cfg.seats][-1]
(10, 2500, 'Loki-2 B+R')
>>> config_from_dict({"players": [{"type": "random", "count": 0}]}, "my.toml")
Traceback (most recent call last):
...
loki.errors.TournamentConfigError: my.toml players[0]: 'count' = 0 must be >= 1
>>> config_from_dict({"deals": 9223372036854775807, "players": [{"type": "random", "count": 2}]}, "my.toml")
Traceback (most recent call last):
...
loki.errors.TournamentConfigError: my.toml: 'deals' = 9223372036854775807 must be <= 1000000 (loki's cap)
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, ValidationError

from loki.errors import TournamentConfigError
from loki.io.limits import MAX_CONFIG_BYTES, check_nesting, parse_toml, read_capped
from loki.io.names import MAX_NAME_CHARS, check_name, name_problem, shown

if TYPE_CHECKING:
    from loki.engine import GameConfig

__all__ = [
    "TournamentConfigError",
    "PlayerEntry",
    "Comparison",
    "Seat",
    "TournamentConfig",
    "list_presets",
    "load_preset",
    "load_config",
    "config_from_dict",
    "MAX_PLAYERS",
    "MAX_DEALS",
    "MAX_BLOCK_DEALS",
    "MAX_SEED",
    "MAX_CHIPS",
    "MAX_BETS",
    "ESTIMATORS",
]

#: Players at a table (the sum of the ``count`` of the entries).
MAX_PLAYERS = 10
#: ``deals`` at most: a million deals are 10 million hands at 10 players (days of play; the paper played 2,500),
#: and the per-deal results of a run stay under about 1 GiB.
MAX_DEALS = 1_000_000
#: ``block_deals`` at most: a block's records and hand histories are held in memory until it is journaled
#: (about 100 MiB of PHH text for 10,000 deals at 10 players).
MAX_BLOCK_DEALS = 10_000
#: ``seed`` at most: a 64-bit word (any larger seed would only be hashed the same way).
MAX_SEED = 2**64 - 1
#: ``[game]`` chip amounts (bets, blinds) at most.
MAX_CHIPS = 1_000_000_000
#: ``[game]`` ``max_bets`` at most (bets per betting round; the paper's game has 4).
MAX_BETS = 100

_FROZEN = ConfigDict(frozen=True, extra="forbid")

NonNegInt = Annotated[StrictInt, Field(ge=0)]
Deals = Annotated[StrictInt, Field(ge=1, le=MAX_DEALS)]
BlockDeals = Annotated[StrictInt, Field(ge=1, le=MAX_BLOCK_DEALS)]
Seed = Annotated[StrictInt, Field(ge=0, le=MAX_SEED)]
Chips = Annotated[StrictInt, Field(ge=0, le=MAX_CHIPS)]
Bets = Annotated[StrictInt, Field(ge=0, le=MAX_BETS)]
#: How results are estimated: ``plain`` (mean of the payoffs per deal) or ``aivat`` (the plain estimate and,
#: next to it, the AIVAT estimate of :mod:`loki.aivat` with its shipped fitted value function; the play is the same),
#: ``aivat-pot-equity`` (AIVAT with plain pot-equity, the first AIVAT's), ``aivat-sim-evs`` (the shipped value function and
#: the Simulator's EVs as its decisions' action baselines; :func:`loki.aivat.named_estimator`).
Estimator = Literal["plain", "aivat", "aivat-pot-equity", "aivat-sim-evs"]
ESTIMATORS: tuple[str, ...] = ("plain", "aivat", "aivat-pot-equity", "aivat-sim-evs")
PosInt = Annotated[StrictInt, Field(ge=1)]


# ------------------------------------------------------------------ the validated configuration


class PlayerEntry(BaseModel):
    """``count`` players built from the spec ``type`` (or from the configuration table ``config`` when
    given, ``type`` then being its canonical spec), reported under ``label``."""

    model_config = _FROZEN

    type: StrictStr
    count: PosInt = 1
    label: StrictStr = ""
    config: dict[StrictStr, Any] | None = None

    @property
    def player(self) -> str | dict[str, Any]:
        """What :func:`loki.players.registry.make_player` builds the players from: the table, else the spec."""
        return self.type if self.config is None else self.config


class Comparison(BaseModel):
    """Mean sb/hand of the ``enhanced`` player types minus that of the ``control`` types, per deal."""

    model_config = _FROZEN

    name: StrictStr
    enhanced: tuple[StrictStr, ...]
    control: tuple[StrictStr, ...]


class Seat(BaseModel):
    """One player of the tournament: index (0-based, table order), player spec, type label, display
    name, and the configuration table it is built from when its entry gave one (else None)."""

    model_config = _FROZEN

    index: NonNegInt
    spec: StrictStr
    label: StrictStr
    name: StrictStr
    config: dict[StrictStr, Any] | None = None

    @property
    def player(self) -> str | dict[str, Any]:
        """What :func:`loki.players.registry.make_player` builds this player from."""
        return self.spec if self.config is None else self.config


class TournamentConfig(BaseModel):
    """A validated tournament (see the module docstring for the file format).

    The field order is the order of :meth:`to_dict` (and of ``config`` in ``summary.json``).
    """

    model_config = _FROZEN

    name: StrictStr
    players: tuple[PlayerEntry, ...]
    deals: Deals = 100
    seed: Seed = 0
    block_deals: BlockDeals = 25
    histories: StrictBool = True
    description: StrictStr = ""
    game: dict[StrictStr, Chips] = Field(default_factory=dict)
    compare: tuple[Comparison, ...] = ()
    estimator: Estimator = "plain"

    @property
    def seats(self) -> tuple[Seat, ...]:
        """The players in table order (entries expanded by ``count``)."""
        out: list[Seat] = []
        for e in self.players:
            for k in range(e.count):
                name = e.label if e.count == 1 else f"{e.label} #{k + 1}"
                out.append(Seat(index=len(out), spec=e.type, label=e.label, name=name, config=e.config))
        return tuple(out)

    @property
    def n_players(self) -> int:
        """Players at the table (the sum of the entries' ``count``)."""
        return sum(e.count for e in self.players)

    @property
    def labels(self) -> tuple[str, ...]:
        """Player types (labels) in order of first appearance."""
        return tuple(dict.fromkeys(e.label for e in self.players))

    @property
    def n_blocks(self) -> int:
        """Blocks of ``block_deals`` deals (the last one may be shorter)."""
        return -(-self.deals // self.block_deals)

    @property
    def hands(self) -> int:
        """Games played: deals x replays (one replay per seat rotation)."""
        return self.deals * self.n_players

    def game_config(self) -> GameConfig:
        """The engine's :class:`~loki.engine.GameConfig` for this table (``[game]`` over the defaults).

        Raises:
            ConfigError: ``[game]`` values the engine rejects.
        """
        from loki.engine import GameConfig

        fields: dict[str, Any] = dict(self.game)
        return GameConfig(n_players=self.n_players, **fields)

    def with_overrides(
        self,
        *,
        deals: int | None = None,
        seed: int | None = None,
        histories: bool | None = None,
        block_deals: int | None = None,
        estimator: str | None = None,
    ) -> TournamentConfig:
        """A copy with command-line overrides applied (and validated).

        Raises:
            TournamentConfigError: an override out of range (the message says "command line").
        """
        d = self.to_dict()
        for k, v in (
            ("deals", deals),
            ("seed", seed),
            ("histories", histories),
            ("block_deals", block_deals),
            ("estimator", estimator),
        ):
            if v is not None:
                d[k] = v
        return config_from_dict(d, source="command line")

    def to_dict(self) -> dict[str, Any]:
        """JSON-able dict (lists, not tuples) in field order; :func:`config_from_dict` reads it back.

        A player entry is ``{type, count, label}``, or ``{count, label, config}`` when it was given
        as a configuration table.  ``estimator`` is left out when it is ``"plain"`` (so the dict, the
        fingerprint and ``summary.json`` of a plain run are what they were before the option existed).
        """
        d = self.model_dump(mode="json")
        if d.get("estimator") == "plain":
            del d["estimator"]
        for p in d["players"]:
            if p["config"] is None:
                del p["config"]
            else:
                del p["type"]
        return d

    def fingerprint(self) -> str:
        """Hash of everything that determines the results (a resumed run must match it)."""
        d = self.to_dict()
        for k in ("description", "histories"):
            d.pop(k, None)
        return hashlib.sha256(json.dumps(d, sort_keys=True).encode()).hexdigest()[:16]


# ------------------------------------------------------------------ the file as written


class _PlayerTable(BaseModel):
    model_config = _FROZEN

    type: StrictStr | None = None
    config: dict[StrictStr, Any] | None = None
    count: PosInt = 1
    label: StrictStr | None = None


class _CompareTable(BaseModel):
    model_config = _FROZEN

    name: StrictStr | None = None
    enhanced: StrictStr | list[StrictStr]
    control: StrictStr | list[StrictStr]


class _GameTable(BaseModel):
    model_config = _FROZEN

    small_bet: Chips | None = None
    big_bet: Chips | None = None
    small_blind: Chips | None = None
    big_blind: Chips | None = None
    max_bets: Bets | None = None


class _File(BaseModel):
    model_config = _FROZEN

    name: StrictStr | None = None
    description: StrictStr = ""
    deals: Deals = 100
    seed: Seed = 0
    block_deals: BlockDeals = 25
    histories: StrictBool = True
    estimator: Estimator = "plain"
    game: _GameTable = _GameTable()
    players: list[_PlayerTable] = Field(min_length=1)
    compare: list[_CompareTable] = []


_SECTIONS: dict[str, type[BaseModel]] = {
    "": _File,
    "players": _PlayerTable,
    "compare": _CompareTable,
    "game": _GameTable,
}
_TABLE_HINT = {
    "players": "a table with 'type' (or 'config') and 'count'",
    "compare": "a table with 'enhanced' and 'control'",
}


def _describe(err: Mapping[str, Any], source: str) -> str:
    """One line for the first pydantic error: ``<source> <section>: '<key>' <problem>``."""
    loc = tuple(err["loc"])
    # the section (players[i], compare[i], [game]) and the key inside it
    section, where, rest = "", source, loc
    if loc and loc[0] in ("players", "compare") and len(loc) >= 2 and isinstance(loc[1], int):
        section, where, rest = str(loc[0]), f"{source} {loc[0]}[{loc[1]}]", loc[2:]
    elif loc and loc[0] == "game" and len(loc) >= 2:
        section, where, rest = "game", f"{source} [game]", loc[1:]
    # union members (str | list) add their type name to the location: drop it
    rest = tuple(x for x in rest if x not in ("str", "list[str]"))
    key = str(rest[0]) if rest else ""
    kind, value = err["type"], err.get("input")
    if loc == ("players",):
        return f"{source}: no players: add [[players]] tables with 'type' and 'count'"
    if not rest:  # an entry of [[players]] or [[compare]] that is not a table
        return f"{where}: expected {_TABLE_HINT.get(section, 'a table')}, got {type(value).__name__}"
    if section == "" and key == "compare" and kind == "list_type":
        return f"{source}: 'compare' must be an array of tables ([[compare]]), got {type(value).__name__}"
    if kind == "extra_forbidden":
        allowed = sorted(_SECTIONS[section].model_fields)
        return f"{where}: unknown key {key!r} (expected one of {allowed})"
    if kind == "missing":
        return f"{where}: missing key {key!r}"
    if kind == "int_type":
        return f"{where}: '{key}' must be an integer, got {value!r}"
    if kind in ("greater_than_equal", "greater_than"):
        bound = err.get("ctx", {}).get("ge", err.get("ctx", {}).get("gt"))
        return f"{where}: '{key}' = {value!r} must be >= {bound}"
    if kind in ("less_than_equal", "less_than"):
        bound = err.get("ctx", {}).get("le", err.get("ctx", {}).get("lt"))
        return f"{where}: '{key}' = {value!r} must be <= {bound} (loki's cap)"
    if kind == "bool_type":
        return f"{where}: '{key}' must be true or false, got {value!r}"
    if kind == "string_type":
        if section == "compare" and key in ("enhanced", "control"):
            return f"{where}: '{key}' must be a list of player labels, got {value!r}"
        return f"{where}: '{key}' must be a string, got {value!r}"
    if kind in ("list_type", "too_short") and section == "compare":
        return f"{where}: '{key}' must be a list of player labels, got {value!r}"
    if kind in ("dict_type", "model_type", "model_attributes_type"):
        return f"{where}: '{key}' must be a table, got {type(value).__name__}"
    return f"{where}: '{key}': {err['msg'][:1].lower()}{err['msg'][1:]} (got {value!r})"


def _check_player(player: str | dict[str, Any], where: str, n_players: int) -> None:
    """Build ``player`` once (a spec or a table) and check that it plays at a table of ``n_players``.

    Raises:
        TournamentConfigError: the registry refuses it (first line of its message, after ``where``), or the
            player's :attr:`~loki.players.base.Player.table_sizes` leave out ``n_players``.
    """
    from loki.players.base import table_sizes
    from loki.players.registry import make_player

    try:
        built = make_player(player, seed=0, oracles=True)
    except ValueError as e:
        raise TournamentConfigError(f"{where}: {str(e).splitlines()[0]}") from None
    lo, hi = table_sizes(built)
    if not lo <= n_players <= hi:
        sizes = "heads-up only" if (lo, hi) == (2, 2) else f"at tables of {lo} to {hi} players"
        raise TournamentConfigError(
            f"{where}: {shown(str(player), 80)} plays {sizes}, and this table seats {n_players}"
        )


def _entry(p: _PlayerTable, where: str) -> PlayerEntry:
    if (p.type is None) == (p.config is None):
        if p.type is None:
            raise TournamentConfigError(
                f"{where}: give 'type' (a player spec such as 'loki1' or 'loki2:BR') or 'config' (a player table)"
            )
        raise TournamentConfigError(f"{where}: give either 'type' or 'config', not both")
    table = None
    if p.config is not None:
        from loki.players.registry import parse_player, spec_of

        table = dict(p.config)
        try:
            spec = spec_of(parse_player(table))
        except ValueError as e:  # PlayerSpecError, ConfigError
            raise TournamentConfigError(f"{where}: 'config': {' '.join(str(e).split())}") from None
    else:
        spec = (p.type or "").strip()
        if not spec:
            raise TournamentConfigError(f"{where}: 'type' must be a player spec such as 'loki1' or 'loki2:BR'")
    label = spec if p.label is None else p.label.strip()
    if not label:
        raise TournamentConfigError(f"{where}: 'label' must be a non-empty string")
    # a label reaches the terminal, deals.csv and summary.json: printable and bounded (the default, the spec, too)
    check_name(label, f"{where}: 'label'" if p.label is not None else f"{where}: the label (its 'type', which a 'label' "
               "would replace)", TournamentConfigError)  # fmt: skip
    return PlayerEntry(type=spec, count=p.count, label=label, config=table)


#: A tournament's name, and a comparison's, at most (characters): two labels and " minus " (a league's pair).
MAX_TOURNAMENT_NAME = 2 * MAX_NAME_CHARS + 8


def config_from_dict(d: Any, source: str = "config", *, check_players: bool = True) -> TournamentConfig:
    """Validate a parsed TOML table (or :meth:`TournamentConfig.to_dict`).

    Args:
        d: the table.
        source: how messages name it (a file name, ``preset 'quick'``, ``command line``); the
            default ``name`` is the file's stem.
        check_players: build every player once to check its spec (off in worker processes).

    Raises:
        TournamentConfigError: the first problem found, naming ``source`` and the key (a count over its
            cap, tables nested deeper than :data:`loki.io.limits.MAX_NESTING`, ...).
    """
    if not isinstance(d, Mapping):
        raise TournamentConfigError(f"{source}: expected a table, got {type(d).__name__}")
    check_nesting(d, source, TournamentConfigError)
    try:
        f = _File.model_validate(dict(d))
    except ValidationError as e:
        raise TournamentConfigError(_describe(e.errors(include_url=False)[0], source)) from None
    if f.name is None:
        name = Path(source).stem if source not in ("config", "command line") else "tournament"
    else:
        name = f.name
    if name_problem(name, limit=MAX_TOURNAMENT_NAME) or "/" in name or "\\" in name or name.strip(".") == "":
        raise TournamentConfigError(
            f"{source}: 'name' must be printable text without '/' or '\\', not only dots, of 1 to "
            f"{MAX_TOURNAMENT_NAME} characters (it names the results folder), got {shown(repr(name))}"
        )
    players = [_entry(p, f"{source} players[{i}]") for i, p in enumerate(f.players)]
    n = sum(p.count for p in players)
    if n > MAX_PLAYERS:
        raise TournamentConfigError(f"{source}: {n} players: a table seats 2 to {MAX_PLAYERS}")
    if n < 2:
        raise TournamentConfigError(f"{source}: {n} player: a table needs 2 to {MAX_PLAYERS}")
    labels = {p.label for p in players}
    for lab in labels:
        specs = {p.type.lower() for p in players if p.label == lab}
        if len(specs) > 1:
            raise TournamentConfigError(f"{source}: label {lab!r} is used for different player types {sorted(specs)}")
    comps = []
    for i, c in enumerate(f.compare):
        where = f"{source} compare[{i}]"
        sides = {}
        for side, v in (("enhanced", c.enhanced), ("control", c.control)):
            names = [v] if isinstance(v, str) else list(v)
            if not names:
                raise TournamentConfigError(f"{where}: '{side}' must be a list of player labels, got []")
            for x in names:
                if x not in labels:
                    raise TournamentConfigError(
                        f"{where}: '{side}' names {x!r}, which is not a player label ({sorted(labels)})"
                    )
            sides[side] = tuple(names)
        if c.name is not None:
            check_name(c.name, f"{where}: 'name'", TournamentConfigError, limit=MAX_TOURNAMENT_NAME)
        cname = c.name if c.name is not None else f"{'+'.join(sides['enhanced'])} minus {'+'.join(sides['control'])}"
        comps.append(Comparison(name=cname, enhanced=sides["enhanced"], control=sides["control"]))
    game = {k: v for k, v in dict(d).get("game", {}).items()}  # the keys as written, in their order
    cfg = TournamentConfig(
        name=name.strip(),
        players=tuple(players),
        deals=f.deals,
        seed=f.seed,
        block_deals=f.block_deals,
        histories=f.histories,
        description=f.description,
        game=game,
        compare=tuple(comps),
        estimator=f.estimator,
    )
    _check_seat_names(cfg, source)
    try:
        n_players = cfg.game_config().n_players
    except ValueError as e:
        raise TournamentConfigError(f"{source} [game]: {e}") from None
    if check_players:
        checked: list[Any] = []
        for p in players:
            if p.player not in checked:
                checked.append(p.player)
                _check_player(p.player, source, n_players)
    return cfg


def _check_seat_names(cfg: TournamentConfig, source: str) -> None:
    """Every seat of ``cfg`` has a name of its own (the name deals.csv and the hand histories give it).

    Raises:
        TournamentConfigError: two seats share a name: a label ``x`` of count 2 (seats ``x #1``, ``x #2``) beside a
            label ``x #1``, or one label of count 1 in two entries.
    """
    first: dict[str, int] = {}
    for seat in cfg.seats:
        other = first.setdefault(seat.name, seat.index)
        if other != seat.index:
            raise TournamentConfigError(
                f"{source}: seats {other + 1} and {seat.index + 1} are both named {shown(repr(seat.name))} (a label of "
                "count n names its seats '<label> #1' to '<label> #n'); expected a name of its own for every seat: "
                "change a label"
            )


def load_config(path: str | Path, *, check_players: bool = True) -> TournamentConfig:
    """Read and validate a TOML tournament file (at most :data:`loki.io.limits.MAX_CONFIG_BYTES`, read with
    that cap: ``--config /dev/zero`` is refused at once).

    Raises:
        TournamentConfigError: missing, unreadable or too large file, not UTF-8, malformed or too deeply
            nested TOML, or an invalid configuration (one line naming the file).
    """
    p = Path(path)
    data = read_capped(p, MAX_CONFIG_BYTES, "a tournament config file", TournamentConfigError)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise TournamentConfigError(f"config {str(p)!r} is not UTF-8 text") from None
    d = parse_toml(text, str(p), TournamentConfigError)
    d.setdefault("name", p.stem)
    return config_from_dict(d, str(p), check_players=check_players)


def _preset_dir() -> Any:
    return resources.files("loki") / "presets"


def list_presets() -> list[str]:
    """Names of the shipped presets (``quick``, ``fig3-B``, ..., ``fig4``)."""
    return sorted(f.name[:-5] for f in _preset_dir().iterdir() if f.name.endswith(".toml"))


def load_preset(name: str, *, check_players: bool = True) -> TournamentConfig:
    """A shipped preset by name: one of :func:`list_presets` (a path, ``../x``, is no preset's name), read with the
    cap of a tournament file (:data:`loki.io.limits.MAX_CONFIG_BYTES`).

    Raises:
        TournamentConfigError: unknown preset (the message lists the known ones) or invalid file.
    """
    known = list_presets()
    if name not in known:
        raise TournamentConfigError(f"unknown preset {name!r}: expected one of {known}")
    source = f"preset {name!r}"
    with resources.as_file(_preset_dir() / f"{name}.toml") as f:
        data = read_capped(f, MAX_CONFIG_BYTES, source, TournamentConfigError)
    d = parse_toml(data.decode("utf-8"), source, TournamentConfigError)
    d.setdefault("name", name)
    return config_from_dict(d, f"preset {name!r}", check_players=check_players)
