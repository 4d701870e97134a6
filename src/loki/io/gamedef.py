"""ACPC game definitions (the ``GAMEDEF`` format of the ACPC dealer) mapped onto :class:`GameConfig`.

Only the limit hold'em games the engine can express are accepted: 4 rounds, a 52-card deck,
2 hole cards, boards of ``0 3 1 1``, one small and one big blind in the engine's positions, bet
sizes ``s s b b`` and raise caps ``m-1 m m m``.  Anything else raises a
:class:`~loki.errors.ConfigError` (a ``ValueError``) naming the file and the field.

The text is read as the ACPC dealer reads it (``game.c``'s ``readGame``): a ``GAMEDEF`` header line is optional (any
line whose first word is ``GAMEDEF``, such as ``GAMEDEF v1``), the betting is limit unless a ``nolimit`` line says
otherwise, the ``=`` of a field is optional, ``firstPlayer`` defaults to ``1`` in every round, and ``numSuits``,
``numRanks``, ``numHoleCards`` and ``numBoardCards`` must be given.  Where loki is stricter, it says so by name:

- a definition that opens with a ``GAMEDEF`` header must close with ``END GAMEDEF`` (a cut file is an error, where
  the dealer reads to the end of the file);
- ``maxRaises`` must be given (the dealer's default, no cap but its 64 actions a round, is not a limit game the
  engine plays) and at most :func:`max_raises_cap` (above it the dealer forces calls once a round has 64 actions,
  where the engine would allow a raise);
- an unknown field is an error (the dealer skips the line), and so is a ``stack``.

Seats: engine seat ``i`` is ACPC position ``i`` (position 0 is the first seat after the button);
:attr:`AcpcGame.button` is the engine button seat that puts the blinds and the first players
where the game definition puts them (``2`` players reverse blinds: ``1``; ``n >= 3``: ``n - 1``).

>>> g = parse_gamedef(GAMEDEF_2P)
>>> g.config.n_players, g.button, g.config.small_bet, g.config.big_bet
(2, 1, 10, 20)
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from loki.engine import GameConfig
from loki.errors import ConfigError
from loki.io.limits import MAX_GAMEDEF_BYTES, digits, read_capped

__all__ = [
    "AcpcGame",
    "parse_gamedef",
    "load_gamedef",
    "format_gamedef",
    "GAMEDEF_2P",
    "GAMEDEF_3P",
    "bundled_gamedef",
    "max_raises_cap",
    "ACPC_MAX_ROUND_ACTIONS",
]


def _limit_gamedef_text(
    n_players: int, blinds, first_player, small_bet: int = 10, big_bet: int = 20, max_bets: int = 4
) -> str:
    """ACPC ``GAMEDEF`` text of a limit hold'em game (``first_player`` 1-based, per round)."""
    return (
        "GAMEDEF\nlimit\n"
        f"numPlayers = {n_players}\nnumRounds = 4\n"
        f"blind = {' '.join(map(str, blinds))}\n"
        f"raiseSize = {small_bet} {small_bet} {big_bet} {big_bet}\n"
        f"firstPlayer = {' '.join(map(str, first_player))}\n"
        f"maxRaises = {max_bets - 1} {max_bets} {max_bets} {max_bets}\n"
        "numSuits = 4\nnumRanks = 13\nnumHoleCards = 2\nnumBoardCards = 0 3 1 1\nEND GAMEDEF\n"
    )


def _ring_gamedef_text(n_players: int) -> str:
    """The ring-game layout of the ACPC 3-player file for ``n_players`` ≥ 3: seat 1 small blind, seat 2
    big blind, seat 3 first to act pre-flop, seat 1 first afterwards."""
    return _limit_gamedef_text(n_players, (5, 10) + (0,) * (n_players - 2), (3, 1, 1, 1))


#: The ACPC heads-up reverse-blinds game (``holdem.limit.2p.reverse_blinds.game``).
GAMEDEF_2P = _limit_gamedef_text(2, (10, 5), (2, 1, 1, 1))
#: The ACPC 3-player limit game (``holdem.limit.3p.game``).
GAMEDEF_3P = _ring_gamedef_text(3)


_INT_LIST_FIELDS = {
    "numplayers": "numPlayers",
    "numrounds": "numRounds",
    "blind": "blind",
    "raisesize": "raiseSize",
    "firstplayer": "firstPlayer",
    "maxraises": "maxRaises",
    "numsuits": "numSuits",
    "numranks": "numRanks",
    "numholecards": "numHoleCards",
    "numboardcards": "numBoardCards",
    "stack": "stack",
}


@dataclass(frozen=True)
class AcpcGame:
    """A parsed ACPC limit game.

    Attributes:
        config: the engine rules (``odd_chip="split"``, as the ACPC dealer divides pots exactly).
        button: engine button seat (engine seat ``i`` = ACPC position ``i``).
        blinds: chips posted per position (``blind`` field).
        first_player: first position to act per round, 0-based.
        source: file name (or ``"<string>"``) for messages.
    """

    config: GameConfig
    button: int
    blinds: tuple[int, ...]
    first_player: tuple[int, ...]
    source: str = "<string>"

    @property
    def n_players(self) -> int:
        return self.config.n_players

    def text(self) -> str:
        """The game definition in ACPC format."""
        return format_gamedef(self)


def _err(source: str, field: str, msg: str) -> ConfigError:
    return ConfigError(f"{source}: game definition field {field!r}: {msg}")


#: Any number in a game definition at most (chips of a blind or a bet, positions, counts).
MAX_GAMEDEF_VALUE = 1_000_000_000
#: Actions a betting round holds in the ACPC dealer (``MAX_NUM_ACTIONS`` of its ``game.h``): a raise is refused (taken
#: as a call) once the round's actions plus the number of players would pass it.
ACPC_MAX_ROUND_ACTIONS = 64


def max_raises_cap(n_players: int) -> int:
    """The largest ``maxRaises`` whose every raise the ACPC dealer allows at ``n_players`` (2..10).

    Before a round's ``m``-th raise at most ``m·(n − 1)`` actions were taken (``n − 1`` before the first, at most
    ``n − 1`` between two raises), and the dealer allows a raise while the round's actions plus ``n`` are at most
    :data:`ACPC_MAX_ROUND_ACTIONS`; so ``m·(n − 1) + n ≤ 64``.  Source: the ACPC dealer's ``raiseIsValid``.

    >>> max_raises_cap(2), max_raises_cap(3), max_raises_cap(10)
    (62, 30, 6)
    """
    return (ACPC_MAX_ROUND_ACTIONS - n_players) // (n_players - 1)


def _read_fields(text: str, source: str) -> tuple[dict[str, list[int]], str | None, bool]:
    """The ``name = values`` fields of a ``GAMEDEF`` text (the ``=`` optional), its betting type and whether the
    header was seen.

    Raises:
        ConfigError: a line that is not a field, a value that is not a whole number in ASCII digits (``٢`` is not),
            no ``END GAMEDEF`` after the header.
    """
    fields: dict[str, list[int]] = {}
    betting = None
    started = ended = False
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        low = line.lower()
        first = low.split()[0]
        if first == "gamedef":  # the ACPC dealer skips any line it opens ("GAMEDEF v1")
            started = True
            continue
        if " ".join(low.split()) == "end gamedef":
            ended = True
            break
        if low in ("limit", "nolimit"):
            betting = low
            continue
        if "=" in line:
            name, _, vals = line.partition("=")
        else:  # "numPlayers 2": the ACPC dealer reads a field's values with or without the '='
            name, vals = line.split()[0], line[len(line.split()[0]) :]
            if name.lower() not in _INT_LIST_FIELDS:
                raise _err(source, line[:40], "unrecognised line (expected 'name = values', 'limit' or 'nolimit')")
        key = name.strip().lower()
        if key not in _INT_LIST_FIELDS:
            raise _err(source, name.strip()[:40], "unknown or unsupported field")
        words = vals.split()
        try:
            if not all(digits(v.removeprefix("-")) for v in words):  # int() also reads '٢', '1_000', '+5'
                raise ValueError
            values = [int(v) for v in words]
        except ValueError:  # not digits, or more than Python's 4300
            raise _err(source, name.strip(), f"expected integers in digits 0-9, got {vals.strip()[:40]!r}") from None
        if any(abs(v) > MAX_GAMEDEF_VALUE for v in values):
            raise _err(source, name.strip(), f"values must be at most {MAX_GAMEDEF_VALUE:,} (loki's cap)")
        fields[_INT_LIST_FIELDS[key]] = values
    if started and not ended:
        raise _err(source, "END GAMEDEF", "missing: the definition must end with an 'END GAMEDEF' line")
    return fields, betting, started


def _one(fields: dict[str, list[int]], source: str, f: str, default: int | None = None) -> int:
    v = fields.get(f)
    if v is None:
        if default is None:
            raise _err(source, f, "missing")
        return default
    if len(v) != 1:
        raise _err(source, f, f"expected one value, got {v[:12]}")
    return v[0]


def _check_deck(fields: dict[str, list[int]], source: str) -> int:
    """The player count, after checking the game is 4-round hold'em with the 52-card deck and no stacks."""
    n = _one(fields, source, "numPlayers")
    if not 2 <= n <= 10:
        raise _err(source, "numPlayers", f"{n} players: the engine plays 2..10")
    for f, want, what in (
        ("numRounds", 4, "only 4-round hold'em is supported"),
        ("numSuits", 4, "only the 4-suit deck is supported"),
        ("numRanks", 13, "only the 13-rank deck is supported"),
        ("numHoleCards", 2, "only 2 hole cards are supported"),
    ):
        got = _one(fields, source, f)
        if got != want:
            raise _err(source, f, f"{got}: {what}")
    if fields["numBoardCards"] != [0, 3, 1, 1]:
        raise _err(source, "numBoardCards", f"{fields['numBoardCards'][:12]}: only '0 3 1 1' is supported")
    if "stack" in fields:
        raise _err(source, "stack", "finite stacks are not supported in ACPC games (unlimited bankrolls only)")
    return n


def _check_bets(fields: dict[str, list[int]], source: str) -> tuple[list[int], list[int]]:
    """``raiseSize`` (``s s b b``) and ``maxRaises`` (``m-1 m m m``), checked."""
    rs = fields["raiseSize"]
    if len(rs) != 4 or rs[0] != rs[1] or rs[2] != rs[3] or min(rs) <= 0:
        raise _err(source, "raiseSize", f"{rs[:12]}: expected 4 positive sizes 's s b b'")
    if rs[2] < rs[0]:
        raise _err(source, "raiseSize", f"{rs}: the big bet {rs[2]} is below the small bet {rs[0]}")
    mr = fields["maxRaises"]
    if len(mr) != 4 or not (mr[1] == mr[2] == mr[3] and mr[0] == mr[1] - 1 and mr[0] >= 0):
        raise _err(source, "maxRaises", f"{mr[:12]}: expected 'm-1 m m m' (the big blind counts as the first bet)")
    n = fields["numPlayers"][0]
    if mr[1] > max_raises_cap(n):
        raise _err(
            source, "maxRaises", f"{mr}: at most {max_raises_cap(n)} bets per round at {n} players (above it the ACPC "
            f"dealer forces calls once a round has {ACPC_MAX_ROUND_ACTIONS} actions)"
        )  # fmt: skip
    return rs, mr


def _positions(fields: dict[str, list[int]], n: int, source: str) -> tuple[int, int, int, list[int], list[int]]:
    """``(button, small blind position, big blind position, blinds, firstPlayer)``, checked against the
    engine's seating (blinds left of the button, first to act pre-flop left of the big blind)."""
    blinds = fields["blind"]
    if len(blinds) != n:
        raise _err(source, "blind", f"{len(blinds)} values for {n} players")
    fp = fields.get("firstPlayer", [1, 1, 1, 1])  # the ACPC dealer's default
    if len(fp) != 4 or not all(1 <= x <= n for x in fp):
        raise _err(source, "firstPlayer", f"{fp[:12]}: expected 4 positions in 1..{n}")
    nz = [i for i, b in enumerate(blinds) if b > 0]
    if len(nz) != 2:
        raise _err(source, "blind", f"{blinds}: expected exactly one small and one big blind")
    bb_pos = max(nz, key=lambda i: (blinds[i], -i))
    sb_pos = nz[0] if nz[1] == bb_pos else nz[1]
    if n > 2 and blinds[sb_pos] == blinds[bb_pos] and sb_pos == (bb_pos + 1) % n:
        sb_pos, bb_pos = bb_pos, sb_pos  # equal blinds: the big one is the one left of the other
    if blinds[sb_pos] > blinds[bb_pos]:
        raise _err(source, "blind", f"{blinds}: small blind exceeds big blind")
    if n == 2:
        button = sb_pos
        expected_first = (button, 1 - button, 1 - button, 1 - button)
    else:
        button = (sb_pos - 1) % n
        expected_first = ((button + 3) % n,) + ((button + 1) % n,) * 3
    if bb_pos != (sb_pos + 1) % n:
        raise _err(source, "blind", f"{blinds}: the big blind must sit left of the small blind")
    if tuple(x - 1 for x in fp) != expected_first:
        raise _err(
            source,
            "firstPlayer",
            f"{fp}: with these blinds the engine needs {' '.join(str(x + 1) for x in expected_first)}",
        )
    return button, sb_pos, bb_pos, blinds, fp


def parse_gamedef(text: str, source: str = "<string>") -> AcpcGame:
    """Parse an ACPC ``GAMEDEF`` text.

    Raises:
        ConfigError: syntax errors, no-limit games, numbers beyond :data:`MAX_GAMEDEF_VALUE` (or ``maxRaises``
            beyond :func:`max_raises_cap`), a missing field the ACPC dealer needs (or ``maxRaises``), and anything the
            engine cannot express; the message names ``source`` and the field.
    """
    fields, betting, _started = _read_fields(text, source)
    if betting == "nolimit":
        raise _err(source, "bettingType", "no-limit games are not supported (limit only)")
    for f in ("numPlayers", "numRounds", "blind", "raiseSize", "numSuits", "numRanks", "numHoleCards", "numBoardCards"):
        if f not in fields:
            raise _err(source, f, "missing (the ACPC dealer needs it too)")
    if "maxRaises" not in fields:
        raise _err(
            source, "maxRaises", "missing: the ACPC dealer would allow raises until a round has 64 actions, not a "
            "limit game loki plays; give 'maxRaises = m-1 m m m'"
        )  # fmt: skip
    n = _check_deck(fields, source)
    rs, mr = _check_bets(fields, source)
    button, sb_pos, bb_pos, blinds, fp = _positions(fields, n, source)
    try:
        config = GameConfig(
            n_players=n,
            small_bet=rs[0],
            big_bet=rs[2],
            small_blind=blinds[sb_pos],
            big_blind=blinds[bb_pos],
            max_bets=mr[1],
            odd_chip="split",
        )
    except ValueError as e:
        raise _err(source, "blind/raiseSize", str(e)) from None
    return AcpcGame(config, button, tuple(blinds), tuple(x - 1 for x in fp), source)


def load_gamedef(path) -> AcpcGame:
    """Read and parse a game definition file (see :func:`parse_gamedef`), at most
    :data:`loki.io.limits.MAX_GAMEDEF_BYTES` (read with that cap).

    Raises:
        ConfigError: the file cannot be read, is too large, is not text, or is not a supported game (the
            message names the file).
    """
    p = Path(path)
    data = read_capped(p, MAX_GAMEDEF_BYTES, "a game definition", ConfigError)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ConfigError(f"{p}: cannot read game definition: not UTF-8 text") from None
    return parse_gamedef(text, str(p))


def bundled_gamedef(n_players: int) -> AcpcGame:
    """The limit game for ``n_players`` (2: ACPC reverse blinds; 3..10: the ring layout of the ACPC
    3-player file, which ``loki/data/holdem.limit.10p.game`` also follows).

    Raises:
        ConfigError: ``n_players`` outside 2..10.
    """
    if not 2 <= int(n_players) <= 10:
        raise ConfigError(f"n_players={n_players!r}: expected 2..10")
    if n_players == 2:
        return parse_gamedef(GAMEDEF_2P, "holdem.limit.2p.reverse_blinds.game")
    return parse_gamedef(_ring_gamedef_text(n_players), f"holdem.limit.{n_players}p.game")


def format_gamedef(game: AcpcGame) -> str:
    """ACPC text of ``game``."""
    c = game.config
    return _limit_gamedef_text(
        c.n_players, game.blinds, tuple(x + 1 for x in game.first_player), c.small_bet, c.big_bet, c.max_bets
    )
