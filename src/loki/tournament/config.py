"""Tournament configurations: TOML files (the shipped presets and users' own) parsed into dataclasses.

A configuration file::

    name = "fig3-BR"                   # used for the default results folder
    description = "8 x Loki-1 against 2 x Loki-2 B+R (AAAI-99 Figure 3)"
    deals = 2500                       # distinct deals; each is replayed once per seat rotation
    seed = 0
    block_deals = 25                   # deals per block (players are rebuilt at every block)
    histories = true                   # write PHH hand histories

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

    [[players]]
    type = "loki2:BR"
    count = 2
    label = "Loki-2 B+R"

    [[compare]]                        # enhanced-minus-control differences, paired by deal
    name = "B+R minus Loki-1"
    enhanced = ["Loki-2 B+R"]
    control = ["Loki-1"]

Every error is a :class:`TournamentConfigError` whose one-line message names the file and the problem.

>>> cfg = load_preset("fig3-BR", check_players=False)
>>> cfg.n_players, cfg.deals, [p.label for p in cfg.seats][-1]
(10, 2500, 'Loki-2 B+R')
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from dataclasses import asdict, dataclass, field
from importlib import resources
from pathlib import Path

from loki.engine import GameConfig
from loki.errors import TournamentConfigError

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
]

MAX_PLAYERS = 10


@dataclass(frozen=True)
class PlayerEntry:
    """``count`` players built from the spec ``type``, reported under ``label``."""

    type: str
    count: int = 1
    label: str = ""


@dataclass(frozen=True)
class Comparison:
    """Mean sb/hand of the ``enhanced`` player types minus that of the ``control`` types, per deal."""

    name: str
    enhanced: tuple[str, ...]
    control: tuple[str, ...]


@dataclass(frozen=True)
class Seat:
    """One player of the tournament: index, player spec, type label and display name."""

    index: int
    spec: str
    label: str
    name: str


@dataclass(frozen=True)
class TournamentConfig:
    """A validated tournament (see the module docstring for the file format)."""

    name: str
    players: tuple[PlayerEntry, ...]
    deals: int = 100
    seed: int = 0
    block_deals: int = 25
    histories: bool = True
    description: str = ""
    game: dict = field(default_factory=dict)
    compare: tuple[Comparison, ...] = ()

    @property
    def seats(self) -> tuple[Seat, ...]:
        """The players in table order (entries expanded by ``count``)."""
        out = []
        for e in self.players:
            for k in range(e.count):
                name = e.label if e.count == 1 else f"{e.label} #{k + 1}"
                out.append(Seat(len(out), e.type, e.label, name))
        return tuple(out)

    @property
    def n_players(self) -> int:
        return sum(e.count for e in self.players)

    @property
    def labels(self) -> tuple[str, ...]:
        """Player types (labels) in order of first appearance."""
        return tuple(dict.fromkeys(e.label for e in self.players))

    @property
    def n_blocks(self) -> int:
        return -(-self.deals // self.block_deals)

    @property
    def hands(self) -> int:
        """Games played: deals x replays (one replay per seat rotation)."""
        return self.deals * self.n_players

    def game_config(self) -> GameConfig:
        return GameConfig(n_players=self.n_players, **self.game)

    def with_overrides(
        self,
        *,
        deals: int | None = None,
        seed: int | None = None,
        histories: bool | None = None,
        block_deals: int | None = None,
    ) -> TournamentConfig:
        """A copy with command-line overrides applied (and validated)."""
        d = self.to_dict()
        for k, v in (("deals", deals), ("seed", seed), ("histories", histories), ("block_deals", block_deals)):
            if v is not None:
                d[k] = v
        return config_from_dict(d, source="command line")

    def to_dict(self) -> dict:
        d = asdict(self)
        d["players"] = [asdict(p) for p in self.players]
        d["compare"] = [
            {"name": c.name, "enhanced": list(c.enhanced), "control": list(c.control)} for c in self.compare
        ]
        return d

    def fingerprint(self) -> str:
        """Hash of everything that determines the results (a resumed run must match it)."""
        d = self.to_dict()
        for k in ("description", "histories"):
            d.pop(k, None)
        return hashlib.sha256(json.dumps(d, sort_keys=True).encode()).hexdigest()[:16]


_TOP_KEYS = {"name", "description", "deals", "seed", "block_deals", "histories", "game", "players", "compare"}
_PLAYER_KEYS = {"type", "count", "label"}
_COMPARE_KEYS = {"name", "enhanced", "control"}
_GAME_KEYS = {"small_bet", "big_bet", "small_blind", "big_blind", "max_bets"}


def _int(d: dict, key: str, default, lo: int, where: str) -> int:
    v = d.get(key, default)
    if isinstance(v, bool) or not isinstance(v, int):
        raise TournamentConfigError(f"{where}: '{key}' must be an integer, got {v!r}")
    if v < lo:
        raise TournamentConfigError(f"{where}: '{key}' = {v} must be >= {lo}")
    return v


def _unknown(d: dict, allowed: set, where: str) -> None:
    extra = sorted(set(d) - allowed)
    if extra:
        raise TournamentConfigError(f"{where}: unknown key {extra[0]!r} (expected one of {sorted(allowed)})")


def _check_spec(spec: str, where: str) -> None:
    from loki.players.registry import make_player

    try:
        make_player(spec, seed=0)
    except ValueError as e:
        raise TournamentConfigError(f"{where}: {str(e).splitlines()[0]}") from None


def config_from_dict(d: dict, source: str = "config", *, check_players: bool = True) -> TournamentConfig:
    """Validate a parsed TOML table.

    Raises:
        TournamentConfigError: the first problem found, naming ``source`` and the key.
    """
    if not isinstance(d, dict):
        raise TournamentConfigError(f"{source}: expected a table, got {type(d).__name__}")
    _unknown(d, _TOP_KEYS, source)
    name = d.get("name", Path(source).stem if source not in ("config", "command line") else "tournament")
    if not isinstance(name, str) or not name.strip() or "/" in name:
        raise TournamentConfigError(f"{source}: 'name' must be a non-empty string without '/', got {name!r}")
    deals = _int(d, "deals", 100, 1, source)
    seed = _int(d, "seed", 0, 0, source)
    block = _int(d, "block_deals", 25, 1, source)
    histories = d.get("histories", True)
    if not isinstance(histories, bool):
        raise TournamentConfigError(f"{source}: 'histories' must be true or false, got {histories!r}")
    desc = d.get("description", "")
    if not isinstance(desc, str):
        raise TournamentConfigError(f"{source}: 'description' must be a string")

    game = d.get("game", {})
    if not isinstance(game, dict):
        raise TournamentConfigError(f"{source}: [game] must be a table")
    _unknown(game, _GAME_KEYS, f"{source} [game]")
    game = {k: _int(game, k, None, 0, f"{source} [game]") for k in game}

    raw_players = d.get("players")
    if not isinstance(raw_players, list) or not raw_players:
        raise TournamentConfigError(f"{source}: no players: add [[players]] tables with 'type' and 'count'")
    players = []
    for i, p in enumerate(raw_players):
        where = f"{source} players[{i}]"
        if not isinstance(p, dict):
            raise TournamentConfigError(f"{where}: expected a table with 'type' and 'count'")
        _unknown(p, _PLAYER_KEYS, where)
        spec = p.get("type")
        if not isinstance(spec, str) or not spec.strip():
            raise TournamentConfigError(f"{where}: 'type' must be a player spec such as 'loki1' or 'loki2:BR'")
        count = _int(p, "count", 1, 1, where)
        label = p.get("label", spec.strip())
        if not isinstance(label, str) or not label.strip():
            raise TournamentConfigError(f"{where}: 'label' must be a non-empty string")
        players.append(PlayerEntry(spec.strip(), count, label.strip()))
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
    raw_comps = d.get("compare", [])
    if not isinstance(raw_comps, list):
        raise TournamentConfigError(f"{source}: 'compare' must be an array of tables ([[compare]])")
    for i, c in enumerate(raw_comps):
        where = f"{source} compare[{i}]"
        if not isinstance(c, dict):
            raise TournamentConfigError(f"{where}: expected a table with 'enhanced' and 'control'")
        _unknown(c, _COMPARE_KEYS, where)
        sides = {}
        for side in ("enhanced", "control"):
            v = c.get(side)
            if isinstance(v, str):
                v = [v]
            if not isinstance(v, list) or not v or not all(isinstance(x, str) for x in v):
                raise TournamentConfigError(f"{where}: '{side}' must be a list of player labels")
            for x in v:
                if x not in labels:
                    raise TournamentConfigError(
                        f"{where}: '{side}' names {x!r}, which is not a player label ({sorted(labels)})"
                    )
            sides[side] = tuple(v)
        cname = c.get("name", f"{'+'.join(sides['enhanced'])} minus {'+'.join(sides['control'])}")
        if not isinstance(cname, str):
            raise TournamentConfigError(f"{where}: 'name' must be a string")
        comps.append(Comparison(cname, sides["enhanced"], sides["control"]))

    cfg = TournamentConfig(
        name=name.strip(),
        players=tuple(players),
        deals=deals,
        seed=seed,
        block_deals=block,
        histories=histories,
        description=desc,
        game=game,
        compare=tuple(comps),
    )
    try:
        cfg.game_config()
    except ValueError as e:
        raise TournamentConfigError(f"{source} [game]: {e}") from None
    if check_players:
        for spec in dict.fromkeys(p.type for p in players):
            _check_spec(spec, source)
    return cfg


def load_config(path: str | Path, *, check_players: bool = True) -> TournamentConfig:
    """Read and validate a TOML tournament file.

    Raises:
        TournamentConfigError: missing file, malformed TOML, or an invalid configuration.
    """
    p = Path(path)
    try:
        text = p.read_bytes().decode("utf-8")
    except OSError as e:
        raise TournamentConfigError(f"cannot read config {str(p)!r}: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise TournamentConfigError(f"config {str(p)!r} is not UTF-8 text") from None
    try:
        d = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise TournamentConfigError(f"malformed TOML in {str(p)!r}: {e}") from None
    d.setdefault("name", p.stem)
    return config_from_dict(d, str(p), check_players=check_players)


def _preset_dir():
    return resources.files("loki") / "presets"


def list_presets() -> list[str]:
    """Names of the shipped presets (``quick``, ``fig3-B``, ..., ``fig4``)."""
    return sorted(f.name[:-5] for f in _preset_dir().iterdir() if f.name.endswith(".toml"))


def load_preset(name: str, *, check_players: bool = True) -> TournamentConfig:
    """A shipped preset by name.

    Raises:
        TournamentConfigError: unknown preset (the message lists the known ones) or invalid file.
    """
    f = _preset_dir() / f"{name}.toml"
    if not f.is_file():
        raise TournamentConfigError(f"unknown preset {name!r}: expected one of {list_presets()}")
    try:
        d = tomllib.loads(f.read_text("utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise TournamentConfigError(f"malformed TOML in preset {name!r}: {e}") from None
    d.setdefault("name", name)
    return config_from_dict(d, f"preset {name!r}", check_players=check_players)
