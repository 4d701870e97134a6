"""ACPC match logs (``STATE:`` lines and the ``SCORE`` line) and our hand records.

``STATE:<hand>:<betting>:<hole cards>/<board>:<payoffs>:<names>``: hole cards by ``|`` in the
positions of that hand, board cards by ``/`` per round, payoffs and names in position order.

>>> r = parse_state_line("STATE:0:cc/crc/cc/cc:5d5c|9hQd/8dAs8s/4h/6d:20|-20:p1|p2", bundled_gamedef(2))
>>> r.betting, r.hole_cards, r.board, r.payoffs, r.names
('cc/crc/cc/cc', ('5d5c', '9hQd'), '8dAs8s4h6d', (20.0, -20.0), ('p1', 'p2'))
>>> r.replay().payoffs
(20, -20)
>>> format_state_line(r)
'STATE:0:cc/crc/cc/cc:5d5c|9hQd/8dAs8s/4h/6d:20|-20:p1|p2'
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from loki.engine import GameConfig, HandState, new_hand
from loki.errors import CardError, HandHistoryError
from loki.io.gamedef import AcpcGame, bundled_gamedef
from loki.io.limits import (
    MAX_LINE_BYTES,
    MAX_LOG_BYTES,
    MAX_LOG_HANDS,
    MAX_NOTES,
    digits,
    iter_lines,
    open_input,
    size_text,
)

__all__ = [
    "HandRecord",
    "AcpcLog",
    "parse_state_line",
    "format_state_line",
    "read_acpc_log",
    "format_payoff",
    "board_segments",
    "read_actions_trace",
    "apply_betting",
    "betting_steps",
]


def _clip(text: str, limit: int = 120) -> str:
    return repr(text) if len(text) <= limit else f"{text[:limit]!r}... ({len(text)} chars)"


def betting_steps(state: HandState, betting: str, where: str = "the hand"):
    """Walk an ACPC betting string on ``state``, checking every ``/`` against the engine's rounds:
    yields ``(index, Action)`` for each action *before* it is applied (the caller applies it),
    after checking it is a valid letter, that the previous round is closed by a ``/`` exactly when
    the engine moved on, and that the action is legal.

    Raises:
        HandHistoryError: ``"invalid action '9' at position 3 in hand 17 of FILE:18"``, a misplaced or
            missing ``/``, an illegal action, or betting after the end of the hand (``where`` names
            the hand and the file).
    """
    from loki.engine import Action

    slashes = 0
    for i, ch in enumerate(betting):
        if ch == "/":
            slashes += 1
            if slashes > state.round:
                why = "the hand is over" if state.is_terminal else f"the {_street(state.round)} betting is not over"
                raise HandHistoryError(f"misplaced '/' at position {i} of {betting!r} in {where}: {why}")
            continue
        if state.is_terminal:
            raise HandHistoryError(f"betting {betting!r} goes on after the end of {where} (position {i})")
        try:
            a = Action.parse(ch)
        except ValueError:
            raise HandHistoryError(
                f"invalid action {ch!r} at position {i} of {betting!r} in {where} (expected f, c, r or /)"
            ) from None
        if slashes != state.round:
            raise HandHistoryError(
                f"misplaced '/' in {betting!r} in {where}: the {_street(slashes)} betting ended "
                f"at {betting[:i]!r}, a '/' was expected at position {i}"
            )
        if a not in state.legal_actions():
            raise HandHistoryError(f"illegal action {ch!r} at position {i} of {betting!r} in {where}")
        yield i, a
    if not state.is_terminal:
        raise HandHistoryError(f"betting {betting!r} does not finish {where}")


def _street(r: int) -> str:
    from loki.engine import STREET_NAMES

    return STREET_NAMES[r]


def apply_betting(state: HandState, betting: str, where: str = "the hand") -> HandState:
    """Apply a whole ACPC betting string with the checks of :func:`betting_steps`; returns ``state``.

    Raises:
        HandHistoryError: an illegal betting string, or betting that reaches a street whose board cards the
            hand does not give (the message names ``where``).
    """
    for _, a in betting_steps(state, betting, where):
        try:
            state.apply(a)
        except CardError:
            raise HandHistoryError(
                f"{where}: the betting {betting!r} goes on past the board given ({len(state.full_board)} cards)"
            ) from None
    return state


@dataclass
class HandRecord:
    """One hand, as read from a log (ACPC or PHH) or as played.

    Attributes:
        hand_id: hand number or identifier.
        config: the rules.
        button: engine button seat (seat ``i`` = ACPC position ``i``).
        hole_cards: per seat, 4-character strings such as ``"AsKd"`` (``""`` when unknown).
        board: all board cards dealt (``"8dAs8s4h6d"``, as far as the hand went).
        betting: ACPC betting string (``"cc/crc/cc/cc"``).
        payoffs: net chips per seat as logged (None if not logged).
        names: player name per seat.
    """

    hand_id: int | str
    config: GameConfig
    button: int
    hole_cards: tuple[str, ...]
    board: str
    betting: str
    payoffs: tuple | None = None
    names: tuple[str, ...] = ()
    extra: dict = field(default_factory=dict)

    @property
    def n_players(self) -> int:
        return self.config.n_players

    @property
    def where(self) -> str:
        """``"hand 17 of FILE:18"`` (``"hand 17"`` when the source is unknown), for messages."""
        src = self.extra.get("source") if self.extra else None
        return f"hand {self.hand_id} of {src}" if src else f"hand {self.hand_id}"

    def replay(self) -> HandState:
        """The hand replayed on the engine (the finished :class:`HandState`).

        Raises:
            HandHistoryError: unknown hole cards, bad cards or an illegal betting string (the message
                names the hand).
        """
        if any(len(h) != 4 for h in self.hole_cards):
            raise HandHistoryError(f"{self.where}: hole cards not all known ({self.hole_cards})")
        try:
            s = new_hand(self.config, self.button, hole_cards=list(self.hole_cards), board=self.board)
        except ValueError as e:
            raise HandHistoryError(f"{self.where}: bad cards: {e}") from None
        return apply_betting(s, self.betting, self.where)


@dataclass
class AcpcLog:
    """A parsed ACPC log: ``hands`` (:class:`HandRecord`), ``score`` ``{name: chips}`` (or None),
    ``comments`` (the ``#`` lines, the first 1,000) and ``game``; ``warnings``: ``"FILE:LINE: ..."`` for each line
    that is neither a ``STATE``, a ``SCORE`` nor a comment (ignored, not fatal); ``skipped``:
    ``(FILE:LINE, message)`` of malformed ``STATE`` lines when read with ``strict=False``.  Both list the first
    :data:`~loki.io.limits.MAX_NOTES` lines and count the others in one last entry."""

    hands: list[HandRecord]
    score: dict | None
    comments: list[str]
    game: AcpcGame
    warnings: list[str] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)


def format_payoff(x) -> str:
    """A payoff or score as the ACPC dealer writes it: ``20`` for integral values, otherwise six decimals without
    their trailing zeros (``2.5``, ``1.666667``; a three-way split of 5 chips, or a total of such splits).

    >>> format_payoff(20.0), format_payoff(-2.5), format_payoff(5 / 3), format_payoff(1e-9)
    ('20', '-2.5', '1.666667', '0')
    """
    x = float(x)
    if x == int(x):
        return str(int(x))
    text = f"{x:.6f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def board_segments(board: str, n_rounds_shown: int) -> list[str]:
    """Board cards per round ``['', flop, turn, river][:n_rounds_shown]`` from a card string."""
    segs = ["", board[0:6], board[6:8], board[8:10]]
    return segs[:n_rounds_shown]


def _game_for(n: int, game: AcpcGame | None, source: str) -> AcpcGame:
    if game is None:
        return bundled_gamedef(n)
    if game.n_players != n:
        raise HandHistoryError(f"{source}: {n} players in a STATE line but the game has {game.n_players}")
    return game


def parse_state_line(line: str, game: AcpcGame | None = None, source: str = "<string>") -> HandRecord:
    """Parse one ``STATE:`` line (``game`` defaults to the bundled limit game for its player count).

    Raises:
        HandHistoryError: malformed line (payoffs that are not finite numbers included); the message quotes it.
    """
    parts = line.strip().split(":")
    if len(parts) != 6 or parts[0] != "STATE":
        raise HandHistoryError(f"{source}: malformed STATE line {_clip(line.strip())}")
    _, hand, betting, cards, payoffs, names = parts
    try:
        segs = cards.split("/")
        holes = tuple(segs[0].split("|"))
        pay = tuple(float(x) for x in payoffs.split("|"))
        nm = tuple(names.split("|"))
        hid = int(hand)
    except ValueError:
        raise HandHistoryError(f"{source}: malformed STATE line {_clip(line.strip())}") from None
    if not all(map(math.isfinite, pay)):
        raise HandHistoryError(f"{source}: malformed STATE line {_clip(line.strip())}: payoffs must be finite numbers")
    n = len(holes)
    if len(pay) != n or len(nm) != n:
        raise HandHistoryError(
            f"{source}: STATE line with {n} hands but {len(pay)} payoffs and {len(nm)} names: {line.strip()!r}"
        )
    if not all(nm):  # a cut-off line ('...:p1|') would give a seat's chips to a player named ''
        raise HandHistoryError(f"{source}: STATE line with an empty player name: {_clip(line.strip())}")
    g = _game_for(n, game, source)
    return HandRecord(hid, g.config, g.button, holes, "".join(segs[1:]), betting, pay, nm, {"source": source})


def format_state_line(rec: HandRecord, payoffs=None) -> str:
    """The ``STATE:`` line of a hand record (``payoffs`` defaults to ``rec.payoffs``)."""
    pay = rec.payoffs if payoffs is None else payoffs
    if pay is None:
        raise HandHistoryError(f"{rec.where}: no payoffs to write in the STATE line (pass payoffs)")
    rounds = rec.betting.count("/") + 1
    board = "".join("/" + s for s in board_segments(rec.board, rounds)[1:])
    return (
        f"STATE:{rec.hand_id}:{rec.betting}:{'|'.join(rec.hole_cards)}{board}:"
        f"{'|'.join(format_payoff(x) for x in pay)}:{'|'.join(rec.names)}"
    )


def read_acpc_log(  # noqa: C901 - one pass over the lines, a branch per kind of line and per limit
    path, game: AcpcGame | None = None, strict: bool = True, max_hands: int | None = None
) -> AcpcLog:
    """Read an ACPC log file: every ``STATE`` line, the ``SCORE`` line and the comments.

    The file is read as a stream, one line at a time, within the limits of :mod:`loki.io.limits`: at most
    :data:`~loki.io.limits.MAX_LOG_BYTES` in all and :data:`~loki.io.limits.MAX_LINE_BYTES` per line
    (a longer line is read past, not into memory, and reported as ignored; ``/dev/zero`` is refused after
    64 MiB).  Other non-empty lines are not fatal: each is reported in :attr:`AcpcLog.warnings` as
    ``FILE:LINE: ...`` (the first 1,000 of them).  With
    ``strict=False`` a malformed ``STATE`` line is left out and listed in :attr:`AcpcLog.skipped` instead
    of raising, and without ``game`` the log's game is the bundled one of the player count most of its hands have
    (its other hands are skipped; a strict read takes the first line's count).  The betting of each hand is
    checked when it is replayed (:meth:`HandRecord.replay`), not here.

    Args:
        max_hands: stop after this many hands (the rest of the file is not read).

    Raises:
        HandHistoryError: unreadable, binary or too large file, more than :data:`~loki.io.limits.MAX_LOG_HANDS`
            hands (without ``max_hands``), no STATE line, or (strict) a malformed line; the message names file
            and line number.
    """
    p = Path(path)
    hands: list[HandRecord] = []
    # without a game, a strict read takes the first STATE line's player count; a lenient one takes the count of most
    # hands (one stray line of another table at the top must not make every other hand of the log unreadable)
    pinned = game is not None or strict
    wheres: list[str] = []  # where each hand was read (lenient reads without a game)
    comments: list[str] = []
    warnings: list[str] = []
    skipped: list[tuple[str, str]] = []
    score = None
    unlisted = unskipped = 0  # ignored lines and malformed STATE lines beyond the first MAX_NOTES
    with open_input(p, "an ACPC log", HandHistoryError) as f:
        lines = iter_lines(
            f,
            str(p),
            "an ACPC log",
            HandHistoryError,
            line_limit=MAX_LINE_BYTES,
            total_limit=MAX_LOG_BYTES,
            skip_long=True,
        )
        for i, raw in lines:
            if max_hands is not None and len(hands) >= max_hands:
                break
            if isinstance(raw, int):  # longer than any line of a log: not read into memory
                if len(warnings) < MAX_NOTES:
                    warnings.append(f"{p}:{i}: ignored line longer than {size_text(MAX_LINE_BYTES)} ({raw} chars)")
                else:
                    unlisted += 1
                continue
            try:
                line = raw.decode("utf-8").strip()
            except UnicodeDecodeError:
                raise HandHistoryError(f"{p}: not an ACPC log (line {i} is not UTF-8 text; binary?)") from None
            if not line:
                continue
            if line.startswith("#"):
                if len(comments) < MAX_NOTES:
                    comments.append(line)
            elif line.startswith("STATE:"):
                try:
                    rec = parse_state_line(line, game if pinned else None, f"{p}:{i}")
                except ValueError as e:
                    if strict:
                        raise
                    if len(skipped) < MAX_NOTES:
                        skipped.append((f"{p}:{i}", str(e).removeprefix(f"{p}:{i}: ")))
                    else:
                        unskipped += 1
                    continue
                if pinned and game is None:
                    game = bundled_gamedef(rec.n_players)
                elif not pinned:
                    wheres.append(f"{p}:{i}")
                if len(hands) >= MAX_LOG_HANDS:
                    raise HandHistoryError(
                        f"{p}:{i}: more than {MAX_LOG_HANDS:,} hands, the limit for one log (--hands N reads the first N)"
                    )
                hands.append(rec)
            elif line.startswith("SCORE:"):
                score = _score(line, f"{p}:{i}")
            elif len(warnings) < MAX_NOTES:
                warnings.append(f"{p}:{i}: ignored line (not STATE, SCORE or #comment): {_clip(line)}")
            else:
                unlisted += 1
    if not pinned and hands:
        game, hands, dropped = _majority_game(hands, wheres, skipped)
        unskipped += dropped
    if unlisted:
        warnings.append(f"{p}: {unlisted} more ignored lines, not listed")
    if unskipped:
        skipped.append((str(p), f"{unskipped} more malformed STATE lines, not listed"))
    if game is None:
        if skipped:  # STATE lines, none readable: the first one's fault
            where, why = skipped[0]
            raise HandHistoryError(f"{p}: no readable STATE line ({where}: {why})")
        raise HandHistoryError(f"{p}: no STATE lines" + (f" ({warnings[0]})" if warnings else ""))
    return AcpcLog(hands, score, comments, game, warnings, skipped)


def _majority_game(
    hands: list[HandRecord], wheres: list[str], skipped: list[tuple[str, str]]
) -> tuple[AcpcGame, list[HandRecord], int]:
    """The bundled game of the player count most ``hands`` have (the first seen among equals), those hands, and how
    many others were left out without a line in ``skipped`` (the first :data:`MAX_NOTES` get one)."""
    first: dict[int, int] = {}
    for k, r in enumerate(hands):
        first.setdefault(r.n_players, k)
    counts = Counter(r.n_players for r in hands)
    n = max(counts, key=lambda m: (counts[m], -first[m]))
    kept, unlisted = [], 0
    for where, r in zip(wheres, hands, strict=True):
        if r.n_players == n:
            kept.append(r)
        elif len(skipped) < MAX_NOTES:
            skipped.append((where, f"{r.n_players} players in a STATE line but most of the log's hands have {n}"))
        else:
            unlisted += 1
    return bundled_gamedef(n), kept, unlisted


def _score(line: str, where: str) -> dict[str, float]:
    """The ``SCORE:<values>:<names>`` line as ``{name: chips}``."""
    parts = line.split(":")
    try:
        values = [float(x) for x in parts[1].split("|")]
        names = parts[2].split("|")
    except (IndexError, ValueError):
        raise HandHistoryError(f"{where}: malformed SCORE line {_clip(line)}") from None
    if len(values) != len(names) or not all(map(math.isfinite, values)):
        raise HandHistoryError(f"{where}: malformed SCORE line {_clip(line)} (one finite number per name)")
    return dict(zip(names, values))


def read_actions_trace(path) -> list[tuple[str, int, str]]:
    """The ``TO n``/``FROM n`` lines of a dealer message trace as ``(direction, player, message)``
    (player 1-based, timestamps dropped), read as a stream with the limits of an ACPC log.

    Raises:
        HandHistoryError: unreadable or too large file, a line too long, or a ``TO``/``FROM`` line without a
            player number.
    """
    out = []
    p = Path(path)
    with open_input(p, "a dealer trace", HandHistoryError) as f:
        for i, raw in iter_lines(
            f, str(p), "a dealer trace", HandHistoryError, line_limit=MAX_LINE_BYTES, total_limit=MAX_LOG_BYTES
        ):
            if isinstance(raw, int):
                continue
            line = raw.decode("utf-8", "replace")
            if line.startswith(("TO ", "FROM ")):
                head, _, msg = line.partition(" MATCHSTATE:")
                d, pl = (head.split() + [""])[:2]
                if not digits(pl):
                    raise HandHistoryError(f"{p}:{i}: expected 'TO n' or 'FROM n', got {_clip(head)}")
                out.append((d, int(pl), "MATCHSTATE:" + msg))
    return out
