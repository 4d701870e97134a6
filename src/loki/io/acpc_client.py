"""ACPC protocol 2.0.0 client: play a :class:`~loki.players.base.Player` against an ACPC dealer.

The dealer sends ``MATCHSTATE:<position>:<hand>:<betting>:<cards>`` for every change of the
hand's state; when it is our turn we answer ``<the same state>:<f|c|r>``.  The client rebuilds
each hand on the engine from the betting string and the cards it can see (unknown opponent cards
are stand-ins that never reach a computation: they are only used until shown), and drives the
player exactly as :func:`loki.players.table.play_hand` does (``begin_hand``, ``observe`` for every event,
``act`` on our turns, ``end_hand``).  The same player object is kept for the whole match.

Seats: by default (``fixed_seats=True``) the player sees a fixed table — seat ``(position +
hand) mod n``, the ACPC dealer's seat rotation undone — with a moving button, so its opponent
models follow the same opponents from hand to hand.

>>> m = parse_matchstate("MATCHSTATE:0:0:cc/r:5d5c|/8dAs8s")
>>> m.position, m.hand, m.betting, m.hole_cards, m.board
(0, 0, 'cc/r', ('5d5c', ''), '8dAs8s')
"""

from __future__ import annotations

import logging
import math
import socket
import time
from dataclasses import dataclass

from loki.cards import parse_cards
from loki.engine import CALL, Action, HandState, new_hand
from loki.errors import ConfigError, PeerError, ProtocolError
from loki.io.gamedef import AcpcGame
from loki.io.netlines import MAX_LINE, LineReader, LineTooLong, PeerClosed, PeerTimeout, clip, send_line

__all__ = [
    "MatchState",
    "parse_matchstate",
    "format_matchstate",
    "AcpcClient",
    "HandTracker",
    "ProtocolError",
    "play_acpc_match",
]

log = logging.getLogger("loki.acpc")
VERSION = "VERSION:2.0.0"


@dataclass(frozen=True)
class MatchState:
    """A parsed ``MATCHSTATE`` (``text`` is the message without the line end)."""

    position: int
    hand: int
    betting: str
    hole_cards: tuple[str, ...]
    board: str
    text: str


def parse_matchstate(line: str, n_players: int | None = None) -> MatchState:
    """Parse ``MATCHSTATE:<position>:<hand>:<betting>:<cards>``.

    Raises:
        ProtocolError: malformed message.
    """
    text = line.rstrip("\r\n")
    parts = text.split(":")
    if len(parts) != 5 or parts[0] != "MATCHSTATE":
        raise ProtocolError(f"malformed MATCHSTATE message {text!r}")
    _, pos, hand, betting, cards = parts
    try:
        position, hid = int(pos), int(hand)
    except ValueError:
        raise ProtocolError(f"malformed position/hand number in {text!r}") from None
    if any(ch not in "fcr/" for ch in betting):
        raise ProtocolError(f"unsupported betting string {betting!r} in {text!r} (limit betting only)")
    segs = cards.split("/")
    holes = tuple(segs[0].split("|"))
    if n_players is not None and len(holes) != n_players:
        raise ProtocolError(f"{len(holes)} hole-card sections for {n_players} players in {text!r}")
    if not 0 <= position < len(holes):
        raise ProtocolError(f"position {position} out of range in {text!r}")
    if len(segs) - 1 != betting.count("/"):
        raise ProtocolError(f"{len(segs) - 1} board sections for betting {betting!r} in {text!r}")
    for h in holes:
        if len(h) not in (0, 4):
            raise ProtocolError(f"bad hole cards {h!r} in {text!r}")
    if not holes[position]:
        raise ProtocolError(f"no hole cards for our position {position} in {text!r}")
    board = "".join(segs[1:])
    try:
        parse_cards("".join(holes) + board)
    except ValueError as e:
        raise ProtocolError(f"bad cards in {text!r}: {e}") from None
    return MatchState(position, hid, betting, holes, board, text)


def format_matchstate(position: int, hand: int, betting: str, hole_cards, board: str) -> str:
    """``MATCHSTATE:...`` text (``board`` all visible board cards; sections follow ``betting``)."""
    rounds = betting.count("/")
    segs = ["", board[0:6], board[6:8], board[8:10]][1 : rounds + 1]
    return f"MATCHSTATE:{position}:{hand}:{betting}:{'|'.join(hole_cards)}" + "".join("/" + s for s in segs)


class HandTracker:
    """Rebuilds the hand of one :class:`MatchState` on the engine and feeds a player its events.

    ``update(ms)`` returns the action to send (an :class:`Action`) when it is our turn, else None.
    """

    def __init__(self, game: AcpcGame, player, fixed_seats: bool = True):
        self.game = game
        self.player = player
        self.fixed_seats = fixed_seats
        self.hand: int | None = None
        self.offset = 0
        self.seen = 0
        self.finished = True
        self.state: HandState | None = None
        self.hands_played = 0
        self.total = 0.0

    def _seat(self, position: int) -> int:
        return (position + self.offset) % self.game.n_players

    def rebuild(self, ms: MatchState) -> HandState:
        """The engine state of ``ms`` (opponents' unknown cards filled with unused stand-ins)."""
        n = self.game.n_players
        known = set(parse_cards("".join(ms.hole_cards) + ms.board))
        spare = (c for c in range(52) if c not in known)
        holes: list[list[int] | None] = [None] * n
        for pos, h in enumerate(ms.hole_cards):
            cards = parse_cards(h) if h else [next(spare), next(spare)]
            holes[self._seat(pos)] = cards
        s = new_hand(
            self.game.config, (self.game.button + self.offset) % n, hole_cards=holes, board=parse_cards(ms.board)
        )
        s.apply_many(ms.betting)
        return s

    def update(self, ms: MatchState) -> Action | None:
        n = self.game.n_players
        if ms.hand != self.hand:
            if not self.finished:
                log.warning("hand %s ended without a final state; starting hand %s", self.hand, ms.hand)
            self.hand = ms.hand
            self.offset = ms.hand % n if self.fixed_seats else 0
            self.seen = 0
            self.finished = False
            self.state = None
            seat = self._seat(ms.position)
            self.seat = seat
            self.player.begin_hand(
                seat,
                self.game.config,
                tuple(parse_cards(ms.hole_cards[ms.position])),
                (self.game.button + self.offset) % n,
            )
        elif self.finished:
            return None  # a repeated final state
        s = self.rebuild(ms)
        if self.state is not None and not s.history.startswith(self.state.history.rstrip("/")):
            raise ProtocolError(f"betting {ms.betting!r} does not extend {self.state.history!r}: {ms.text!r}")
        self.state = s
        events = s.events
        while self.seen < len(events):
            self.player.observe(events[self.seen])
            self.seen += 1
        if s.is_terminal:
            self.finished = True
            self.hands_played += 1
            self.total += s.payoffs[self.seat]
            self.player.end_hand(s.view(self.seat))
            return None
        if s.current_player != self.seat:
            return None
        legal = s.legal_actions()
        try:
            a = self.player.act(s.view(self.seat), legal)
            a = Action.parse(a)
        except Exception as e:  # noqa: BLE001 - a broken bot must not break the match
            log.error(
                "player %r failed to act on %r: %r; calling", getattr(self.player, "name", self.player), ms.text, e
            )
            return CALL
        if a not in legal:
            log.error("player returned illegal %s on %r; calling", a.name, ms.text)
            return CALL
        return a


#: Problems kept in :attr:`AcpcClient.errors` (all are counted in :attr:`AcpcClient.error_count`).
MAX_ERRORS = 100


def _our_turn_without_cards(game: AcpcGame, ms_text: str) -> bool | None:
    """Whose turn, from the betting string alone (stand-in cards): True/False, None if unknowable."""
    try:
        parts = ms_text.split(":")
        pos, betting = int(parts[1]), parts[3]
        n = game.n_players
        s = new_hand(
            game.config, game.button, hole_cards=[[2 * i, 2 * i + 1] for i in range(n)], board=list(range(40, 45))
        )
        s.apply_many(betting)
        return (not s.is_terminal) and s.current_player == pos
    except Exception:  # noqa: BLE001
        return None


class AcpcClient:
    """Connects ``player`` to an ACPC dealer at ``host:port`` and plays the match.

    The client is as careful with the dealer as the dealer is with it: lines longer than
    ``max_line`` bytes end the match with a :class:`~loki.errors.PeerError` (at most that many bytes
    are buffered); every message must arrive complete within ``timeout`` seconds of the previous one
    (comment lines, malformed lines and bytes trickled slowly do not extend it); a message whose hand
    number is lower than the current hand's is rejected (logged in :attr:`errors`, not answered); a
    state is never answered twice.  :attr:`errors` keeps the first :data:`MAX_ERRORS` problems,
    :attr:`error_count` counts all.

    Args:
        game: the :class:`AcpcGame` of the match.
        player: a :class:`~loki.players.base.Player` (kept for the whole match).
        fixed_seats: present a fixed table to the player (see the module docstring).
        timeout: seconds allowed for each message from the dealer (None: no limit).
        max_line: the longest line accepted from the dealer, in bytes.

    Raises:
        ConfigError: ``port`` outside 0..65535 or a ``timeout`` that is not positive.
    """

    def __init__(
        self,
        game: AcpcGame,
        player,
        host: str = "127.0.0.1",
        port: int = 0,
        *,
        fixed_seats: bool = True,
        timeout: float | None = None,
        max_line: int = MAX_LINE,
    ):
        if not isinstance(port, int) or not 0 <= port <= 65535:
            raise ConfigError(f"port {port}: out of range (expected 0..65535)")
        if timeout is not None and not timeout > 0:
            raise ConfigError(f"--timeout {timeout}: expected a positive number of seconds")
        self.game = game
        self.player = player
        self.host = host
        self.port = port
        self.timeout = timeout
        self.max_line = max_line
        self.tracker = HandTracker(game, player, fixed_seats)
        self.errors: list[str] = []
        self.error_count = 0
        self.messages = 0
        self.seconds: float | None = None  # wall time of the match (set by play_acpc_match)
        self._answered: set[str] = set()  # states answered in the current hand
        self._hand: int | None = None  # the highest hand number seen

    @property
    def hands_played(self) -> int:
        return self.tracker.hands_played

    @property
    def total(self) -> float:
        """Chips won over the hands played."""
        return self.tracker.total

    def to_dict(self) -> dict:
        """A JSON-able summary: the player, hands, chips, sb/hand, protocol errors, seconds."""
        h = self.hands_played
        sb = self.game.config.small_bet
        return {
            "player": getattr(self.player, "name", str(self.player)),
            "dealer": f"{self.host}:{self.port}",
            "hands": h,
            "chips": self.total,
            "sb_per_hand": self.total / sb / h if h else None,
            "protocol_errors": self.error_count,
            "errors": list(self.errors),
            "seconds": None if self.seconds is None else round(self.seconds, 3),
        }

    def _error(self, text: str) -> None:
        self.error_count += 1
        if len(self.errors) < MAX_ERRORS:
            self.errors.append(text)
            log.error("%s", text)

    def handle_line(self, line: str) -> str | None:
        """Process one line from the dealer; return the response to send (without ``\\r\\n``) or None."""
        line = line.rstrip("\r\n")
        if not line or line[0] in "#;":
            return None
        self.messages += 1
        try:
            ms = parse_matchstate(line, self.game.n_players)
        except ProtocolError as e:
            return self._untrusted(line, str(e))
        if self._hand is not None and ms.hand < self._hand:
            self._error(
                f"hand number {ms.hand} after hand {self._hand}: hand numbers must not go backwards; "
                f"message ignored (line {clip(line)})"
            )
            return None
        if ms.hand != self._hand:
            self._hand = ms.hand
            self._answered.clear()
        if ms.text in self._answered:
            self._error(f"state {clip(ms.text)} came again: it was answered already and is not answered twice")
            return None
        try:
            a = self.tracker.update(ms)
        except Exception as e:  # noqa: BLE001
            return self._untrusted(line, f"cannot rebuild the hand: {e}")
        if a is None:
            return None
        self._answered.add(ms.text)
        return f"{ms.text}:{a.char}"

    def _untrusted(self, line: str, why: str) -> str | None:
        shown = clip(line)
        self._error(f"unexpected message: {clip(why)} (line {shown})")
        self.tracker.finished = True  # re-synchronise at the next hand
        turn = _our_turn_without_cards(self.game, line) if line.startswith("MATCHSTATE:") else False
        if turn and line not in self._answered:
            log.error("answering 'c' to the untrusted state %s", shown)
            self._answered.add(line)
            return f"{line}:c"
        return None

    def run(self, sock: socket.socket | None = None) -> AcpcClient:
        """Connect (unless ``sock`` is given), play until the dealer closes the connection.

        Raises:
            ConnectionError: the connection could not be made or was lost mid-hand (clear message).
            PeerError: the dealer sent no message within ``timeout`` or a line longer than ``max_line``.
        """
        where = f"the dealer at {self.host}:{self.port}"
        if sock is None:
            try:
                sock = socket.create_connection((self.host, self.port), timeout=self.timeout)
            except OSError as e:
                raise ConnectionError(f"cannot connect to the ACPC dealer at {self.host}:{self.port}: {e}") from None
        try:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except OSError:  # not a TCP socket (tests use socketpair)
            pass
        wait = math.inf if self.timeout is None else self.timeout
        reader = LineReader(sock, where, self.max_line)
        try:
            try:
                send_line(sock, VERSION, time.monotonic() + min(wait, 60.0), where)
            except PeerError as e:
                raise ConnectionError(str(e)) from None
            deadline = time.monotonic() + wait
            while True:
                try:
                    raw = reader.readline(deadline)
                except PeerClosed:
                    break
                except PeerTimeout:
                    raise PeerError(
                        f"{where} sent no message within {self.timeout:g} s (--timeout)"
                        + (f" in hand {self.tracker.hand}" if self.tracker.hand is not None else "")
                    ) from None
                except LineTooLong:
                    raise PeerError(f"{where} sent a line longer than {self.max_line} bytes") from None
                resp = self.handle_line(raw)
                if _is_state(raw):  # comments, garbage and trickled bytes do not extend the deadline
                    deadline = time.monotonic() + wait
                if resp is not None:
                    try:
                        send_line(sock, resp, time.monotonic() + min(wait, 60.0), where)
                    except PeerError as e:
                        raise ConnectionError(str(e)) from None
        finally:
            sock.close()
        if not self.tracker.finished:
            raise ConnectionError(
                f"the dealer at {self.host}:{self.port} closed the connection in the middle of hand {self.tracker.hand}"
            )
        return self


def _is_state(line: str) -> bool:
    """A well-formed ``MATCHSTATE`` line (the messages that restart the client's deadline)."""
    try:
        parse_matchstate(line)
    except ProtocolError:
        return False
    return True


def play_acpc_match(game: AcpcGame, player, host: str, port: int, **kw) -> AcpcClient:
    """Connect ``player`` and play a whole match; returns the finished :class:`AcpcClient`."""
    t0 = time.perf_counter()
    c = AcpcClient(game, player, host, port, **kw).run()
    c.seconds = time.perf_counter() - t0
    return c
