"""ACPC protocol 2.0.0 client: play a :class:`~loki.players.base.Player` against an ACPC dealer.

The dealer sends ``MATCHSTATE:<position>:<hand>:<betting>:<cards>`` for every change of the
hand's state; when it is our turn we answer ``<the same state>:<f|c|r>``.  The client rebuilds
each hand on the engine from the betting string and the cards it can see (unknown opponent cards
are stand-ins that never reach a computation: they are only used until shown, and a showdown that
does not show them is a protocol error, its hand not counted), and drives the
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
import re
import socket
import time
from dataclasses import dataclass

from loki.cards import format_cards, parse_cards
from loki.engine import CALL, STREET_NAMES, Action, HandState, new_hand
from loki.errors import ConfigError, PeerError, ProtocolError
from loki.io.gamedef import AcpcGame
from loki.io.netlines import (
    MAX_LINE,
    LineReader,
    LineTooLong,
    PeerClosed,
    PeerTimeout,
    check_timeout,
    clip,
    send_line,
)

__all__ = [
    "MatchState",
    "parse_matchstate",
    "format_matchstate",
    "canonical_cards",
    "our_turn_without_cards",
    "AcpcClient",
    "HandTracker",
    "ProtocolError",
    "play_acpc_match",
]

log = logging.getLogger("loki.acpc")
VERSION = "VERSION:2.0.0"


#: Board cards dealt on each betting round of hold'em (the ``numBoardCards`` of the bundled games).
BOARD_CARDS = (0, 3, 1, 1)
_UNSIGNED = re.compile(r"[0-9]+")
_CARDS = re.compile(r"(?:[2-9TJQKA][shdc])*")


@dataclass(frozen=True)
class MatchState:
    """A parsed ``MATCHSTATE`` (``text`` is the message as received, without the line end).

    Attributes:
        position: our position in this hand (0-based, as on the wire).
        hand: the hand number (the spec's unsigned integer: ``05`` and ``5`` are the same hand).
        betting: the limit betting string (``f``, ``c``, ``r``, ``/`` between rounds).
        hole_cards: per position, ``""`` or four characters (``"AsKs"``).
        board: every board card shown, concatenated (``"2c8c3h9c"``).
        text: the message as received.
    """

    position: int
    hand: int
    betting: str
    hole_cards: tuple[str, ...]
    board: str
    text: str

    @property
    def key(self) -> tuple[int, int, str]:
        """The decision the state asks for: ``(position, hand, betting)``, answered at most once (within a deal the
        cards follow from these; a message with the same key and other cards is no new decision but a broken one:
        :meth:`AcpcClient.handle_line`)."""
        return self.position, self.hand, self.betting

    @property
    def canonical(self) -> str:
        """The state in canonical spelling: numbers without leading zeros, each player's hole cards and each board
        section in :func:`loki.cards.format_cards` order of the sorted cards (:func:`canonical_cards`); two messages
        are the same state when their canonical spellings are equal (``05`` and ``5``, ``KsAs`` and ``AsKs``), and
        ``parse_matchstate(ms.canonical).canonical == ms.canonical``."""
        return _canonical(self.key, self.text)


def _sorted_cards(cards: str) -> str:
    """``cards`` in :func:`loki.cards.format_cards` order of the sorted cards; text that is not cards unchanged."""
    try:
        return format_cards(sorted(parse_cards(cards))) if cards else ""
    except ValueError:
        return cards


def canonical_cards(cards: str) -> str:
    """The ``<cards>`` field of a ``MATCHSTATE`` in canonical spelling: each player's hole cards and each board
    section in :func:`loki.cards.format_cards` order of the sorted cards; a section that is not cards is kept as it
    is (so that the field of a malformed message has a spelling too).

    >>> canonical_cards("AsKs|/8c3h2c/4d")
    'KsAs|/2c3h8c/4d'
    """
    segs = cards.split("/")
    return "/".join(["|".join(map(_sorted_cards, segs[0].split("|"))), *map(_sorted_cards, segs[1:])])


def _canonical(key: tuple, line: str) -> str:
    """The canonical spelling of the state ``line`` whose key (position, hand, betting) is ``key``: the key's numbers
    as read, its cards field in :func:`canonical_cards` spelling (a malformed line's too)."""
    return "MATCHSTATE:{}:{}:{}:{}".format(*key, canonical_cards(line.split(":", 4)[4]))


#: Digits a position or hand number may have (an unsigned 64-bit integer has at most 20; the ACPC dealer's are 32-bit).
MAX_DIGITS = 20


def _number(text: str, what: str, line: str) -> int:
    if not _UNSIGNED.fullmatch(text):
        raise ProtocolError(f"malformed {what} {clip(text, 20)} in {clip(line)}: expected an unsigned integer")
    if len(text) > MAX_DIGITS:
        raise ProtocolError(
            f"{what} of more than {MAX_DIGITS} digits (an unsigned 64-bit integer has 20): {clip(text, 20)} in "
            f"{clip(line, 60)}"
        )
    return int(text)


def parse_matchstate(line: str, n_players: int | None = None) -> MatchState:
    """Parse ``MATCHSTATE:<position>:<hand>:<betting>:<cards>`` by the grammar of the ACPC protocol (2.0.0, limit
    hold'em: ``../shared/acpc/protocol.txt``): unsigned integers, a limit betting string of at most four rounds,
    one hole-card section per player (empty or two cards) and one board section per round after the first with
    3, 1 and 1 cards, no card twice.  Whether the betting itself is legal is the engine's to say
    (:meth:`HandTracker.rebuild`).

    Raises:
        ProtocolError: a message that does not follow the grammar (the message quotes it, clipped).
    """
    text = line.rstrip("\r\n")
    parts = text.split(":")
    if len(parts) != 5 or parts[0] != "MATCHSTATE":
        raise ProtocolError(f"malformed MATCHSTATE message {clip(text)}")
    _, pos, hand, betting, cards = parts
    position, hid = _number(pos, "position", text), _number(hand, "hand number", text)
    if any(ch not in "fcr/" for ch in betting):
        raise ProtocolError(f"unsupported betting string {clip(betting, 40)} in {clip(text)} (limit betting only)")
    rounds = betting.count("/")
    if rounds >= len(BOARD_CARDS):
        raise ProtocolError(f"betting {clip(betting, 40)} has {rounds + 1} rounds, hold'em has {len(BOARD_CARDS)}")
    segs = cards.split("/")
    holes = tuple(segs[0].split("|"))
    if n_players is not None and len(holes) != n_players:
        raise ProtocolError(f"{len(holes)} hole-card sections for {n_players} players in {clip(text)}")
    if not position < len(holes):
        raise ProtocolError(f"position {position} out of range in {clip(text)}")
    if len(segs) - 1 != rounds:
        raise ProtocolError(f"{len(segs) - 1} board sections for betting {betting!r} in {clip(text)}")
    for h in holes:
        if len(h) not in (0, 4) or not _CARDS.fullmatch(h):
            raise ProtocolError(f"bad hole cards {clip(h, 20)} in {clip(text)}")
    if not holes[position]:
        raise ProtocolError(f"no hole cards for our position {position} in {clip(text)}")
    for r, seg in enumerate(segs[1:], start=1):
        if len(seg) != 2 * BOARD_CARDS[r] or not _CARDS.fullmatch(seg):
            raise ProtocolError(
                f"board section {r} {clip(seg, 20)} in {clip(text)}: the {STREET_NAMES[r]} shows "
                f"{BOARD_CARDS[r]} card(s)"
            )
    board = "".join(segs[1:])
    try:
        parse_cards("".join(holes) + board)
    except ValueError as e:
        raise ProtocolError(f"bad cards in {clip(text)}: {e}") from None
    return MatchState(position, hid, betting, holes, board, text)


def format_matchstate(position: int, hand: int, betting: str, hole_cards, board: str) -> str:
    """``MATCHSTATE:...`` text (``board`` all visible board cards; sections follow ``betting``).

    >>> format_matchstate(0, 0, "rrc/", ["TdAs", ""], "2c8c3h")
    'MATCHSTATE:0:0:rrc/:TdAs|/2c8c3h'
    """
    rounds = betting.count("/")
    segs = ["", board[0:6], board[6:8], board[8:10]][1 : rounds + 1]
    return f"MATCHSTATE:{position}:{hand}:{betting}:{'|'.join(hole_cards)}" + "".join("/" + s for s in segs)


class HandTracker:
    """Rebuilds the hand of one :class:`MatchState` on the engine and feeds a player its events.

    ``update(ms)`` returns the action to send (an :class:`Action`) when it is our turn, else None.

    A hand ends with its final state (:attr:`final`); after it only the same state again is accepted (silently)
    until a new hand number begins.  A hand given up after an untrusted message (``finished`` without a
    :attr:`final`) is followed again from the next hand number.
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
        self.position = -1
        self.cards: dict[int, str] = {}  # hole cards seen in this hand, per position
        self.board = ""  # board seen in this hand
        self.final: MatchState | None = None  # the final state of this hand, once it came

    def gave_up(self, hand: int) -> bool:
        """Whether hand number ``hand`` is the current hand and was given up after an untrusted message (its states
        are no longer followed; the next hand number is)."""
        return hand == self.hand and self.finished and self.final is None

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
        walk_betting(s, ms.betting, ms.text)
        return s

    def check_same_hand(self, ms: MatchState) -> None:
        """A later state of the current hand must keep its position, every card already shown (hole cards and
        board, in any order) and extend its betting.

        Raises:
            ProtocolError: the position, a player's hole cards or a board card changed within the hand.
        """
        if ms.position != self.position:
            raise ProtocolError(
                f"position {ms.position} in hand {ms.hand}, which began in position {self.position} "
                f"(a position does not change within a hand): {clip(ms.text)}"
            )
        for pos, h in enumerate(ms.hole_cards):
            before = self.cards.get(pos)
            if h and before is not None and set(parse_cards(h)) != set(parse_cards(before)):
                raise ProtocolError(
                    f"hole cards of position {pos} changed within hand {ms.hand}: {before}, then {h} ({clip(ms.text)})"
                )
        shown = min(len(ms.board), len(self.board))
        old, new = self.board[:shown], ms.board[:shown]
        if set(parse_cards(old[:6])) != set(parse_cards(new[:6])) or old[6:] != new[6:]:
            raise ProtocolError(f"board changed within hand {ms.hand}: {self.board}, then {ms.board} ({clip(ms.text)})")

    def _check_showdown(self, ms: MatchState, s: HandState) -> None:
        """At a showdown every player still in the hand shows their cards (the protocol's rule).

        Raises:
            ProtocolError: a showdown without the hole cards of some player still in the hand (their stand-in
                cards would decide the pots).
        """
        if not s.went_to_showdown:
            return
        missing = [pos for pos, h in enumerate(ms.hole_cards) if not h and not s.folded[self._seat(pos)]]
        if missing:
            which = ("position " if len(missing) == 1 else "positions ") + ", ".join(map(str, missing))
            raise ProtocolError(
                f"showdown without the hole cards of {which} in {clip(ms.text)}: every player still in the hand "
                f"shows their cards at a showdown; hand {ms.hand} is not counted"
            )

    def remember_cards(self, ms: MatchState) -> None:
        """Keep the cards ``ms`` shows (for :meth:`check_same_hand`)."""
        for pos, h in enumerate(ms.hole_cards):
            if h:
                self.cards.setdefault(pos, h)
        if len(ms.board) > len(self.board):
            self.board = ms.board

    def update(self, ms: MatchState) -> Action | None:
        """Follow ``ms`` (the next state from the dealer): feed the player the hand's new events, and return our
        action when it is our turn (else None).

        Raises:
            ProtocolError: ``ms`` does not follow from the hand so far (:meth:`check_same_hand`, betting that does
                not extend the last state's), comes after the final state of its hand number (the same final state
                again is no error), or is a showdown without the hole cards of a player still in the hand (the hand
                ends there and is not counted: its payoffs cannot be known).
        """
        n = self.game.n_players
        if ms.hand != self.hand:
            if not self.finished:
                log.warning("hand %s ended without a final state; starting hand %s", self.hand, ms.hand)
            self.hand = ms.hand
            self.offset = ms.hand % n if self.fixed_seats else 0
            self.seen = 0
            self.finished = False
            self.state = None
            self.position = ms.position
            self.cards, self.board = {}, ""
            self.final = None
            seat = self._seat(ms.position)
            self.seat = seat
            self.player.begin_hand(
                seat,
                self.game.config,
                tuple(parse_cards(ms.hole_cards[ms.position])),
                (self.game.button + self.offset) % n,
            )
        elif self.final is not None:
            if ms.canonical == self.final.canonical:
                return None  # the final state again
            raise ProtocolError(
                f"state {clip(ms.text)} after the final state {clip(self.final.text)} of hand {ms.hand}: "
                "a hand number is not dealt twice"
            )
        elif self.finished:
            return None  # a hand given up (the client answers its states, AcpcClient._given_up)
        else:
            self.check_same_hand(ms)
        s = self.rebuild(ms)
        self.remember_cards(ms)
        if self.state is not None and not s.history.startswith(self.state.history.rstrip("/")):
            raise ProtocolError(f"betting {ms.betting!r} does not extend {self.state.history!r}: {ms.text!r}")
        if s.is_terminal:
            self.finished, self.final = True, ms
            self._check_showdown(ms, s)
        self.state = s
        events = s.events
        while self.seen < len(events):
            self.player.observe(events[self.seen])
            self.seen += 1
        if s.is_terminal:
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


def walk_betting(state: HandState, betting: str, text: str = "") -> HandState:
    """Apply an ACPC limit betting string to ``state`` (a fresh hand), checking that every ``/`` closes a round
    exactly when the engine's betting round is over: a board is never sent before its round
    (``MATCHSTATE:1:0:/:|AsKs/2c3d4h`` is refused) and a closed round is always followed by its ``/``.

    Raises:
        ProtocolError: a misplaced or missing ``/``, an illegal action or betting after the end of the hand;
            the message quotes ``text`` (the message, clipped).
    """
    slashes = 0
    at = f" in {clip(text)}" if text else ""
    for i, ch in enumerate(betting):
        if ch == "/":
            if state.is_terminal or state.round <= slashes:
                nxt = STREET_NAMES[min(slashes + 1, 3)]
                raise ProtocolError(
                    f"betting {betting!r}: '/' at position {i} before the {STREET_NAMES[slashes]} betting is over "
                    f"(the {nxt} sent before its round){at}"
                )
            slashes += 1
            continue
        if state.is_terminal:
            raise ProtocolError(f"betting {betting!r} goes on after the end of the hand (position {i}){at}")
        if slashes != state.round:
            raise ProtocolError(
                f"betting {betting!r}: the {STREET_NAMES[slashes]} betting is over at position {i}, "
                f"a '/' and the {STREET_NAMES[state.round]} were expected{at}"
            )
        a = Action.parse(ch)
        if a not in state.legal_actions():
            raise ProtocolError(f"betting {betting!r}: {a.name.lower()} at position {i} is not legal{at}")
        try:
            state.apply(a)
        except ValueError:  # the round closed and the engine has no board cards for the next one
            raise ProtocolError(
                f"betting {betting!r}: the {STREET_NAMES[slashes]} betting is over at position {i}, but no '/' and "
                f"{STREET_NAMES[min(slashes + 1, 3)]} follow{at}"
            ) from None
    if not state.is_terminal and slashes != state.round:
        raise ProtocolError(
            f"betting {betting!r}: the {STREET_NAMES[slashes]} betting is over, but no '/' and "
            f"{STREET_NAMES[state.round]} follow{at}"
        )
    return state


#: Problems kept in :attr:`AcpcClient.errors` (all are counted in :attr:`AcpcClient.error_count`).
MAX_ERRORS = 100


def our_turn_without_cards(game: AcpcGame, ms_text: str) -> bool | None:
    """Whether the ACPC state ``ms_text`` (``MATCHSTATE:position:hand:betting:cards``) is its position's turn, from
    the betting string alone (stand-in cards): True/False, None if unknowable (a line that does not split into those
    fields, or a betting string that :func:`walk_betting` refuses).

    >>> from loki.io.gamedef import bundled_gamedef
    >>> g = bundled_gamedef(2)
    >>> our_turn_without_cards(g, "MATCHSTATE:1:0::|AsKs"), our_turn_without_cards(g, "MATCHSTATE:0:0::AsKs|")
    (True, False)
    """
    try:
        parts = ms_text.split(":")
        pos, betting = int(parts[1]), parts[3]
        n = game.n_players
        s = new_hand(
            game.config, game.button, hole_cards=[[2 * i, 2 * i + 1] for i in range(n)], board=list(range(40, 45))
        )
        walk_betting(s, betting)
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
    state is never answered twice, however it is spelled (:attr:`MatchState.key`, :meth:`handle_line`);
    a message that breaks the protocol's grammar or the hand so far is a protocol error in :attr:`errors`.  :attr:`errors` keeps the first :data:`MAX_ERRORS` problems,
    :attr:`error_count` counts all.

    Args:
        game: the :class:`AcpcGame` of the match.
        player: a :class:`~loki.players.base.Player` (kept for the whole match).
        fixed_seats: present a fixed table to the player (see the module docstring).
        timeout: seconds allowed for each message from the dealer (None: no limit; at most
            :data:`~loki.io.netlines.MAX_TIMEOUT`, one week).
        max_line: the longest line accepted from the dealer, in bytes.

    Raises:
        ConfigError: ``port`` outside 0..65535, or a ``timeout`` that is not positive or above
            :data:`~loki.io.netlines.MAX_TIMEOUT` (the message names the cap).
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
        check_timeout(timeout, "--timeout", optional=True)
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
        #: the states answered in the current hand: key (position, hand, betting) -> (canonical spelling, the line)
        self._answered: dict[tuple, tuple[str, str]] = {}
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
        """Process one line from the dealer; return the response to send (without ``\\r\\n``) or None.

        A state is answered at most once, whatever its spelling: states are compared by :attr:`MatchState.key`
        (position, hand number as a number, betting, cards in sorted order), so ``...:5::|AsKs``, ``...:05::|AsKs``
        and ``...:+5::|KsAs`` are one state (the last is not even well-formed).  A message that breaks the grammar
        or the hand so far (hole cards or board that change within a hand, a board sent before its round, betting
        that does not extend the last state's, any other state after the final state of its hand number, a showdown
        without the cards of a player still in the hand) is a protocol error in :attr:`errors`; when it is our turn
        and that state was not answered yet, it is answered ``c`` (:meth:`_untrusted`), and so are the later states of
        a hand given up after such a message that are our turn (:meth:`_given_up`).
        """
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
        self._enter_hand(ms.hand)
        if ms.key in self._answered:
            canonical, first = self._answered[ms.key]
            if canonical == ms.canonical:
                self._error(f"state {clip(ms.text)} came again: it was answered already and is not answered twice")
            else:
                self._error(
                    f"state {clip(ms.text)} asks again for the decision of {clip(first)} with other "
                    "cards: that decision was answered already and is not answered twice"
                )
            return None
        if self.tracker.gave_up(ms.hand):
            return self._given_up(ms)
        try:
            a = self.tracker.update(ms)
        except ProtocolError as e:
            return self._untrusted(line, str(e))
        except Exception as e:  # noqa: BLE001
            return self._untrusted(line, f"cannot rebuild the hand: {e}", broken=True)
        if a is None:
            return None
        self._answered[ms.key] = (ms.canonical, ms.text)
        return f"{ms.text}:{a.char}"

    def _enter_hand(self, hand: int) -> None:
        """A message of hand ``hand`` arrived: a new hand forgets the states answered in the last one."""
        if hand != self._hand:
            self._hand = hand
            self._answered.clear()

    def _given_up(self, ms: MatchState) -> str | None:
        """A well-formed state of a hand given up after an untrusted message: answered ``c`` when it is our turn (the
        player no longer follows the hand, and the dealer would time us out), else ignored."""
        if not our_turn_without_cards(self.game, ms.text):
            return None
        log.warning("hand %s was given up after an untrusted message: answering 'c' to %s", ms.hand, clip(ms.text))
        self._answered[ms.key] = (ms.canonical, ms.text)
        return f"{ms.text}:c"

    def _untrusted(self, line: str, why: str, broken: bool = False) -> str | None:
        """Report a message that cannot be trusted; answer ``c`` if it is a state, our turn, not answered yet (so
        that the dealer does not time us out).  The hand is given up (followed again from the next hand) when we
        answered on the player's behalf or the tracker broke (``broken``); otherwise nothing was changed and the
        hand goes on with the next good message."""
        shown = clip(line)
        self._error(f"unexpected message: {clip(why)} (line {shown})")
        key = _loose_key(line)
        answer = None
        if key is not None:
            if isinstance(key[1], int) and (self._hand is None or key[1] > self._hand):
                self._enter_hand(key[1])
            if key not in self._answered and our_turn_without_cards(self.game, line):
                log.error("answering 'c' to the untrusted state %s", shown)
                self._answered[key] = (_canonical(key, line), line)
                answer = f"{line}:c"
        if broken or answer is not None:
            self.tracker.finished = True  # re-synchronise at the next hand
        return answer

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
            except (OSError, ValueError) as e:  # ValueError: a host name idna cannot encode ('a..b', a 64-char label)
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
                    if reader.buf.strip():  # the dealer hung up partway through a line: say so, do not drop it silently
                        self._error(
                            f"{where} closed the connection partway through a line "
                            f"{clip(bytes(reader.buf).decode('ascii', 'replace'))}: the line was not read"
                        )
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


def _loose_key(line: str) -> tuple | None:
    """:attr:`MatchState.key` of a message that does not parse, read as leniently as Python's ``int`` reads
    numbers (``+5``, `` 5``), so that a malformed spelling of a state answered already is not answered again;
    None for a line that is not a ``MATCHSTATE`` at all."""
    parts = line.split(":")
    if parts[0] != "MATCHSTATE" or len(parts) < 5:
        return None

    def num(x: str) -> int | str:
        if len(x) > MAX_DIGITS + 2:  # an absurd number is no hand to follow (the grammar's bound, a sign and a space)
            return x
        try:
            return int(x)
        except ValueError:
            return x

    return num(parts[1]), num(parts[2]), parts[3]


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
