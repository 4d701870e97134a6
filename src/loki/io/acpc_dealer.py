"""An ACPC protocol 2.0.0 dealer on loopback, as strict as the ACPC dealer: our bots and anyone's ACPC
bots can play each other.

Like the ACPC dealer (``../shared/acpc/protocol.txt``; its server, ``dealer.c`` of v1.0.42), it
listens on one port per player (printed in player order), expects ``VERSION:2.0.0`` from each, sends
every player its view (``MATCHSTATE``) after every change of the hand, reads the acting player's
answer, rotates the seats between hands (player ``p`` sits in position ``(p - hand) mod n``), writes a
log of ``STATE:`` lines and a final ``SCORE:`` line (per player, in player order).

**Cards.**  With a ``seed`` (0 .. 2**32 - 1) it deals exactly the cards the ACPC dealer deals with that
seed (:mod:`loki.io.acpc_deal`: MT19937 ``init_genrand(seed)``, the ACPC deck order and draw order).

**Time.**  Three budgets per player, counted as total elapsed time from the moment its state was
sent until a valid answer arrived (comment lines, skipped lines and bytes trickled one at a time
do not extend them): ``t_response`` per action, ``t_hand`` per hand (the sum of its response times
in one hand) and ``t_per_hand`` per hand on average over the match (a match budget of
``t_per_hand x n_hands``); the ACPC dealer's ``--t_response``, ``--t_hand`` and ``--t_per_hand``.

**Answers.**  Lines starting with ``#`` or ``;`` are ignored; a line that is not a state followed by
``:<action>`` (malformed), or answers another state than the one asked (stale, un-requested), is
skipped with a warning and the player keeps its deadline.  An answer's action is read as the ACPC dealer reads
it: its first letter (``f``/``F`` fold, ``c``/``C``/``k``/``K`` call or check, ``r``/``R``/``b``/``B`` bet or raise;
in a limit game the rest, such as a size, is ignored).  An answer to the current state without an action, with
another letter, or with an action that is not legal (fold when checking is free, raise after the cap) is taken as a
call with a warning, as the ACPC dealer does; ``max_invalid`` invalid actions of one player end the match (default:
no limit, the ACPC dealer's default).

**Ending the match.**  A player that does not answer within its budgets, closes its connection, sends
a line longer than ``max_line`` bytes or stops reading its messages ends the match at once, as the
protocol recommends: :attr:`DealerResult.abort` names the player (1-based), the hand (the ACPC
hand number, 0-based as in the log) and the reason; the log keeps the finished hands and ends with a
``# match ended ...`` comment instead of the ``SCORE`` line.  No peer behaviour raises: every
problem with a peer ends in the result (the exceptions are bad arguments and an unwritable log).
Memory is bounded: lines are read through :class:`~loki.io.netlines.LineReader` (at most
``max_line`` bytes buffered) and at most :data:`MAX_WARNINGS` warning texts are kept (all are counted).
"""

from __future__ import annotations

import errno
import logging
import math
import socket
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from loki.cards import format_cards
from loki.engine import CALL, Action, new_hand
from loki.errors import ConfigError, OutputPathError
from loki.io.acpc_client import format_matchstate
from loki.io.acpc_deal import AcpcDeals
from loki.io.acpc_log import HandRecord, format_payoff, format_state_line
from loki.io.gamedef import AcpcGame
from loki.io.names import name_problem as names_problem
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

__all__ = ["AcpcDealer", "DealerResult", "MatchAbort", "MAX_WARNINGS"]

log = logging.getLogger("loki.dealer")

#: Warning texts kept in a :class:`DealerResult` (and logged); further ones are only counted.
MAX_WARNINGS = 100


@dataclass(frozen=True)
class MatchAbort:
    """Why a match ended early.

    Attributes:
        seat: the player (1-based, player order: the ``--player`` / ``--port`` order).
        name: its name.
        hand: the ACPC hand number (0-based, as in the log), or None before the first hand (connecting).
        reason: ``"timeout"``, ``"closed"``, ``"line-too-long"``, ``"not-reading"``, ``"no-connection"``,
            ``"bad-version"``, ``"invalid-actions"`` or ``"exited"`` (a seat's process ended before it connected).
        message: one line naming the player, the hand and what happened.
    """

    seat: int
    name: str
    hand: int | None
    reason: str
    message: str

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "name": self.name, "hand": self.hand, "reason": self.reason, "message": self.message}


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot name a player in an ACPC log (its ``STATE`` and ``SCORE`` lines), or None when it can.

    >>> name_problem("loki2-BR"), name_problem("a|b"), name_problem("é")
    (None, "a ':' or '|' (the log's separators)", 'not printable ASCII (an ACPC log is ASCII)')
    """
    if ":" in name or "|" in name:
        return "a ':' or '|' (the log's separators)"
    why = names_problem(name, ascii_only=True)
    if why is not None and "printable" in why:
        return "not printable ASCII (an ACPC log is ASCII)"
    return why


class _Abort(Exception):
    def __init__(self, abort: MatchAbort):
        super().__init__(abort.message)
        self.abort = abort


@dataclass
class DealerResult:
    """What a match produced.

    Attributes:
        names: player names (player order).
        score: chips won per player over the finished hands.
        states: the ``STATE`` lines of the finished hands.
        payoffs: chips per finished hand per player (player order).
        transcript: ``(direction, player 1-based, message)`` when asked for (accepted answers only).
        warnings: the first :data:`MAX_WARNINGS` warnings (skipped lines, invalid actions).
        warning_count: all warnings.
        abort: why the match ended early, or None when every hand was played.
        log_error: why the log could not be written (the match stopped there: its hands so far are in this result;
            the log holds the lines written before, the last one perhaps cut off), or None.
        n_hands: hands the match was to have.
        small_bet: chips of a small bet (for sb/hand).
        seconds: wall time of the match (connecting included).
    """

    names: list[str]
    score: list[float]
    states: list[str] = field(default_factory=list)
    payoffs: list[list[float]] = field(default_factory=list)
    transcript: list[tuple[str, int, str]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    warning_count: int = 0
    abort: MatchAbort | None = None
    log_error: str | None = None
    n_hands: int = 0
    small_bet: int = 10
    seconds: float = 0.0

    @property
    def complete(self) -> bool:
        """Every hand was played."""
        return self.abort is None and self.log_error is None and len(self.states) == self.n_hands

    @property
    def hands_played(self) -> int:
        return len(self.states)

    @property
    def errors(self) -> list[str]:
        """The warnings, then the reason the match ended early (if it did) and the log's error (if any)."""
        return (
            self.warnings + ([self.abort.message] if self.abort else []) + ([self.log_error] if self.log_error else [])
        )

    @property
    def score_line(self) -> str:
        return f"SCORE:{'|'.join(format_payoff(x) for x in self.score)}:{'|'.join(self.names)}"

    def sb_per_hand(self, level: float = 0.95) -> list[tuple[float, float | None]]:
        """Per player: small bets won per hand and the half-width of its Student-t interval over the
        hands (None with fewer than 2 hands); NaN mean with no hand."""
        from loki.stats import mean_ci

        out: list[tuple[float, float | None]] = []
        for p in range(len(self.names)):
            x = [row[p] / self.small_bet for row in self.payoffs]
            if not x:
                out.append((math.nan, None))
                continue
            m, h = mean_ci(x, level)
            out.append((float(m), None if math.isnan(h) else float(h)))
        return out

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able summary: players (seat 1-based, name, chips, sb/hand and ``ci``, the half-width of its
        95 % interval), hands, the SCORE line, completeness, the abort record and the warnings."""
        rates = self.sb_per_hand()
        return {
            "complete": self.complete,
            "hands": self.n_hands,
            "hands_played": self.hands_played,
            "players": [
                {
                    "seat": i + 1,
                    "name": nm,
                    "chips": self.score[i],
                    "sb_per_hand": None if math.isnan(rates[i][0]) else rates[i][0],
                    "ci": rates[i][1],
                }
                for i, nm in enumerate(self.names)
            ],
            "score_line": self.score_line if self.complete else None,
            "abort": self.abort.to_dict() if self.abort else None,
            "log_error": self.log_error,
            "warnings": list(self.warnings),
            "warning_count": self.warning_count,
            "seconds": round(self.seconds, 3),
        }


class _Seat:
    def __init__(self, sock: socket.socket, reader: LineReader):
        self.sock = sock
        self.reader = reader
        self.used_hand = 0.0
        self.used_match = 0.0
        self.invalid = 0
        self.warned = 0


#: The action letters the ACPC dealer reads (its ``readAction``: fold ``f``/``F``, call ``c``/``C`` or check
#: ``k``/``K``, raise ``r``/``R`` or bet ``b``/``B``); in a limit game the rest of the answer after the letter is
#: ignored (``r5`` is a raise).
_ACPC_ACTIONS = {
    "f": Action.FOLD, "F": Action.FOLD, "c": Action.CALL, "C": Action.CALL, "k": Action.CALL, "K": Action.CALL,
    "r": Action.RAISE, "R": Action.RAISE, "b": Action.RAISE, "B": Action.RAISE,
}  # fmt: skip


class AcpcDealer:
    """Deal a match of ``game`` to ``n_players`` connected clients (module docstring).

    Args:
        game: the :class:`AcpcGame`.
        n_hands: hands in the match.
        seed: seed of the ACPC deal, 0 .. 2**32 - 1 (:mod:`loki.io.acpc_deal`).
        names: player names (default ``p1..pn``).
        deals: optional ``callable(hand) -> (hole cards per position, board)`` (card strings) to
            replay given cards (e.g. those of an ACPC log) instead of dealing from ``seed``.
        host, ports: where to listen (ports ``0``: chosen by the system; see :attr:`ports`).
        t_response: seconds allowed per action (> 0).
        t_hand: seconds a player may use over one hand (> 0; default: no limit beyond ``t_response``).
        t_per_hand: average seconds a player may use per hand over the match (> 0; default: no limit).
        t_connect: seconds to wait for every player to connect and say its version.
            Every time limit is at most :data:`~loki.io.netlines.MAX_TIMEOUT` (one week).
        max_invalid: invalid actions (taken as calls) a player may send before the match ends (None: no limit).
        max_line: longest line accepted from a player, in bytes.
        log_path: write the ACPC log (``STATE`` lines and ``SCORE``) there (checked here, opened
            by :meth:`run` before the players are accepted).
        transcript: keep the message transcript in the result.
        watch: asked every :attr:`POLL` seconds while the players connect; returns None, or ``(player index
            0-based, text)`` for a player that is gone (e.g. an external bot whose process exited), which ends the
            match at once with reason ``"exited"`` (:func:`loki.io.acpc_match.run_match` uses it).

    Raises:
        ConfigError: bad names, hand count, seed, ports (out of 0..65535) or time limits (not positive, or
            above :data:`~loki.io.netlines.MAX_TIMEOUT`: the message names the cap).
        OutputPathError: a ``log_path`` that cannot be written.
    """

    def __init__(
        self,
        game: AcpcGame,
        n_hands: int,
        seed: int = 0,
        names: Sequence[str] | None = None,
        *,
        deals: Callable | None = None,
        host: str = "127.0.0.1",
        ports: Sequence[int] | None = None,
        t_response: float = 10.0,
        t_hand: float | None = None,
        t_per_hand: float | None = None,
        t_connect: float = 60.0,
        max_invalid: int | None = None,
        max_line: int = MAX_LINE,
        log_path=None,
        transcript: bool = False,
        watch: Callable[[], tuple[int, str] | None] | None = None,
    ):
        n = game.n_players
        if names is None or len(names) == 0:
            names = [f"p{i + 1}" for i in range(n)]
        if len(names) != n:
            raise ConfigError(f"{len(names)} names for a {n}-player game: expected one per seat")
        for x in names:
            why = name_problem(x)
            if why:
                raise ConfigError(f"player name {x!r}: {why}")
        if n_hands < 1:
            raise ConfigError(f"n_hands = {n_hands}: expected at least one hand")
        if deals is None:
            AcpcDeals(seed, n)  # checks the seed
        self.game, self.n_hands, self.seed, self.names = game, n_hands, seed, list(names)
        self.deals = deals
        self.host = host
        self._want_ports = list(ports) if ports else [0] * n
        if len(self._want_ports) != n:
            raise ConfigError(f"{len(self._want_ports)} ports for {n} players: expected one per seat")
        bad = [p for p in self._want_ports if not 0 <= p <= 65535]
        if bad:
            raise ConfigError(f"port {bad[0]}: out of range (expected 0..65535)")
        check_timeout(t_response, "t_response")
        check_timeout(t_connect, "t_connect")
        check_timeout(t_hand, "t_hand", optional=True)
        check_timeout(t_per_hand, "t_per_hand", optional=True)
        if max_invalid is not None and max_invalid < 0:
            raise ConfigError(f"max_invalid = {max_invalid}: expected >= 0 (or None: no limit)")
        if max_line < 64:
            raise ConfigError(f"max_line = {max_line}: expected at least 64 bytes")
        self.t_response, self.t_hand, self.t_per_hand, self.t_connect = t_response, t_hand, t_per_hand, t_connect
        self.max_invalid, self.max_line = max_invalid, max_line
        if log_path is not None:
            from loki.io.outpath import check_output_path

            log_path = check_output_path(log_path, "--out")
        self.log_path = log_path
        self.keep_transcript = transcript
        self.watch = watch
        self._listeners: list[socket.socket] = []
        self.ports: list[int] = []
        self._out: Any = None  # the log, once listen() opened it

    # ------------------------------------------------------------------ connections
    def listen(self) -> list[int]:
        """Open one listening socket per player, and the log (its header written), so that a log that cannot be
        written is reported before any port is given out; returns the ports (player order).

        Raises:
            ConfigError: a port cannot be used (in use, not permitted, out of range); the message
                names it, and no socket is left open.
            OutputPathError: the log cannot be opened or its header written (no socket is left open).
        """
        if self._listeners:
            return self.ports
        for p in self._want_ports:
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            try:
                s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                s.bind((self.host, p))
                s.listen(1)
            except (OSError, OverflowError, ValueError) as e:  # ValueError: a host name idna cannot encode
                s.close()
                self.close()
                why = (
                    "in use"
                    if getattr(e, "errno", None) == errno.EADDRINUSE
                    else "out of range"
                    if isinstance(e, OverflowError)
                    else ""
                )
                raise ConfigError(f"cannot listen on {self.host}:{p}{' (' + why + ')' if why else ''}: {e}") from None
            self._listeners.append(s)
            self.ports.append(s.getsockname()[1])
        if self._out is None:
            self._out = self._open_log()
        return self.ports

    def close(self) -> None:
        """Close the listening sockets (those not yet used by :meth:`run`), and the log if :meth:`run` did not
        take it."""
        for s in self._listeners:
            s.close()
        self._listeners, self.ports = [], []
        out, self._out = self._out, None
        if out is not None:
            try:
                out.close()
            except OSError:
                pass

    def _who(self, p: int) -> str:
        return f"seat {p + 1} ({self.names[p]})"

    def _abort(self, p: int, hand: int | None, reason: str, text: str) -> _Abort:
        where = "" if hand is None else f" in hand {hand}"
        return _Abort(MatchAbort(p + 1, self.names[p], hand, reason, f"{self._who(p)}{where}: {text}"))

    #: Longest single wait of :meth:`_accept` between two looks at :attr:`watch` (seconds).
    POLL = 0.1

    def _connection(self, i: int, ls: socket.socket, deadline: float) -> socket.socket:
        """Player ``i``'s connection on its listening socket ``ls``, by ``deadline``; :attr:`watch` is asked
        every :attr:`POLL` seconds meanwhile (a seat that is gone ends the match at once)."""
        try:
            while True:
                gone = self.watch() if self.watch is not None else None
                if gone is not None:
                    p, text = gone
                    raise self._abort(p, None, "exited", text)
                left = deadline - time.monotonic()
                if left <= 0:
                    raise self._abort(
                        i,
                        None,
                        "no-connection",
                        f"did not connect to port {self.ports[i]} within {self.t_connect:g} s (t_connect)",
                    )
                ls.settimeout(min(left, self.POLL) if self.watch is not None else left)
                try:
                    conn, _ = ls.accept()
                    return conn
                except TimeoutError:
                    continue
                except OSError as e:
                    raise self._abort(
                        i, None, "no-connection", f"cannot accept a connection on port {self.ports[i]}: {e}"
                    ) from None
        finally:
            ls.close()

    def _accept(self, seats: list[_Seat]) -> None:
        deadline = time.monotonic() + self.t_connect
        for i, ls in enumerate(self._listeners):
            conn = self._connection(i, ls, deadline)
            try:
                conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            except OSError:
                pass
            seat = _Seat(conn, LineReader(conn, self._who(i), self.max_line))
            seats.append(seat)
            try:
                line = seat.reader.readline(deadline)
            except PeerTimeout:
                raise self._abort(
                    i, None, "timeout", f"did not send VERSION:2.0.0 within {self.t_connect:g} s (t_connect)"
                ) from None
            except LineTooLong:
                raise self._abort(i, None, "line-too-long", f"sent a line longer than {self.max_line} bytes") from None
            except PeerClosed:
                raise self._abort(i, None, "closed", "closed the connection before VERSION:2.0.0") from None
            if not line.startswith("VERSION:2."):
                raise self._abort(i, None, "bad-version", f"sent {clip(line, 80)} instead of VERSION:2.0.0")
        self._listeners = []

    # ------------------------------------------------------------------ the match
    def _send(self, seats: list[_Seat], result: DealerResult, p: int, msg: str, hand: int) -> float:
        if self.keep_transcript:
            result.transcript.append(("TO", p + 1, msg))
        try:
            send_line(seats[p].sock, msg, time.monotonic() + self.t_response, self._who(p))
        except PeerTimeout:
            raise self._abort(
                p, hand, "not-reading", f"did not read its messages for {self.t_response:g} s (t_response)"
            ) from None
        except PeerClosed as e:
            raise self._abort(p, hand, "closed", f"lost the connection ({str(e).split(': ', 1)[-1]})") from None
        return time.monotonic()

    def _warn(self, result: DealerResult, st: _Seat, text: str) -> None:
        result.warning_count += 1
        st.warned += 1
        if len(result.warnings) < MAX_WARNINGS:
            result.warnings.append(text)
            log.warning("%s", text)
        elif result.warning_count == MAX_WARNINGS + 1:
            log.warning("further warnings are counted, not shown")

    def _budget(self, st: _Seat) -> tuple[float, str]:
        """Seconds the seat may use for this answer, and how to name the limit that binds."""
        limits = [(self.t_response, f"within {self.t_response:g} s (t_response)")]
        if self.t_hand is not None:
            limits.append((self.t_hand - st.used_hand, f"within its {self.t_hand:g} s for the hand (t_hand)"))
        if self.t_per_hand is not None:
            total = self.t_per_hand * self.n_hands
            limits.append((total - st.used_match, f"within its {total:g} s for the match (t_per_hand x hands)"))
        return min(limits, key=lambda x: x[0])

    def _receive(
        self, seats: list[_Seat], result: DealerResult, p: int, msg: str, hand: int, t_sent: float, legal
    ) -> Action:
        st = seats[p]
        allowed, limit = self._budget(st)
        deadline = t_sent + max(allowed, 0.0)
        who = self._who(p)
        while True:
            try:
                line = st.reader.readline(deadline)
            except PeerTimeout:
                raise self._abort(p, hand, "timeout", f"did not answer {limit}") from None
            except LineTooLong:
                raise self._abort(p, hand, "line-too-long", f"sent a line longer than {self.max_line} bytes") from None
            except PeerClosed as e:
                raise self._abort(p, hand, "closed", str(e).split(": ", 1)[-1]) from None
            if not line or line[0] in "#;":
                continue
            rest = line[len(msg) :] if line.startswith(msg) else None
            if rest is None or (rest and rest[0] != ":"):
                head, sep, _ = line.rpartition(":")
                if not sep or not head.startswith("MATCHSTATE:") or head.count(":") != 4:
                    self._warn(result, st, f"{who} in hand {hand}: skipped a malformed line {clip(line, 120)}")
                else:
                    self._warn(
                        result, st, f"{who} in hand {hand}: skipped an answer to another state {clip(line, 120)}"
                    )
                continue
            now = time.monotonic()
            st.used_hand += now - t_sent
            st.used_match += now - t_sent
            if self.keep_transcript:
                result.transcript.append(("FROM", p + 1, line))
            act = rest[1:]
            a = _ACPC_ACTIONS.get(act[:1])  # the ACPC dealer's letters; a limit game reads the first one only
            if a is None or a not in legal:
                st.invalid += 1
                if a is not None:
                    what = f"the illegal {a.name}"
                else:
                    what = f"the bad action {clip(act, 20)}" if act else "no action"
                self._warn(result, st, f"{who} in hand {hand}: sent {what} in answer to {msg!r}; taken as a call")
                if self.max_invalid is not None and st.invalid > self.max_invalid:
                    raise self._abort(
                        p,
                        hand,
                        "invalid-actions",
                        f"sent {st.invalid} invalid actions (max_invalid {self.max_invalid})",
                    )
                return CALL
            return a

    def _open_log(self) -> Any:
        """The log file, opened and its header written (None without ``log_path``)."""
        if not self.log_path:
            return None
        from loki.io.outpath import open_output

        try:  # a regular file, never through a link or into a device or FIFO
            out = open_output(self.log_path, "--out", encoding="ascii", errors="replace")
        except OutputPathError:
            self.close()
            raise
        try:
            out.write(f"# name/game/hands/seed loki-dealer {self.game.source} {self.n_hands} {self.seed}\n")
            out.write(f"#--t_response {int(self.t_response * 1000)}\n")
            if self.t_hand is not None:
                out.write(f"#--t_hand {int(self.t_hand * 1000)}\n")
            if self.t_per_hand is not None:
                out.write(f"#--t_per_hand {int(self.t_per_hand * 1000)}\n")
            out.flush()
        except OSError as e:
            try:
                out.close()  # flushes the header again, and may fail the same way
            except OSError:
                pass
            self.close()
            raise OutputPathError(f"--out {self.log_path}: cannot write the log: {e.strerror or e}") from None
        return out

    def _deal(self, deck: AcpcDeals | None, h: int) -> tuple[list, Any]:
        """Hand ``h``'s hole cards (per position) and board: from the seed's deck or from :attr:`deals`."""
        if deck is not None:
            holes, board = deck.hand()
            return list(holes), board
        hh, board = self.deals(h)  # type: ignore[misc]
        return list(hh), board

    def _play_hand(self, seats: list[_Seat], result: DealerResult, h: int, holes: list, board: Any) -> None:
        """Deal hand ``h`` to the seats (every player its view after every change, the actor's answer read) and
        record it in ``result`` (its ``STATE`` line, the payoffs in player order)."""
        n = self.game.n_players
        cfg, button = self.game.config, self.game.button
        for st in seats:
            st.used_hand = 0.0
        player_at = [(pos + h) % n for pos in range(n)]  # position -> player
        s = new_hand(cfg, button, hole_cards=holes, board=board)
        while True:
            showdown = s.is_terminal and s.went_to_showdown
            bstr = format_cards(s.board)
            cp = s.current_player
            actor = None if (s.is_terminal or cp is None) else player_at[cp]
            sent: dict[int, tuple[str, float]] = {}
            for p in range(n):
                pos = (p - h) % n
                hc = [holes[i] if (i == pos or (showdown and not s.folded[i])) else "" for i in range(n)]
                msg = format_matchstate(pos, h, s.history, hc, bstr)
                sent[p] = (msg, self._send(seats, result, p, msg, h))
            if actor is None:
                break
            msg, t_sent = sent[actor]
            s.apply(self._receive(seats, result, actor, msg, h, t_sent, s.legal_actions()))
        names = tuple(self.names[player_at[pos]] for pos in range(n))
        rec = HandRecord(h, cfg, button, tuple(holes), board, s.history, tuple(s.payoffs), names)
        result.states.append(format_state_line(rec))
        row = [0.0] * n
        for pos, x in enumerate(s.payoffs):
            result.score[player_at[pos]] += x
            row[player_at[pos]] = float(x)
        result.payoffs.append(row)

    def _hang_up(self, seats: list[_Seat], out: Any) -> None:
        """Close every socket and the log (errors while closing are ignored)."""
        self.close()
        for st in seats:
            try:
                st.sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            st.sock.close()
        if out:
            try:
                out.close()
            except OSError:
                pass

    def run(self) -> DealerResult:
        """Accept the players and deal the match; returns the :class:`DealerResult` (an early end is
        in :attr:`DealerResult.abort`, never raised; a log that stops taking lines ends the match too, in
        :attr:`DealerResult.log_error`, with the hands played so far).

        Raises:
            OutputPathError: the log file cannot be opened, or its header not written (by :meth:`listen`, before any
                player connects).
        """
        self.listen()
        t0 = time.monotonic()
        out, self._out = self._out, None
        n = self.game.n_players
        deck = None if self.deals is not None else AcpcDeals(self.seed, n)
        result = DealerResult(self.names, [0.0] * n, n_hands=self.n_hands, small_bet=self.game.config.small_bet)
        seats: list[_Seat] = []
        try:
            self._accept(seats)
            for h in range(self.n_hands):
                holes, board = self._deal(deck, h)
                self._play_hand(seats, result, h, holes, board)
                if not self._log(out, result, result.states[-1]):
                    break
            else:
                self._log(out, result, result.score_line)
        except _Abort as e:
            result.abort = e.abort
            log.error("match ended: %s", e.abort.message)
            self._log(out, result, f"# match ended: {e.abort.message}")
        finally:
            self._hang_up(seats, out)
            result.seconds = time.monotonic() - t0
        return result

    def _log(self, out: Any, result: DealerResult, line: str) -> bool:
        """Write ``line`` to the log (if any) and flush; False, with :attr:`DealerResult.log_error` set, if it
        cannot."""
        if not out or result.log_error is not None:
            return result.log_error is None
        try:
            out.write(line + "\n")
            out.flush()
        except OSError as e:
            result.log_error = f"--out {self.log_path}: cannot write the log: {e.strerror or e}"
            return False
        return True
