"""Poker Hand History (PHH) files: writing hands as pokerkit does, reading them through pokerkit.

Writing: :func:`phhs_text` and :func:`write_phh` build the text straight from the engine's records
(:func:`loki.io.phh_write.hand_text`, no pokerkit), byte for byte what pokerkit's
``HandHistory.dumps``/``dumps_all`` write; :func:`state_to_phh` (:mod:`loki.io.phh_pokerkit`) replays a
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

from collections.abc import Iterable
from pathlib import Path

from loki.engine import GameConfig
from loki.errors import HandHistoryError
from loki.io.acpc_log import HandRecord
from loki.io.phh_pokerkit import PHH_STACK, state_to_phh
from loki.io.phh_write import hand_text

__all__ = [
    "record_to_phh",
    "state_to_phh",
    "hand_text",
    "phhs_text",
    "write_phh",
    "read_phh",
    "phh_to_record",
    "PHH_STACK",
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
    return h.dumps()  # a pokerkit HandHistory


def phhs_text(hands: Iterable) -> str:
    """Hands as the text of a ``.phhs`` file, exactly as pokerkit's ``HandHistory.dumps_all`` writes
    them (tables ``[1]``, ``[2]``, ... separated by a blank line, a final newline; the ``hand``
    field, when given, carries the hand's own number).

    Args:
        hands: each a ``(HandState, names, hand_id[, fields])`` tuple (written by
            :func:`~loki.io.phh_write.hand_text`, no pokerkit), a :class:`HandRecord` (replayed on the
            engine, then written the same way), the text :func:`~loki.io.phh_write.hand_text` returned,
            or a :class:`pokerkit.HandHistory` (its ``dumps()``).

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
    return "\n\n".join(f"[{i}]\n{_hand_text(h)}" for i, h in enumerate(hands, 1)) + "\n"


def write_phh(path, hands: Iterable) -> int:
    """Write hands (as for :func:`phhs_text`) to a ``.phhs`` file (``.phh`` for a single hand: its
    text without the ``[1]`` header); returns how many were written.

    Raises:
        OSError: the file cannot be written; and as :func:`phhs_text`.
    """
    texts = [_hand_text(h) for h in hands]
    p = Path(path)
    if p.suffix == ".phh" and len(texts) == 1:
        p.write_text(texts[0] + "\n")
    else:
        p.write_text(phhs_text(texts))
    return len(texts)


_CARDS_RE = None


def _cards_ok(text: str, count: int | None = None) -> bool:
    """``text`` is ``count`` cards (``As``, ``Td``, or ``??`` for unknown), none repeated."""
    global _CARDS_RE
    import re

    if _CARDS_RE is None:
        _CARDS_RE = re.compile(r"^(?:[2-9TJQKA][shdc]|\?\?)+$")
    if not _CARDS_RE.match(text) or (count is not None and len(text) != 2 * count):
        return False
    known = [text[i : i + 2] for i in range(0, len(text), 2) if text[i] != "?"]
    return len(set(known)) == len(known)


def phh_to_record(hh, hand_id=None, source: str = "<PHH>") -> HandRecord:
    """A pokerkit :class:`HandHistory` (fixed-limit Texas hold'em, ``variant = 'FT'``) as a record.

    Every action line is checked as it is read, against the fixed-limit rules played on our engine
    (with placeholder cards: the betting does not depend on them): the syntax (``d dh pK CARDS``,
    ``d db CARDS``, ``pK f|cc|cbr AMOUNT|sm [CARDS]``), the player numbers (1..n), the player to
    act, the board dealt only when a betting round is over, and the ``cbr`` amount (the round's
    bet after the raise, blinds included, as pokerkit writes it).

    Raises:
        HandHistoryError: other variants, missing fields, or a bad action line; the message names
            ``source``, the hand and the action line.
    """
    from loki.engine import new_hand

    where = f"{source}: hand {hand_id if hand_id is not None else getattr(hh, 'hand', None)}"
    if hh.variant != "FT":
        raise HandHistoryError(
            f"{where}: PHH variant {hh.variant!r}: only fixed-limit Texas hold'em ('FT') is supported"
        )
    try:
        n = len(hh.starting_stacks)
        bl = [int(x) for x in (hh.blinds_or_straddles or [])] + [0] * n
        config = GameConfig(
            n_players=n, small_bet=int(hh.small_bet), big_bet=int(hh.big_bet), small_blind=bl[0], big_blind=bl[1]
        )
    except (TypeError, ValueError) as e:
        raise HandHistoryError(
            f"{where}: bad or missing game fields (starting_stacks, blinds_or_straddles, small_bet, big_bet): {e}"
        ) from None
    sim = new_hand(config, n - 1, rng=0)  # placeholder cards: only the betting is checked
    holes = [""] * n
    board, betting = "", ""
    boards_dealt = 0
    for j, raw in enumerate(hh.actions, 1):
        line = str(raw).split("#", 1)[0].strip()
        if not line:
            continue
        at = f"{where}, action {j} {line!r}"
        parts = line.split()

        def player(tok: str) -> int:
            if not (len(tok) >= 2 and tok[0] == "p" and tok[1:].isdigit() and 1 <= int(tok[1:]) <= n):
                raise HandHistoryError(f"{at}: player {tok!r} is not one of p1..p{n}")  # noqa: B023 (called in this iteration)
            return int(tok[1:]) - 1

        if parts[:2] == ["d", "dh"]:
            if len(parts) != 4 or not _cards_ok(parts[3], 2):
                raise HandHistoryError(f"{at}: expected 'd dh pK CARDS' with two hole cards (e.g. 'd dh p1 AsKd')")
            k = player(parts[2])
            if "?" not in parts[3]:
                holes[k] = parts[3]
        elif parts[:2] == ["d", "db"]:
            if len(parts) != 3 or not _cards_ok(parts[2]) or len(parts[2]) not in (2, 6):
                raise HandHistoryError(f"{at}: expected 'd db CARDS' (three flop cards or one card)")
            if sim.is_terminal and not sim.went_to_showdown or boards_dealt >= sim.round:
                raise HandHistoryError(f"{at}: board dealt before the betting round is over")
            want = 3 if boards_dealt == 0 else 1
            if len(parts[2]) != 2 * want:
                raise HandHistoryError(f"{at}: {want} board card(s) expected on this street")
            board += parts[2]
            betting += "/"
            boards_dealt += 1
        elif parts[0].startswith("p") and len(parts) >= 2:
            k = player(parts[0])
            code = parts[1]
            if code == "sm":
                if len(parts) > 2:
                    if not _cards_ok(parts[2], 2):
                        raise HandHistoryError(f"{at}: expected 'pK sm CARDS' with two hole cards")
                    if "?" not in parts[2]:
                        holes[k] = parts[2]
                continue
            if code not in ("f", "cc", "cbr") or (code == "cbr") != (len(parts) == 3) or len(parts) > 3:
                raise HandHistoryError(f"{at}: expected 'pK f', 'pK cc', 'pK cbr AMOUNT' or 'pK sm CARDS'")
            if sim.is_terminal:
                raise HandHistoryError(f"{at}: the hand is already over")
            if boards_dealt != sim.round:
                raise HandHistoryError(f"{at}: the board of this betting round has not been dealt")
            cp = sim.current_player
            if cp != k:
                who = "nobody" if cp is None else f"p{cp + 1}"
                raise HandHistoryError(f"{at}: {who} is to act, not p{k + 1}")
            a = {"f": "f", "cc": "c", "cbr": "r"}[code]
            try:
                sim.apply(a)
            except ValueError as e:
                raise HandHistoryError(f"{at}: illegal in fixed-limit: {e}") from None
            if code == "cbr":
                try:
                    amount = float(parts[2])
                except ValueError:
                    raise HandHistoryError(f"{at}: bet amount {parts[2]!r} is not a number") from None
                if amount != sim.committed[k]:
                    raise HandHistoryError(
                        f"{at}: fixed-limit bet/raise to {sim.committed[k]} expected, not {parts[2]}"
                    )
            betting += a
        else:
            raise HandHistoryError(f"{at}: PHH action not understood")
    payoffs = None
    if hh.finishing_stacks:
        try:
            payoffs = tuple(int(f) - int(s) for f, s in zip(hh.finishing_stacks, hh.starting_stacks))
        except (TypeError, ValueError) as e:
            raise HandHistoryError(f"{where}: bad finishing_stacks: {e}") from None
    names = tuple(str(x) for x in hh.players) if hh.players else tuple(f"p{k + 1}" for k in range(n))
    if len(names) != n:
        raise HandHistoryError(f"{where}: {len(names)} players named for {n} starting stacks")
    hid = hand_id if hand_id is not None else (hh.hand if hh.hand is not None else 0)
    return HandRecord(hid, config, n - 1, tuple(holes), board, betting, payoffs, names, {"source": source})


def _load_phh(p: Path):
    """pokerkit's hand histories of a file; every failure as a HandHistoryError naming the file."""
    import tomllib

    from pokerkit import HandHistory

    try:
        data = p.read_bytes()
    except OSError as e:
        raise HandHistoryError(f"{p}: cannot read PHH file: {e}") from None
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        raise HandHistoryError(f"{p}: not a PHH file (not UTF-8 text; binary?)") from None
    import io
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # "unexpected field": reported below if it matters
            if p.suffix == ".phhs":
                return list(HandHistory.load_all(io.BytesIO(data)))
            return [HandHistory.load(io.BytesIO(data))]
    except tomllib.TOMLDecodeError as e:
        raise HandHistoryError(f"{p}: not valid PHH/TOML: {e}") from None
    except (TypeError, KeyError, ValueError, IndexError, AttributeError) as e:
        kind = f"{type(e).__name__}: " if isinstance(e, KeyError) else ""
        raise HandHistoryError(
            f"{p}: a hand with missing or unknown fields (variant, antes, starting_stacks, actions, ...): {kind}{e}"
        ) from None


def read_phh(path, skipped: list | None = None) -> list[HandRecord]:
    """All hands of a ``.phh``/``.phhs`` file as :class:`HandRecord` (hand ids numbered from 0 when absent).

    Args:
        skipped: if a list, hands that cannot be read are appended to it as ``(hand id, message)``
            and left out; otherwise the first one raises.

    Raises:
        HandHistoryError: unreadable, binary or malformed file, or (without ``skipped``) a bad hand; the
            message names the file, the hand and the action.
    """
    p = Path(path)
    out = []
    for i, hh in enumerate(_load_phh(p)):
        hid = hh.hand if getattr(hh, "hand", None) is not None else i
        try:
            out.append(phh_to_record(hh, hid, str(p)))
        except ValueError as e:
            if skipped is None:
                raise
            skipped.append((hid, str(e)))
    return out
