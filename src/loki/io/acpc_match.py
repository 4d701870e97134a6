"""One-shot ACPC matches: a dealer and every seat from one call (``loki match``), like ACPC's
``play_match.pl``.

A seat is either a loki player spec (``loki1``, ``loki2:BRS``, ``calling``...), played in this process
by an :class:`~loki.io.acpc_client.AcpcClient` in a thread, or an external bot given as
``cmd:<command line>``: the command is started (no shell; split like a POSIX shell would) with the
dealer's host and the seat's port as its two last arguments, as ACPC's scripts receive them
(``cmd:python3 mybot.py`` runs ``python3 mybot.py 127.0.0.1 40123``).  ``{host}`` and ``{port}`` in
the command are replaced instead, when present.

The dealer is :class:`~loki.io.acpc_dealer.AcpcDealer` (exact ACPC cards for the seed, the time budgets,
an early end reported with the seat, the hand and the reason).  External bots inherit stderr (their
stdout goes to stderr too, so that a ``--json`` result stays alone on stdout); at the end they get
a moment to exit, then are terminated (SIGTERM to their process group, then SIGKILL).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from loki.errors import ConfigError, PlayerSpecError
from loki.io.acpc_dealer import AcpcDealer, DealerResult
from loki.io.gamedef import AcpcGame

__all__ = ["SeatSpec", "parse_seat", "MatchResult", "run_match", "player_seed"]


@dataclass(frozen=True)
class SeatSpec:
    """One seat of a match: ``spec`` as given, ``command`` (argv) for an external bot, else None, and the
    seat's ``name`` in the log."""

    spec: str
    name: str
    command: tuple[str, ...] | None = None

    @property
    def external(self) -> bool:
        return self.command is not None


def _name_of(tokens: Sequence[str]) -> str:
    """A log name for a command: the file name (without suffix) of its last script-like argument (a path
    or a file name with a suffix, not an option, no spaces), else of the program; at most 40 characters."""
    scripts = [
        t
        for t in tokens[1:]
        if not t.startswith("-") and " " not in t and ("/" in t or re.fullmatch(r"[\w.+-]+\.\w{1,4}", t))
    ]
    stem = Path(scripts[-1]).stem if scripts else Path(tokens[0]).name
    return (re.sub(r"[^A-Za-z0-9._+-]", "-", stem) or "bot")[:40]


def parse_seat(spec: str) -> SeatSpec:
    """A seat from ``--player SPEC``: a loki spec, or ``cmd:<command line>``.

    Raises:
        PlayerSpecError: an empty command, a command that does not split (unbalanced quotes), a program
            that is not found or not executable, or a loki spec with ``|``.

    >>> parse_seat("loki2:BR").name
    'loki2-BR'
    >>> s = parse_seat("cmd:python3 my_bot.py --fast")
    >>> s.command, s.name
    (('python3', 'my_bot.py', '--fast'), 'my_bot')
    """
    text = spec.strip()
    if text.lower().startswith("cmd:"):
        line = text[4:].strip()
        try:
            argv = shlex.split(line)
        except ValueError as e:
            raise PlayerSpecError(f"{spec!r}: cannot split the command line: {e}") from None
        if not argv:
            raise PlayerSpecError(f"{spec!r}: expected a command after 'cmd:' (cmd:python3 my_bot.py)")
        prog = argv[0]
        found = shutil.which(prog) if os.sep not in prog else (prog if os.access(prog, os.X_OK) else None)
        if found is None:
            raise PlayerSpecError(f"{spec!r}: program {prog!r} not found or not executable")
        return SeatSpec(spec, _name_of(argv), tuple(argv))
    if not text or "|" in text:
        raise PlayerSpecError(f"{spec!r}: expected a player spec or cmd:<command line>, without '|'")
    return SeatSpec(spec, text.replace(":", "-"))


def player_seed(seed: int, seat: int) -> int:
    """The seed of the loki player in ``seat`` (1-based) of a match with ``seed``: ``seed * 100 + seat``
    (as ``loki play`` seeds its bots)."""
    return seed * 100 + seat


@dataclass
class MatchResult:
    """A match: the dealer's :class:`~loki.io.acpc_dealer.DealerResult`, the seats, and per seat what its
    client reported (``client_errors``: a loki client's protocol problems or its final error; an
    external bot's exit code in ``exit_codes``, None if it had to be stopped)."""

    dealer: DealerResult
    seats: list[SeatSpec]
    client_errors: list[list[str]] = field(default_factory=list)
    exit_codes: list[int | None] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        d = self.dealer.to_dict()
        for i, (p, s) in enumerate(zip(d["players"], self.seats, strict=True)):
            p["spec"] = s.spec
            p["external"] = s.external
            p["client_errors"] = self.client_errors[i]
            if s.external:
                p["exit_code"] = self.exit_codes[i]
        return d


def _unique(names: list[str]) -> list[str]:
    seen: dict[str, int] = {}
    out = []
    for n in names:
        k = seen.get(n, 0) + 1
        seen[n] = k
        out.append(n if k == 1 else f"{n}-{k}")
    return out


def _bot_output() -> Any:
    try:
        sys.stderr.flush()
        return sys.stderr.fileno()
    except (AttributeError, OSError, ValueError):
        return subprocess.DEVNULL


def run_match(
    game: AcpcGame,
    seats: Sequence[SeatSpec],
    n_hands: int,
    seed: int = 0,
    *,
    log_path: str | os.PathLike[str] | None = None,
    host: str = "127.0.0.1",
    t_response: float = 10.0,
    t_hand: float | None = None,
    t_per_hand: float | None = None,
    t_connect: float = 60.0,
    max_invalid: int | None = None,
    players: Sequence[Any],
    on_listen: Callable[[list[int]], None] | None = None,
) -> MatchResult:
    """Play a match: start a dealer, connect every seat, deal ``n_hands`` hands with ``seed``.

    Args:
        game: the ACPC game (its player count must equal ``len(seats)``).
        seats: the seats in order (:func:`parse_seat`).
        n_hands, seed: the match (the ACPC cards of ``seed``).
        log_path: the ACPC log to write (checked before anything starts).
        host: the dealer's address (loopback by default).
        t_response, t_hand, t_per_hand, t_connect, max_invalid: the dealer's limits (:class:`AcpcDealer`).
        players: one entry per seat: the player object of a loki seat (built by the caller from its spec, e.g.
            with :func:`loki.players.registry.make_player` and :func:`player_seed`), None for an external one.
        on_listen: called with the ports once the dealer listens.

    Returns:
        The :class:`MatchResult` (an early end is in ``result.dealer.abort``, never raised).

    Raises:
        ConfigError: seats not matching the game, a bad limit or seed; an external bot that cannot be started.
        OutputPathError: an unwritable log.
    """
    from loki.io.acpc_client import AcpcClient

    seats = list(seats)
    n = game.n_players
    if len(seats) != n:
        raise ConfigError(f"{len(seats)} seats for a {n}-player game: expected one --player per seat")
    names = _unique([s.name for s in seats])
    players = list(players)
    if len(players) != n:
        raise ConfigError(
            f"{len(players)} players for {n} seats: expected one entry per seat (None for an external bot)"
        )
    dealer = AcpcDealer(
        game,
        n_hands,
        seed,
        names,
        host=host,
        t_response=t_response,
        t_hand=t_hand,
        t_per_hand=t_per_hand,
        t_connect=t_connect,
        max_invalid=max_invalid,
        log_path=log_path,
    )
    ports = dealer.listen()
    if on_listen is not None:
        on_listen(ports)
    client_timeout = t_connect + n * t_response + 30.0
    errors: list[list[str]] = [[] for _ in seats]
    threads: list[threading.Thread] = []
    procs: dict[int, subprocess.Popen] = {}

    def client(i: int, port: int) -> None:
        c = AcpcClient(game, players[i], host, port, timeout=client_timeout)
        try:
            c.run()
        except (ConnectionError, ConfigError, ValueError, OSError) as e:  # the dealer ended the match
            errors[i].append(str(e))
        errors[i][:0] = c.errors

    try:
        for i, (s, port) in enumerate(zip(seats, ports, strict=True)):
            if s.command is None:
                t = threading.Thread(target=client, args=(i, port), name=f"seat-{i + 1}", daemon=True)
                t.start()
                threads.append(t)
                continue
            argv = list(s.command)
            if any("{host}" in a or "{port}" in a for a in argv):
                argv = [a.replace("{host}", host).replace("{port}", str(port)) for a in argv]
            else:
                argv += [host, str(port)]
            try:
                out = _bot_output()
                procs[i] = subprocess.Popen(
                    argv, stdin=subprocess.DEVNULL, stdout=out, stderr=out, start_new_session=True
                )
            except OSError as e:
                raise PlayerSpecError(f"--player {s.spec!r}: cannot start {argv[0]!r}: {e.strerror or e}") from None
        result = dealer.run()
    finally:
        dealer.close()
        for t in threads:
            t.join(10.0)
        codes = {i: _stop(p) for i, p in procs.items()}
    return MatchResult(result, seats, errors, [codes.get(i) for i in range(n)])


def _stop(p: subprocess.Popen, grace: float = 2.0) -> int | None:
    """The bot's exit code once it has ended (it gets ``grace`` seconds after the match), or None if it
    had to be terminated (SIGTERM to its process group, SIGKILL after 2 s more)."""
    try:
        return p.wait(grace)
    except subprocess.TimeoutExpired:
        pass
    for sig, wait in ((signal.SIGTERM, 2.0), (signal.SIGKILL, 5.0)):
        try:
            os.killpg(p.pid, sig)
        except (ProcessLookupError, PermissionError, AttributeError):
            p.send_signal(sig)
        try:
            p.wait(wait)
            return None
        except subprocess.TimeoutExpired:
            continue
    return None
