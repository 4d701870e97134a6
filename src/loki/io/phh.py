"""Poker Hand History (PHH) files: writing hands as pokerkit does, reading them through pokerkit.

Writing: :func:`phhs_text` and :func:`write_phh` build the text straight from the engine's records
(:func:`loki.io.phh_write.hand_text`, no pokerkit), byte for byte what pokerkit's
``HandHistory.dumps``/``dumps_all`` write (except a string pokerkit would write unreadably, escaped:
:func:`loki.io.phh_write.phh_string`); :func:`state_to_phh` (:mod:`loki.io.phh_pokerkit`) replays a
hand through pokerkit for callers that want the :class:`pokerkit.HandHistory` object (and is the
tests' oracle for the text).  Reading (:func:`read_phh`, :func:`phh_to_record`) parses with pokerkit
and walks the PHH action lines into a :class:`~loki.io.acpc_log.HandRecord`.

Seats: pokerkit's player ``k`` (``p{k+1}``) is our seat ``(button + 1 + k) mod n`` (pokerkit's
player 0 is the seat left of the button; heads-up it is the big blind).  Records read from PHH
use seat ``k`` with ``button = n - 1``.  Unlimited bankrolls are written as stacks of
:data:`PHH_STACK` chips.  Every hand also gets ``seats`` (our seat + 1 of each PHH player) and
``seat_count``; more fields (``event``, user-defined ``_deal``, ...) can be given per hand.

>>> from loki.engine import GameConfig, new_hand
>>> s = new_hand(GameConfig(n_players=3), button=2, hole_cards=["5d5c", "9hQd", "8dAs"], board="8s4h6d5sJs")
>>> s.apply_many("rfrrc" "cc" "rrc" "rrrrc")
>>> hh = state_to_phh(s, ["a", "b", "c"], 7, fields={"event": "demo", "_deal": 3})
>>> hh.dumps() == hand_text(s, ["a", "b", "c"], 7, fields={"event": "demo", "_deal": 3})
True
>>> hh.finishing_stacks, hh.actions[-2:]
([999995, 999840, 1000165], ['p3 sm 8dAs', 'p2 sm 9hQd'])
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Iterator
from decimal import Decimal
from pathlib import Path

from loki.engine import GameConfig
from loki.errors import HandHistoryError
from loki.io.acpc_log import HandRecord
from loki.io.limits import (
    MAX_LOG_BYTES,
    MAX_LOG_HANDS,
    MAX_NOTES,
    MAX_PHH_HAND_BYTES,
    digits,
    iter_lines,
    open_input,
    parse_toml,
    size_text,
)
from loki.io.phh_pokerkit import PHH_STACK, state_to_phh
from loki.io.phh_write import hand_text, history_text

__all__ = [
    "record_to_phh",
    "state_to_phh",
    "hand_text",
    "phhs_text",
    "write_phh",
    "read_phh",
    "phh_to_record",
    "PHH_STACK",
    "MAX_PHH_CHIPS",
]


def record_to_phh(rec: HandRecord):
    """A :class:`HandRecord` as a :class:`pokerkit.HandHistory` (the hand is replayed on the engine)."""
    return state_to_phh(rec.replay(), rec.names or None, rec.hand_id)


def _hand_text(h) -> str:
    """One hand of :func:`phhs_text` as its PHH text."""
    if isinstance(h, str):
        return h
    if isinstance(h, HandRecord):
        return hand_text(h.replay(), h.names or None, h.hand_id)
    if isinstance(h, tuple | list):
        return hand_text(*h)
    return history_text(h)  # a pokerkit HandHistory


def phhs_text(hands: Iterable, start: int = 1) -> str:
    """Hands as the text of a ``.phhs`` file, as pokerkit's ``HandHistory.dumps_all`` writes
    them (strings it would write unreadably escaped; tables ``[1]``, ``[2]``, ... separated by a
    blank line, a final newline; the ``hand`` field, when given, carries the hand's own number).

    Args:
        hands: each a ``(HandState, names, hand_id[, fields])`` tuple (written by
            :func:`~loki.io.phh_write.hand_text`, no pokerkit), a :class:`HandRecord` (replayed on the
            engine, then written the same way), the text :func:`~loki.io.phh_write.hand_text` returned,
            or a :class:`pokerkit.HandHistory` (its ``dumps()``).
        start: the first table's number (the text of hands ``start``, ... to append to a file that holds
            ``start - 1`` of them after a ``"\\n"``).

    Raises:
        ConfigError: a game with ``max_bets`` other than 4.
        HandHistoryError: a record that does not replay.

    >>> from loki.engine import GameConfig, new_hand
    >>> s = new_hand(GameConfig(n_players=2), button=1, hole_cards=["AsKd", "7h2c"], board="2d3d4d5d6d")
    >>> s.apply_many("f")
    >>> print(phhs_text([(s, ["ann", "bob"], 1), (s, ["bob", "ann"], 2)]).split("\\n\\n")[1])
    [2]
    variant = 'FT'
    ante_trimming_status = false
    antes = [0, 0]
    blinds_or_straddles = [5, 10]
    small_bet = 10
    big_bet = 20
    starting_stacks = [1000000, 1000000]
    actions = ['d dh p1 AsKd', 'd dh p2 7h2c', 'p2 f']
    hand = 2
    seats = [1, 2]
    seat_count = 2
    players = ['bob', 'ann']
    finishing_stacks = [1000005, 999995]
    <BLANKLINE>
    """
    return "\n\n".join(f"[{i}]\n{_hand_text(h)}" for i, h in enumerate(hands, start)) + "\n"


def write_phh(path, hands: Iterable) -> int:
    """Write hands (as for :func:`phhs_text`) to a ``.phhs`` file (``.phh`` for a single hand: its
    text without the ``[1]`` header); returns how many were written.

    Raises:
        OSError: the file cannot be written (:class:`~loki.errors.OutputPathError`: something else than a regular
            file is there); and as :func:`phhs_text`.
    """
    from loki.io.files import atomic_write_text

    texts = [_hand_text(h) for h in hands]
    p = Path(path)
    # atomically, and only over a regular file (never through a link, into a device or a FIFO)
    atomic_write_text(p, texts[0] + "\n" if p.suffix == ".phh" and len(texts) == 1 else phhs_text(texts))
    return len(texts)


_CARDS_RE = None

#: Chip amounts read from a PHH file at most, in magnitude (stacks, blinds, bets).
MAX_PHH_CHIPS = 10**15

_HEADER_RE = re.compile(r"^\s*\[\s*([^\[\]]*?)\s*\]\s*(?:#.*)?$")


def _cards_ok(text: str, count: int | None = None) -> bool:
    """``text`` is ``count`` cards (``As``, ``Td``, or ``??`` for unknown), none repeated."""
    global _CARDS_RE

    if _CARDS_RE is None:
        _CARDS_RE = re.compile(r"^(?:[2-9TJQKA][shdc]|\?\?)+$")
    if not _CARDS_RE.match(text) or (count is not None and len(text) != 2 * count):
        return False
    known = [text[i : i + 2] for i in range(0, len(text), 2) if text[i] != "?"]
    return len(set(known)) == len(known)


# ------------------------------------------------------------------------------------------ fields


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _chips(value: object, field: str, where: str) -> int:
    """A whole number of chips (an int, or a finite integral Decimal/float as pokerkit reads ``10.0``)."""
    x: int | None = None
    if isinstance(value, int) and not isinstance(value, bool):
        x = value
    elif isinstance(value, Decimal | float):
        d = Decimal(value) if isinstance(value, float) else value
        if d.is_finite() and d.adjusted() <= 15 and d == d.to_integral_value():  # no context arithmetic on 1e999999
            x = int(d)
    if x is None or abs(x) > MAX_PHH_CHIPS:
        raise HandHistoryError(
            f"{where}: '{field}' must hold whole numbers of chips, got {_short(value)} (at most 1e15 in magnitude)"
        )
    return x


def _chip_list(hh, field: str, where: str, n: int | None = None, required: bool = True) -> list[int] | None:
    value = getattr(hh, field, None)
    if value is None and not required:
        return None
    if not isinstance(value, list) or (n is not None and len(value) != n):
        size = f" of {n} numbers" if n is not None else " of numbers"
        raise HandHistoryError(f"{where}: '{field}' must be a list{size}, got {_short(value)}")
    return [_chips(x, field, where) for x in value]


def _str_list(hh, field: str, where: str, required: bool = True) -> list[str] | None:
    value = getattr(hh, field, None)
    if value is None and not required:
        return None
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise HandHistoryError(f"{where}: '{field}' must be a list of strings, got {_short(value)}")
    return value


def _phh_game(hh, where: str) -> GameConfig:
    """The engine's rules of a PHH hand (its field types checked: lists of whole numbers, strings)."""
    if not isinstance(hh.variant, str) or hh.variant != "FT":
        raise HandHistoryError(
            f"{where}: PHH variant {_short(hh.variant)}: only fixed-limit Texas hold'em ('FT') is supported"
        )
    stacks = _chip_list(hh, "starting_stacks", where)
    assert stacks is not None
    n = len(stacks)
    raw = _chip_list(hh, "blinds_or_straddles", where, required=False) or []
    if any(raw[2:]):
        raise HandHistoryError(
            f"{where}: blinds_or_straddles = {_short(raw)}: a straddle (a third forced bet); loki's game has a small "
            "and a big blind only"
        )
    antes = getattr(hh, "antes", None)  # a list, or one number for every seat
    each = antes if isinstance(antes, list) else [] if antes is None else [antes]
    if any(_chips(x, "antes", where) for x in each):
        raise HandHistoryError(f"{where}: antes = {_short(antes)}: loki's game has no antes (blinds only)")
    blinds = raw + [0, 0]
    for field in ("small_bet", "big_bet"):
        if getattr(hh, field, None) is None:
            raise HandHistoryError(
                f"{where}: bad or missing game fields (starting_stacks, blinds_or_straddles, small_bet, big_bet): "
                f"'{field}' is missing"
            )
    small_bet = _chips(hh.small_bet, "small_bet", where)
    big_bet = _chips(hh.big_bet, "big_bet", where)
    # stacks of PHH_STACK chips are how unlimited bankrolls are written; other stacks are the seats' (p1 is seat 0)
    finite = None if all(x == PHH_STACK for x in stacks) else tuple(stacks)
    try:
        return GameConfig(
            n_players=n,
            small_bet=small_bet,
            big_bet=big_bet,
            small_blind=blinds[0],
            big_blind=blinds[1],
            stacks=finite,
        )
    except ValueError as e:
        raise HandHistoryError(
            f"{where}: bad or missing game fields (starting_stacks, blinds_or_straddles, small_bet, big_bet): {e}"
        ) from None


# ------------------------------------------------------------------------------------------ actions


class _ActionWalk:
    """The PHH action lines of one hand walked on the engine (placeholder cards: only the betting is checked),
    collecting the hole cards, the board and the ACPC betting string."""

    def __init__(self, config: GameConfig, where: str):
        from loki.engine import new_hand

        self.n = config.n_players
        self.sim = new_hand(config, self.n - 1, rng=0)
        self.holes = [""] * self.n
        self.board = ""
        self.betting = ""
        self.boards_dealt = 0
        self.where = where
        self.at = where

    def player(self, tok: str) -> int:
        """``pK`` as a 0-based player (1 <= K <= n)."""
        n = self.n
        if not (len(tok) >= 2 and tok[0] == "p" and digits(tok[1:]) and 1 <= int(tok[1:]) <= n):
            raise HandHistoryError(f"{self.at}: player {tok[:20]!r} is not one of p1..p{n}")
        return int(tok[1:]) - 1

    def line(self, j: int, raw: str) -> None:
        """Apply action line ``j`` (comments after ``#`` ignored)."""
        line = raw.split("#", 1)[0].strip()
        if not line:
            return
        self.at = f"{self.where}, action {j} {line[:80]!r}"
        parts = line.split()
        if parts[:2] == ["d", "dh"]:
            self.deal_hole(parts)
        elif parts[:2] == ["d", "db"]:
            self.deal_board(parts)
        elif parts[0].startswith("p") and len(parts) >= 2:
            self.act(parts)
        else:
            raise HandHistoryError(f"{self.at}: PHH action not understood")

    def deal_hole(self, parts: list[str]) -> None:
        if len(parts) != 4 or not _cards_ok(parts[3], 2):
            raise HandHistoryError(f"{self.at}: expected 'd dh pK CARDS' with two hole cards (e.g. 'd dh p1 AsKd')")
        k = self.player(parts[2])
        if "?" not in parts[3]:
            self.holes[k] = parts[3]

    def deal_board(self, parts: list[str]) -> None:
        sim = self.sim
        if len(parts) != 3 or not _cards_ok(parts[2]) or len(parts[2]) not in (2, 6):
            raise HandHistoryError(f"{self.at}: expected 'd db CARDS' (three flop cards or one card)")
        if sim.is_terminal:  # after the last betting: an all-in's show-down runs the rest of the board out
            if not sim.went_to_showdown or self.boards_dealt >= 3:
                raise HandHistoryError(f"{self.at}: board dealt after the hand is over")
        elif self.boards_dealt >= sim.round:
            raise HandHistoryError(f"{self.at}: board dealt before the betting round is over")
        want = 3 if self.boards_dealt == 0 else 1
        if len(parts[2]) != 2 * want:
            raise HandHistoryError(f"{self.at}: {want} board card(s) expected on this street")
        self.board += parts[2]
        self.betting += "/"
        self.boards_dealt += 1

    def act(self, parts: list[str]) -> None:
        sim = self.sim
        k = self.player(parts[0])
        code = parts[1]
        if code == "sm":
            if len(parts) > 2:
                if not _cards_ok(parts[2], 2):
                    raise HandHistoryError(f"{self.at}: expected 'pK sm CARDS' with two hole cards")
                if "?" not in parts[2]:
                    self.holes[k] = parts[2]
            return
        if code not in ("f", "cc", "cbr") or (code == "cbr") != (len(parts) == 3) or len(parts) > 3:
            raise HandHistoryError(f"{self.at}: expected 'pK f', 'pK cc', 'pK cbr AMOUNT' or 'pK sm CARDS'")
        if sim.is_terminal:
            raise HandHistoryError(f"{self.at}: the hand is already over")
        if self.boards_dealt != sim.round:
            raise HandHistoryError(f"{self.at}: the board of this betting round has not been dealt")
        cp = sim.current_player
        if cp != k:
            who = "nobody" if cp is None else f"p{cp + 1}"
            raise HandHistoryError(f"{self.at}: {who} is to act, not p{k + 1}")
        a = {"f": "f", "cc": "c", "cbr": "r"}[code]
        try:
            sim.apply(a)
        except ValueError as e:
            raise HandHistoryError(f"{self.at}: illegal in fixed-limit: {e}") from None
        if code == "cbr":
            try:
                amount = float(parts[2])
            except ValueError:
                raise HandHistoryError(f"{self.at}: bet amount {parts[2][:20]!r} is not a number") from None
            if amount != sim.committed[k]:
                raise HandHistoryError(
                    f"{self.at}: fixed-limit bet/raise to {sim.committed[k]} expected, not {parts[2][:20]}"
                )
        self.betting += a


def phh_to_record(hh, hand_id=None, source: str = "<PHH>") -> HandRecord:
    """A pokerkit :class:`HandHistory` (fixed-limit Texas hold'em, ``variant = 'FT'``) as a record.

    The fields are checked first (pokerkit's ``HandHistory`` does not check them): ``variant`` a string,
    ``starting_stacks``, ``blinds_or_straddles`` and ``finishing_stacks`` lists of whole numbers of chips
    (at most :data:`MAX_PHH_CHIPS` in magnitude: ``inf``, ``nan`` or ``1e999999`` are refused, not
    converted), ``small_bet``/``big_bet`` whole numbers, ``actions`` and ``players`` lists of strings,
    ``hand`` an integer or a string.  Every action line is then checked as it is read, against the
    fixed-limit rules played on our engine (with placeholder cards: the betting does not depend on them):
    the syntax (``d dh pK CARDS``, ``d db CARDS``, ``pK f|cc|cbr AMOUNT|sm [CARDS]``), the player numbers
    (1..n), the player to act, the board dealt only when a betting round is over, and the ``cbr`` amount
    (the round's bet after the raise, blinds included, as pokerkit writes it).

    Raises:
        HandHistoryError: other variants, missing fields or fields of the wrong type, or a bad action line;
            the message names ``source``, the hand, the field or the action line.
    """
    hand = getattr(hh, "hand", None)
    if hand is not None and (isinstance(hand, bool) or not isinstance(hand, int | str)):
        raise HandHistoryError(f"{source}: hand {_short(hand)}: 'hand' must be an integer or a string")
    where = f"{source}: hand {hand_id if hand_id is not None else hand}"
    config = _phh_game(hh, where)
    n = config.n_players
    walk = _ActionWalk(config, where)
    for j, raw in enumerate(_str_list(hh, "actions", where) or [], 1):
        walk.line(j, raw)
    finishing = _chip_list(hh, "finishing_stacks", where, n, required=False)
    payoffs = None
    if finishing:
        stacks = _chip_list(hh, "starting_stacks", where)
        assert stacks is not None
        payoffs = tuple(f - s for f, s in zip(finishing, stacks))
    players = _str_list(hh, "players", where, required=False)
    names = tuple(players) if players else tuple(f"p{k + 1}" for k in range(n))
    if len(names) != n:
        raise HandHistoryError(f"{where}: {len(names)} players named for {n} starting stacks")
    hid = hand_id if hand_id is not None else (hand if hand is not None else 0)
    extra: dict = {"source": source}
    seats = getattr(hh, "seats", None)  # the table's seat numbers (loki play and loki web write them)
    if isinstance(seats, list) and len(seats) == n and all(type(x) is int for x in seats):
        extra["seats"] = tuple(seats)
    return HandRecord(hid, config, n - 1, tuple(walk.holes), walk.board, walk.betting, payoffs, names, extra)


# ------------------------------------------------------------------------------------------ files


def _hand_history(raw: object, where: str):
    """A pokerkit ``HandHistory`` from one parsed PHH table, as pokerkit's ``HandHistory.loads`` builds it
    (fields it does not know go to ``user_defined_fields``)."""
    from pokerkit import HandHistory

    if not isinstance(raw, dict):
        raise HandHistoryError(f"{where}: expected a table of PHH fields, got {type(raw).__name__}")
    known = {f.name for f in dataclasses.fields(HandHistory)}
    extra = raw.get("user_defined_fields", {})
    kwargs: dict = {"user_defined_fields": dict(extra) if isinstance(extra, dict) else {}}
    for key, value in raw.items():
        if key == "user_defined_fields":
            continue
        if key in known:
            kwargs[key] = value
        else:
            kwargs["user_defined_fields"][key] = value
    try:
        return HandHistory(**kwargs)
    except TypeError as e:
        raise HandHistoryError(
            f"{where}: a hand with missing or unknown fields (variant, antes, starting_stacks, actions, ...): {e}"
        ) from None


def _parse_hand(text: str, where: str, name: str | None):
    """One hand's TOML text (with its ``[name]`` header in a ``.phhs``) as a pokerkit ``HandHistory``."""
    from pokerkit.notation import parse_value

    d = parse_toml(text, where, HandHistoryError, parse_float=parse_value)
    if name is None:
        return _hand_history(d, where)
    tables = list(d.values())
    if len(tables) != 1:
        raise HandHistoryError(f"{where}: a hand with missing or unknown fields: expected one table [{name}]")
    return _hand_history(tables[0], where)


def _phh_chunks(p: Path) -> Iterator[tuple[str | None, str, str]]:
    """``(table name, where, text)`` for each hand of a PHH file, read as a stream, hand by hand: a new hand at each
    ``[name]`` line (a ``.phhs`` file), or the whole file as one hand (``name`` None) when it has none (a ``.phh``
    file).  The suffix does not decide: a file of several hands under another name (``loki play --out x.phh``, which
    wrote every hand of a session) is read as they are."""
    name: str | None = None
    start, size = 1, 0
    lines: list[str] = []
    with open_input(p, "a PHH file", HandHistoryError) as f:
        for i, raw in iter_lines(
            f, str(p), "a PHH file", HandHistoryError, line_limit=MAX_PHH_HAND_BYTES, total_limit=MAX_LOG_BYTES
        ):
            assert isinstance(raw, bytes)  # (no skip_long: a longer line raises)
            line = _decode(raw, p)
            m = _HEADER_RE.match(line) if line[:1] in "[ \t" else None
            if m is not None:
                if name is not None or any(x.split("#", 1)[0].strip() for x in lines):
                    yield name, f"{p}:{start}", "\n".join(lines)
                name, start, lines, size = m.group(1), i, [], 0
            size += len(raw) + 1
            if size > MAX_PHH_HAND_BYTES:
                raise HandHistoryError(f"{p}:{start}: a hand larger than {size_text(MAX_PHH_HAND_BYTES)} (the limit)")
            lines.append(line)
    if name is not None or any(x.split("#", 1)[0].strip() for x in lines):
        yield name, f"{p}:{start}", "\n".join(lines)


def _decode(data: bytes, p: Path) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise HandHistoryError(f"{p}: not a PHH file (not UTF-8 text; binary?)") from None


def _load_phh(p: Path, skipped: list | None = None) -> Iterator[tuple[object, object]]:
    """``(hand id or None, pokerkit HandHistory)`` for each hand of a file, read as a stream; a hand that does
    not parse raises a HandHistoryError naming the file and the line (or, with ``skipped``, is listed there)."""
    import warnings

    seen: set[str] = set()
    unlisted = 0
    for name, where, text in _phh_chunks(p):
        try:
            if name is not None:
                if name in seen:
                    raise HandHistoryError(f"{where}: not valid PHH/TOML: table [{name}] appears twice")
                seen.add(name)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UserWarning)  # "unexpected field": reported below if it matters
                hh = _parse_hand(text, where, name)
        except HandHistoryError as e:
            if skipped is None:
                raise
            if len(skipped) < MAX_NOTES:
                skipped.append((where, str(e)))
            else:
                unlisted += 1
            continue
        yield name, hh
    if unlisted and skipped is not None:
        skipped.append((str(p), f"{unlisted} more hands that do not parse, not listed"))


def read_phh(path, skipped: list | None = None, max_hands: int | None = None) -> list[HandRecord]:
    """All hands of a ``.phh``/``.phhs`` file as :class:`HandRecord` (hand ids numbered from 0 when absent).

    The file is read as a stream, hand by hand, within the limits of :mod:`loki.io.limits` (at most
    :data:`~loki.io.limits.MAX_LOG_BYTES` in all, a hand at most :data:`~loki.io.limits.MAX_PHH_HAND_BYTES`,
    arrays nested at most 32 deep); each hand is parsed as pokerkit's ``HandHistory.loads`` does (TOML, numbers
    as ints or Decimals), then checked by :func:`phh_to_record`.

    Args:
        skipped: if a list, hands that cannot be read are appended to it as ``(hand id or FILE:LINE, message)``
            and left out (the first :data:`~loki.io.limits.MAX_NOTES`); otherwise the first one raises.
        max_hands: stop after this many hands (read no further).

    Raises:
        HandHistoryError: unreadable, binary or too large file, more than :data:`~loki.io.limits.MAX_LOG_HANDS`
            hands (without ``max_hands``), or (without ``skipped``) a bad hand; the message names the file, the
            hand and the action.
    """
    p = Path(path)
    out: list[HandRecord] = []
    unlisted = 0
    for i, (name, hh) in enumerate(_load_phh(p, skipped)):
        if max_hands is not None and len(out) >= max_hands:
            break
        if len(out) >= MAX_LOG_HANDS:
            where = f"{p} hand [{name}]" if name is not None else str(p)
            raise HandHistoryError(
                f"{where}: more than {MAX_LOG_HANDS:,} hands, the limit for one file (--hands N reads the first N)"
            )
        hand = getattr(hh, "hand", None)
        hid = hand if isinstance(hand, int | str) and not isinstance(hand, bool) else i
        try:
            out.append(phh_to_record(hh, hid, str(p)))
        except ValueError as e:
            if skipped is None:
                raise
            if len(skipped) < MAX_NOTES:
                skipped.append((hid, str(e)))
            else:
                unlisted += 1
    if unlisted and skipped is not None:
        skipped.append((str(p), f"{unlisted} more hands that do not replay, not listed"))
    return out
