"""An ACPC protocol 2.0.0 dealer on loopback: our bots and anyone's ACPC bots can play each other.

Like the ACPC dealer, it listens on one port per player (printed in player order), expects
``VERSION:2.0.0`` from each, sends every player its view (``MATCHSTATE``) after every change of
the hand, reads the acting player's answer (with a per-action time limit), rotates the seats
between hands (player ``p`` sits in position ``(p - hand) mod n``), writes a log of ``STATE:``
lines and a final ``SCORE:`` line (per player, in player order).

A bad answer (malformed, not the current state, illegal, late) or a lost player is logged and
the action taken as a call; the match goes on (the ACPC dealer would end the match).
"""

from __future__ import annotations

import errno
import logging
import socket
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from loki.cards import format_cards
from loki.engine import CALL, Action, new_hand
from loki.errors import ConfigError, OutputPathError
from loki.io.acpc_client import _clip, format_matchstate
from loki.io.acpc_log import HandRecord, format_payoff, format_state_line
from loki.io.gamedef import AcpcGame

__all__ = ["AcpcDealer", "DealerResult"]

log = logging.getLogger("loki.dealer")


@dataclass
class DealerResult:
    """What a match produced: ``score`` per player name (player order), the ``STATE`` lines, the
    message ``transcript`` ``(direction, player 1-based, message)`` and the ``errors``."""

    names: list[str]
    score: list[float]
    states: list[str] = field(default_factory=list)
    transcript: list[tuple[str, int, str]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    @property
    def score_line(self) -> str:
        return f"SCORE:{'|'.join(format_payoff(x) for x in self.score)}:{'|'.join(self.names)}"


class _Seat:
    def __init__(self, sock: socket.socket):
        self.sock = sock
        self.f = sock.makefile("rb")
        self.alive = True


class AcpcDealer:
    """Deal a match of ``game`` to ``n_players`` connected clients.

    Args:
        game: the :class:`AcpcGame`.
        n_hands: hands in the match.
        seed: seed of the deal (numpy ``default_rng``).
        names: player names (default ``p1..pn``).
        deals: optional ``callable(hand) -> (hole cards per position, board)`` (card strings) to
            replay given cards (e.g. those of an ACPC log).
        host, ports: where to listen (ports ``0``: chosen by the system; see :attr:`ports`).
        t_response: seconds allowed per action.
        t_connect: seconds to wait for every player to connect.
        log_path: write the ACPC log (``STATE`` lines and ``SCORE``) there (checked here, opened
            by :meth:`run` before the players are accepted).
        transcript: keep the message transcript in the result.

    Raises:
        ConfigError: bad names, hand count, ports (out of 0..65535) or time limits.
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
        t_connect: float = 60.0,
        log_path=None,
        transcript: bool = False,
    ):
        n = game.n_players
        if names is None or len(names) == 0:
            names = [f"p{i + 1}" for i in range(n)]
        if len(names) != n:
            raise ConfigError(f"{len(names)} names for a {n}-player game: expected one per seat")
        if any((":" in x or "|" in x or not x) for x in names):
            raise ConfigError(f"player names must be non-empty and contain no ':' or '|': {list(names)}")
        if n_hands < 1:
            raise ConfigError(f"n_hands = {n_hands}: expected at least one hand")
        self.game, self.n_hands, self.seed, self.names = game, n_hands, seed, list(names)
        self.deals = deals
        self.host = host
        self._want_ports = list(ports) if ports else [0] * n
        if len(self._want_ports) != n:
            raise ConfigError(f"{len(self._want_ports)} ports for {n} players: expected one per seat")
        bad = [p for p in self._want_ports if not 0 <= p <= 65535]
        if bad:
            raise ConfigError(f"port {bad[0]}: out of range (expected 0..65535)")
        if not (t_response > 0 and t_connect > 0):
            raise ConfigError(f"t_response = {t_response}, t_connect = {t_connect}: both must be > 0 seconds")
        self.t_response, self.t_connect = t_response, t_connect
        if log_path is not None:
            from loki.io.outpath import check_output_path

            log_path = check_output_path(log_path, "--log")
        self.log_path = log_path
        self.keep_transcript = transcript
        self._listeners: list[socket.socket] = []
        self.ports: list[int] = []

    # ------------------------------------------------------------------ connections
    def listen(self) -> list[int]:
        """Open one listening socket per player; returns the ports (player order).

        Raises:
            ConfigError: a port cannot be used (in use, not permitted, out of range); the message
                names it, and no socket is left open.
        """
        if self._listeners:
            return self.ports
        for p in self._want_ports:
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            try:
                s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                s.bind((self.host, p))
                s.listen(1)
            except (OSError, OverflowError) as e:
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
        return self.ports

    def close(self) -> None:
        """Close the listening sockets (those not yet used by :meth:`run`)."""
        for s in self._listeners:
            s.close()
        self._listeners, self.ports = [], []

    def _accept(self) -> list[_Seat]:
        seats = []
        deadline = time.monotonic() + self.t_connect
        for i, ls in enumerate(self._listeners):
            ls.settimeout(max(0.1, deadline - time.monotonic()))
            try:
                conn, _ = ls.accept()
            except OSError as e:
                raise ConnectionError(
                    f"player {i + 1} did not connect to port {self.ports[i]} within {self.t_connect}s: {e}"
                ) from None
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            conn.settimeout(self.t_connect)
            seat = _Seat(conn)
            line = seat.f.readline().decode("ascii", "replace").strip()
            if not line.startswith("VERSION:2."):
                conn.close()
                raise ConnectionError(f"player {i + 1} sent {line!r} instead of 'VERSION:2.0.0'")
            conn.settimeout(self.t_response)
            seats.append(seat)
            ls.close()
        return seats

    # ------------------------------------------------------------------ the match
    def _deal(self, hand: int, rng) -> tuple[list[str], str]:
        n = self.game.n_players
        if self.deals is not None:
            holes, board = self.deals(hand)
            return list(holes), board
        cards = rng.permutation(52)[: 2 * n + 5]
        holes = [format_cards(cards[2 * i : 2 * i + 2]) for i in range(n)]
        return holes, format_cards(cards[2 * n :])

    def _send(self, seats, result, p: int, msg: str) -> None:
        if self.keep_transcript:
            result.transcript.append(("TO", p + 1, msg))
        st = seats[p]
        if not st.alive:
            return
        try:
            st.sock.sendall((msg + "\r\n").encode())
        except OSError as e:
            self._lost(st, p, result, e)

    def _lost(self, st, p, result, e) -> None:
        st.alive = False
        err = f"lost player {p + 1} ({self.names[p]}): {e}"
        result.errors.append(err)
        log.error(err)

    def _receive(self, seats, result, p: int, msg: str) -> Action:
        st = seats[p]
        if not st.alive:
            return CALL
        while True:
            try:
                raw = st.f.readline()
            except (OSError, TimeoutError) as e:
                err = (
                    f"player {p + 1} ({self.names[p]}) did not answer {msg!r} within {self.t_response}s ({e}); calling"
                )
                result.errors.append(err)
                log.error(err)
                return CALL
            if not raw:
                self._lost(st, p, result, "connection closed")
                return CALL
            line = raw.decode("ascii", "replace").rstrip("\r\n")
            if not line or line[0] in "#;":
                continue
            break
        if self.keep_transcript:
            result.transcript.append(("FROM", p + 1, line))
        head, _, act = line.rpartition(":")
        if head != msg or act not in ("f", "c", "r"):
            err = f"player {p + 1} ({self.names[p]}) sent {_clip(line)} in answer to {msg!r}; calling"
            result.errors.append(err)
            log.error(err)
            return CALL
        return Action.parse(act)

    def run(self, log_file=None) -> DealerResult:
        """Accept the players and deal the match; returns the :class:`DealerResult`.

        Raises:
            OutputPathError: the log file cannot be opened (before any player is accepted).
            ConnectionError: a player did not connect or did not say ``VERSION:2.0.0``.
        """
        self.listen()
        try:
            out = open(self.log_path, "w") if self.log_path else None
        except OSError as e:
            self.close()
            raise OutputPathError(f"--log {self.log_path}: cannot write the log: {e.strerror or e}") from None
        try:
            seats = self._accept()
        except BaseException:
            if out:
                out.close()
            raise
        n = self.game.n_players
        cfg, button = self.game.config, self.game.button
        rng = np.random.default_rng(self.seed)
        result = DealerResult(self.names, [0.0] * n)
        try:
            if out:
                out.write(f"# name/game/hands/seed loki-dealer {self.game.source} {self.n_hands} {self.seed}\n")
                out.write(f"#--t_response {int(self.t_response * 1000)}\n")
            for h in range(self.n_hands):
                holes, board = self._deal(h, rng)
                player_at = [(pos + h) % n for pos in range(n)]  # position -> player
                s = new_hand(cfg, button, hole_cards=holes, board=board)
                while True:
                    showdown = s.is_terminal and s.went_to_showdown
                    vis = s.board
                    bstr = format_cards(vis)
                    msgs = {}
                    for p in range(n):
                        pos = (p - h) % n
                        hc = [holes[i] if (i == pos or (showdown and not s.folded[i])) else "" for i in range(n)]
                        msgs[p] = format_matchstate(pos, h, s.history, hc, bstr)
                        self._send(seats, result, p, msgs[p])
                    cp = s.current_player
                    if s.is_terminal or cp is None:
                        break
                    actor = player_at[cp]
                    a = self._receive(seats, result, actor, msgs[actor])
                    if a not in s.legal_actions():
                        err = f"player {actor + 1} ({self.names[actor]}) took the illegal {a.name} in {msgs[actor]!r}; calling"
                        result.errors.append(err)
                        log.error(err)
                        a = CALL
                    s.apply(a)
                rec = HandRecord(
                    h,
                    cfg,
                    button,
                    tuple(holes),
                    board,
                    s.history,
                    tuple(s.payoffs),
                    tuple(self.names[player_at[pos]] for pos in range(n)),
                )
                line = format_state_line(rec)
                result.states.append(line)
                if out:
                    out.write(line + "\n")
                for pos, x in enumerate(s.payoffs):
                    result.score[player_at[pos]] += x
            if out:
                out.write(result.score_line + "\n")
        finally:
            if out:
                out.close()
            for st in seats:
                try:
                    st.sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                st.sock.close()
        return result
