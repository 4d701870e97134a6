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
stdout goes to stderr too, so that a ``--json`` result stays alone on stdout).

**External bots' processes.**  Each ``cmd:`` bot starts in a session (and process group) of its own, so a
Ctrl-C at the terminal reaches loki only, and everything the bot starts stays in its group.  However the
match ends (the last hand, an early end, an error, Ctrl-C, SIGTERM or SIGHUP unwinding :func:`run_match`),
each bot gets a moment to exit (none when interrupted), then its **whole group** is stopped: SIGTERM,
then SIGKILL to what is left (:func:`reap_group`), so no child of a bot outlives the match or keeps loki's
stderr open (``loki match ... 2>&1 | cat`` ends with loki).  A process that leaves the group on purpose
(``setsid``, a daemon's double fork) is found and stopped too (:class:`BotReaper`, on Linux): loki is the
bots' *child subreaper* for the match (``PR_SET_CHILD_SUBREAPER``: an orphan of a bot's tree becomes loki's
child, not init's), every bot carries a match token in its environment, and after the groups are stopped every
process descending from a bot, carrying the token, or adopted by loki during the match is killed and reaped.  A bot
whose process ends before the dealer has accepted every seat ends the match at once (reason ``"exited"``, its exit
code in the message and in :attr:`MatchResult.exit_codes`) instead of leaving the dealer waiting ``t_connect``
seconds.
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
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from loki.errors import ConfigError, PlayerSpecError
from loki.io.acpc_dealer import AcpcDealer, DealerResult
from loki.io.gamedef import AcpcGame
from loki.io.limits import digits
from loki.io.netlines import MAX_TIMEOUT

__all__ = ["SeatSpec", "parse_seat", "MatchResult", "run_match", "player_seed", "reap_group", "BotReaper"]


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
    client_timeout = min(t_connect + n * t_response + 30.0, MAX_TIMEOUT)
    errors: list[list[str]] = [[] for _ in seats]
    threads: list[threading.Thread] = []
    procs: dict[int, subprocess.Popen] = {}
    dealer.watch = lambda: _exited(procs)

    def client(i: int, port: int) -> None:
        c = AcpcClient(game, players[i], host, port, timeout=client_timeout)
        try:
            c.run()
        except (ConnectionError, ConfigError, ValueError, OSError) as e:  # the dealer ended the match
            errors[i].append(str(e))
        errors[i][:0] = c.errors

    interrupted = False
    reaper = BotReaper() if any(s.command is not None for s in seats) else None
    try:
        for i, (s, port) in enumerate(zip(seats, ports, strict=True)):
            if s.command is None:
                t = threading.Thread(target=client, args=(i, port), name=f"seat-{i + 1}", daemon=True)
                t.start()
                threads.append(t)
            else:
                assert reaper is not None
                procs[i] = _start(s, host, port, reaper.env())
        result = dealer.run()
    except BaseException:
        interrupted = True
        raise
    finally:
        dealer.close()
        strays = reaper.tree(procs.values()) if reaper is not None else set()  # before the bots go
        codes = {i: _stop(p, 0.0 if interrupted else 2.0) for i, p in procs.items()}
        if reaper is not None:
            reaper.reap(procs.values(), strays)
        for t in threads:
            t.join(10.0)
    return MatchResult(result, seats, errors, [codes.get(i) for i in range(n)])


def _start(s: SeatSpec, host: str, port: int, env: dict[str, str] | None = None) -> subprocess.Popen:
    """Start the external bot of seat ``s`` in a session of its own, with environment ``env`` (module docstring).

    Raises:
        PlayerSpecError: the program cannot be started.
    """
    argv = list(s.command or ())
    if any("{host}" in a or "{port}" in a for a in argv):
        argv = [a.replace("{host}", host).replace("{port}", str(port)) for a in argv]
    else:
        argv += [host, str(port)]
    try:
        out = _bot_output()
        return subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=out, start_new_session=True, env=env)
    except OSError as e:
        raise PlayerSpecError(f"--player {s.spec!r}: cannot start {argv[0]!r}: {e.strerror or e}") from None


def _exit_text(code: int) -> str:
    """``"exited with code 3"``, or ``"was killed by SIGKILL"`` for a negative Popen return code."""
    if code < 0:
        try:
            return f"was killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"was killed by signal {-code}"
    return f"exited with code {code}"


def _exited(procs: dict[int, subprocess.Popen]) -> tuple[int, str] | None:
    """The first external bot whose process has ended, as ``(seat index, text)`` (the dealer's ``watch``)."""
    for i, p in list(procs.items()):
        code = p.poll()
        if code is not None:
            return i, f"{_exit_text(code)} before the match began"
    return None


def _stop(p: subprocess.Popen, grace: float = 2.0) -> int | None:
    """End an external bot and its process group (module docstring).

    The bot gets ``grace`` seconds to exit by itself; then its whole process group is stopped
    (:func:`reap_group`), whether the bot exited or not, so that no child of it survives.

    Returns:
        the bot's exit code if it exited by itself within ``grace``, else None (it had to be stopped).
    """
    try:
        code: int | None = p.wait(grace) if grace > 0 else p.poll()
    except subprocess.TimeoutExpired:
        code = None
    reap_group(p.pid, p)
    if p.poll() is None:  # pragma: no cover - SIGKILL not delivered (another user's process?)
        try:
            p.wait(5.0)
        except subprocess.TimeoutExpired:
            pass
    return code


def _group_alive(pgid: int) -> bool:
    """Whether process group ``pgid`` has a member that is not a zombie.  On Linux from ``/proc`` (a zombie
    orphan waits there for init to reap it and cannot be killed anyway); elsewhere ``killpg(pgid, 0)``."""
    if Path("/proc").is_dir():
        return any(g == pgid and state not in "ZX" for _, g, state in _processes().values())
    try:
        os.killpg(pgid, 0)
    except (ProcessLookupError, PermissionError):
        return False
    return True


def reap_group(pgid: int, leader: subprocess.Popen | None = None, wait: float = 2.0) -> bool:
    """Stop every process of process group ``pgid``: SIGTERM, up to ``wait`` seconds for the group to empty,
    then SIGKILL and up to ``wait`` seconds more.  ``leader`` (the group's first process, our child) is reaped
    on the way, so that it does not linger as a zombie.

    Returns:
        True once the group is empty (False: something survived SIGKILL, e.g. a process in uninterruptible
        sleep, or of another user).
    """
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(pgid, sig)
        except ProcessLookupError:
            return True
        except (PermissionError, AttributeError):  # pragma: no cover - not a group we may signal
            if leader is not None and leader.poll() is None:
                leader.send_signal(sig)
        t_end = time.monotonic() + wait
        while True:
            if leader is not None:
                leader.poll()
            if not _group_alive(pgid):
                return True
            if time.monotonic() >= t_end:
                break
            time.sleep(0.02)
    return not _group_alive(pgid)


#: The environment variable that marks a match's bots and what they start (its value is the match's token).
TOKEN_VAR = "LOKI_MATCH_BOT"


def _prctl_subreaper(on: bool | None) -> bool | None:
    """Linux: set this process's child-subreaper flag to ``on`` (None: leave it) and return its value before;
    None where it cannot be read or set (not Linux, no libc)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        was = ctypes.c_int(0)
        if libc.prctl(37, ctypes.byref(was), 0, 0, 0) != 0:  # PR_GET_CHILD_SUBREAPER
            return None
        if on is not None and libc.prctl(36, int(on), 0, 0, 0) != 0:  # PR_SET_CHILD_SUBREAPER
            return None
        return bool(was.value)
    except (OSError, AttributeError):  # pragma: no cover - no libc to call
        return None


def _processes() -> dict[int, tuple[int, int, str]]:
    """``{pid: (parent pid, process group, state)}`` of every process in ``/proc`` (empty where there is none)."""
    out: dict[int, tuple[int, int, str]] = {}
    proc = Path("/proc")
    if not proc.is_dir():
        return out
    for d in proc.iterdir():
        if not digits(d.name):
            continue
        try:
            stat = (d / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2 :].split()
        if len(fields) > 2 and digits(fields[1]) and digits(fields[2]):
            out[int(d.name)] = (int(fields[1]), int(fields[2]), fields[0])
    return out


def _carries(pid: int, marker: bytes) -> bool:
    """Whether process ``pid``'s environment holds ``marker`` (False where it cannot be read)."""
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            return marker in f.read(1 << 20)
    except OSError:
        return False


class BotReaper:
    """Everything the ``cmd:`` bots of one match start, found and stopped when the match ends (module docstring):
    made before the bots start (it makes this process their child subreaper on Linux, and notes its children
    then), :meth:`env` gives each bot its environment with the match token, :meth:`tree` lists the bots'
    descendants, and :meth:`reap` kills and reaps whatever is left of them, then restores the subreaper flag.
    Where there is no ``/proc`` it finds nothing beyond the bots' process groups (:func:`reap_group`)."""

    def __init__(self) -> None:
        import secrets

        self.token = secrets.token_hex(16)
        self.me = os.getpid()
        self.before = {pid for pid, (ppid, _, _) in _processes().items() if ppid == self.me}  # not the bots' trees
        self.was_subreaper = _prctl_subreaper(True)

    def env(self) -> dict[str, str]:
        """The environment of a bot: this process's, with :data:`TOKEN_VAR` set to the match token."""
        return {**os.environ, TOKEN_VAR: self.token}

    def tree(self, bots: Any) -> set[int]:
        """The live processes of the bots' trees: descendants of a bot, processes carrying the match token, and
        processes adopted by this one during the match (orphans of a bot's tree; never the bots themselves)."""
        procs = _processes()
        roots = {p.pid for p in bots}
        kids: dict[int, list[int]] = {}
        for pid, (ppid, _, _) in procs.items():
            kids.setdefault(ppid, []).append(pid)
        found: set[int] = set()
        todo = list(roots) + [pid for pid in kids.get(self.me, []) if pid not in self.before and pid not in roots]
        marker = f"{TOKEN_VAR}={self.token}".encode()
        todo += [pid for pid in procs if pid not in roots and pid != self.me and _carries(pid, marker)]
        while todo:
            pid = todo.pop()
            if pid in found:
                continue
            found.add(pid)
            todo.extend(kids.get(pid, []))
        return {pid for pid in found - roots if pid in procs and procs[pid][2] not in "ZX"}

    def reap(self, bots: Any, strays: set[int], rounds: int = 50) -> bool:
        """SIGKILL ``strays`` and whatever :meth:`tree` still finds, reaping those that are this process's
        children, until nothing is left (at most ``rounds`` passes); then restore the subreaper flag.

        Returns:
            True when nothing of the bots' trees is left.
        """
        bots = list(bots)
        left = set(strays)
        try:
            for _ in range(rounds):
                left = {pid for pid in left | self.tree(bots) if _live(pid)}
                if not left:
                    return True
                for pid in left:
                    try:
                        os.kill(pid, signal.SIGKILL)
                    except (ProcessLookupError, PermissionError):
                        pass
                time.sleep(0.02)
                _reap_children(left)
            return not left
        finally:
            _reap_children(left)
            if self.was_subreaper is not None:
                _prctl_subreaper(self.was_subreaper)


def _live(pid: int) -> bool:
    """Process ``pid`` exists and is not a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rfind(")") + 2] not in "ZX"


def _reap_children(pids: set[int]) -> None:
    """``waitpid`` each of ``pids`` that is a (dead) child of this process, so that none lingers as a zombie."""
    for pid in pids:
        try:
            os.waitpid(pid, os.WNOHANG)
        except (ChildProcessError, OSError):
            pass
