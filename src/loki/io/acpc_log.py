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

from dataclasses import dataclass, field
from pathlib import Path

from loki.engine import GameConfig, HandState, new_hand
from loki.errors import HandHistoryError
from loki.io.gamedef import AcpcGame, bundled_gamedef

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
    """Apply a whole ACPC betting string with the checks of :func:`betting_steps`; returns ``state``."""
    for _, a in betting_steps(state, betting, where):
        state.apply(a)
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
    ``comments`` (the ``#`` lines) and ``game``; ``warnings``: ``"FILE:LINE: ..."`` for each line
    that is neither a ``STATE``, a ``SCORE`` nor a comment (ignored, not fatal); ``skipped``:
    ``(FILE:LINE, message)`` of malformed ``STATE`` lines when read with ``strict=False``."""

    hands: list[HandRecord]
    score: dict | None
    comments: list[str]
    game: AcpcGame
    warnings: list[str] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)


def format_payoff(x) -> str:
    """``20`` for integral values, ``2.5`` otherwise (as the ACPC dealer's ``%g``-like output)."""
    x = float(x)
    return str(int(x)) if x == int(x) else repr(x)


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
        HandHistoryError: malformed line; the message quotes it.
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
    n = len(holes)
    if len(pay) != n or len(nm) != n:
        raise HandHistoryError(
            f"{source}: STATE line with {n} hands but {len(pay)} payoffs and {len(nm)} names: {line.strip()!r}"
        )
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


def read_acpc_log(path, game: AcpcGame | None = None, strict: bool = True) -> AcpcLog:
    """Read an ACPC log file: every ``STATE`` line, the ``SCORE`` line and the comments.

    Other non-empty lines are not fatal: each is reported in :attr:`AcpcLog.warnings` as
    ``FILE:LINE: ...``.  With ``strict=False`` a malformed ``STATE`` line is left out and listed in
    :attr:`AcpcLog.skipped` instead of raising.  The betting of each hand is checked when it is
    replayed (:meth:`HandRecord.replay`), not here.

    Raises:
        HandHistoryError: unreadable or binary file, no STATE line, or (strict) a malformed line; the
            message names file and line number.
    """
    p = Path(path)
    try:
        text = p.read_bytes().decode("utf-8")
    except OSError as e:
        raise HandHistoryError(f"{p}: cannot read ACPC log: {e}") from None
    except UnicodeDecodeError:
        raise HandHistoryError(f"{p}: not an ACPC log (not UTF-8 text; binary?)") from None
    hands, comments, score, warnings, skipped = [], [], None, [], []
    for i, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line:
            continue
        if line.startswith("#"):
            comments.append(line)
        elif line.startswith("STATE:"):
            try:
                rec = parse_state_line(line, game, f"{p}:{i}")
            except ValueError as e:
                if strict:
                    raise
                skipped.append((f"{p}:{i}", str(e)))
                continue
            if game is None:
                game = bundled_gamedef(rec.n_players)
            hands.append(rec)
        elif line.startswith("SCORE:"):
            parts = line.split(":")
            try:
                score = dict(zip(parts[2].split("|"), (float(x) for x in parts[1].split("|"))))
            except (IndexError, ValueError):
                raise HandHistoryError(f"{p}:{i}: malformed SCORE line {_clip(line)}") from None
        else:
            warnings.append(f"{p}:{i}: ignored line (not STATE, SCORE or #comment): {_clip(line)}")
    if game is None:
        raise HandHistoryError(
            f"{p}: no STATE lines"
            + (f" ({warnings[0]})" if warnings else "")
            + (f" ({skipped[0][1]})" if skipped else "")
        )
    return AcpcLog(hands, score, comments, game, warnings, skipped)


def read_actions_trace(path) -> list[tuple[str, int, str]]:
    """The ``TO n``/``FROM n`` lines of a dealer message trace as ``(direction, player, message)``
    (player 1-based, timestamps dropped)."""
    out = []
    for line in Path(path).read_text().splitlines():
        if line.startswith(("TO ", "FROM ")):
            head, _, msg = line.partition(" MATCHSTATE:")
            d, pl = head.split()[:2]
            out.append((d, int(pl), "MATCHSTATE:" + msg))
    return out
