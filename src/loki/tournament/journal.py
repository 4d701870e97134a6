"""The tournament journal: one checksummed JSON line per finished block, read back (and checked) on resume.

Each line carries a keyed checksum of the rest of the line (``{"sum":"<32 hex digits>",...}``,
:func:`signed_line`): HMAC-SHA-256 (:mod:`hmac`) with a secret drawn for the run (:func:`new_journal_key`,
256 bits from :mod:`secrets`) and kept in the results folder's ``run.json`` under ``journal_key``.  A line
edited by hand, damaged, or forged with a recomputed checksum (anyone can recompute a plain SHA-256, which
the journal used before) is refused on resume with its line number; a torn last line is dropped.

**What the key does and does not protect.**  The key lives next to the journal: whoever can read
``run.json`` can forge a line.  The checksum catches accidents (a damaged disk, a torn or edited line,
a journal copied into the wrong folder, a tool that rewrites the lines) and forgeries made without the
folder's ``run.json``; it is not a defence against the owner of the results folder.  A journal whose
``run.json`` has no key (removed, or written by an older loki) is refused: ``--overwrite`` starts again.

Every line is strict JSON (:func:`loki.io.limits.loads_json`): ``NaN`` and infinities are refused on read
(Python's ``json`` accepts them), as are numbers beyond what a result can hold, so no journal can put a
bare ``NaN`` into ``summary.json``.  Lines are read one at a time, each at most :data:`MAX_LINE_BYTES`.
Used by :mod:`loki.tournament.runner` (module docstring, "Journal").
"""

from __future__ import annotations

import hashlib
import hmac
import json
import math
import os
import re
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from loki.errors import JournalError, TournamentConfigError
from loki.io.files import atomic_write_text
from loki.io.limits import MAX_CONFIG_BYTES, loads_json, open_regular, read_capped, size_text
from loki.io.outpath import open_output
from loki.tournament.config import TournamentConfig, config_from_dict
from loki.tournament.handstats import COUNTERS
from loki.tournament.schedule import block_deals

__all__ = [
    "JOURNAL",
    "RUN_INFO",
    "SUMMARY",
    "DEALS",
    "AIVAT_DEALS",
    "BAR_PLOT",
    "CUMULATIVE_PLOT",
    "RESULT_FILES",
    "KEY_FIELD",
    "MAX_LINE_BYTES",
    "read_journal",
    "signed_line",
    "JournalWriter",
    "new_journal_key",
    "journal_key",
    "write_journal_key",
]

#: The journal's file name in a results folder.
JOURNAL = "journal.jsonl"
#: The file of the results folder that keeps the journal's key (and, once the run is over, its wall-clock facts).
RUN_INFO = "run.json"
#: The other files :func:`loki.tournament.write_results` writes into a results folder: the summary, the deals' chips,
#: with AIVAT their corrected chips, the two plots.  :data:`RESULT_FILES` is what ``--overwrite`` discards of an
#: earlier run (with its hand histories, :mod:`loki.tournament.runner`).
SUMMARY, DEALS, AIVAT_DEALS = "summary.json", "deals.csv", "deals-aivat.csv"
BAR_PLOT, CUMULATIVE_PLOT = "sb_per_hand.png", "cumulative.png"
RESULT_FILES = (SUMMARY, DEALS, AIVAT_DEALS, BAR_PLOT, CUMULATIVE_PLOT)
#: The key of the journal's key in :data:`RUN_INFO`.
KEY_FIELD = "journal_key"
#: One journal line at most (a block of 10,000 deals at 10 players with AIVAT corrections is about 5 MiB).
MAX_LINE_BYTES = 64 << 20
#: Chips, counters and seconds in a block record at most (in magnitude): beyond 2**53 a float loses integers.
MAX_NUMBER = 2**53

_KEY_RE = re.compile(r"[0-9a-f]{64}")
_SUM_HEX = 32  # 128 bits of the HMAC


def new_journal_key() -> str:
    """A fresh journal key: 64 hex digits (256 bits from :func:`secrets.token_hex`)."""
    return secrets.token_hex(32)


def journal_key(folder: str | os.PathLike[str]) -> str | None:
    """The journal key kept in ``folder``'s ``run.json`` (None when there is no ``run.json`` or it has no key).

    Raises:
        JournalError: ``run.json`` cannot be read, is larger than 1 MiB, is not strict JSON, or holds a key
            that is not 64 hex digits.
    """
    p = Path(folder) / RUN_INFO
    if not p.exists():
        return None
    info = loads_json(read_capped(p, MAX_CONFIG_BYTES, "a run.json file", JournalError), str(p), JournalError)
    key = info.get(KEY_FIELD) if isinstance(info, dict) else None
    if key is None:
        return None
    if not isinstance(key, str) or not _KEY_RE.fullmatch(key):
        raise JournalError(f"{p}: '{KEY_FIELD}' must be 64 hex digits (the journal's key), got {str(key)[:80]!r}")
    return key


def write_journal_key(folder: str | os.PathLike[str], key: str) -> None:
    """Start ``folder``'s ``run.json`` with the journal key (atomically; the run's facts are added at its end
    by :func:`loki.tournament.results.write_results`, which keeps the key).

    Raises:
        OSError: the file cannot be written.
    """
    atomic_write_text(Path(folder) / RUN_INFO, json.dumps({KEY_FIELD: key}, indent=2) + "\n")


def _check_quality(qs: object, n: int, where: str) -> None:
    """Validate a block's ``quality`` record: ``n`` entries, each None or a :class:`QualityTally` dict."""
    from loki.modeler.quality import QualityTally

    if not isinstance(qs, list) or (n and len(qs) != n):
        raise JournalError(f"{where}: 'quality' must be a list with one entry per player")
    for q in qs:
        if q is None:
            continue
        try:
            QualityTally.from_dict(q)
        except (KeyError, TypeError, ValueError, ArithmeticError) as e:
            raise JournalError(f"{where}: 'quality' entry is not a model-quality tally ({e})") from None


# ------------------------------------------------------------------------------------------ journal


_SUM_HEAD = b'{"sum":"'


def _mac(key: str, body: bytes) -> bytes:
    return hmac.new(bytes.fromhex(key), body, hashlib.sha256).hexdigest()[:_SUM_HEX].encode()


def signed_line(rec: dict, key: str) -> str:
    """``rec`` as one journal line (no line end) with its checksum as the first key: ``{"sum":"<32 hex
    digits of HMAC-SHA-256 of the rest under key>",...}`` where the rest is ``rec`` as compact strict JSON
    (``rec`` non-empty; ``key`` 64 hex digits, :func:`new_journal_key`).

    Raises:
        JournalError: ``rec`` holds a NaN or an infinity (strict JSON cannot carry it).

    >>> signed_line({"kind": "block", "block": 0}, "00" * 32)
    '{"sum":"4e22fd93f397ac628cc6c35ab1e1f973","kind":"block","block":0}'
    """
    try:
        body = json.dumps(rec, separators=(",", ":"), allow_nan=False)
    except ValueError as e:
        raise JournalError(f"journal record {str(rec)[:120]}...: not strict JSON ({e})") from None
    return '{"sum":"' + _mac(key, body.encode()).decode() + '",' + body[1:]


def _verified(raw: bytes, key: str, where: str) -> bytes:
    """The JSON text of a signed journal line without its checksum; raises JournalError if the checksum
    is missing or does not match (the line was edited, damaged or forged)."""
    n = len(_SUM_HEAD)
    if not raw.startswith(_SUM_HEAD) or raw[n + _SUM_HEX : n + _SUM_HEX + 2] != b'",':
        raise JournalError(
            f'{where}: no checksum (a journal line starts with {{"sum":...}}: an edited line, or a journal of '
            "an older loki; pass --overwrite to start again)"
        )
    body = b"{" + raw[n + _SUM_HEX + 2 :]
    if not hmac.compare_digest(_mac(key, body), raw[n : n + _SUM_HEX]):
        raise JournalError(
            f"{where}: checksum mismatch: the line was edited, damaged or forged (the journal is refused: "
            "restore it or pass --overwrite)"
        )
    return body


def _number(x: object) -> bool:
    """A JSON number a block record may hold: an int or a float (never a bool), of magnitude at most 2**53."""
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) and abs(x) <= MAX_NUMBER


def _int_field(rec: dict, key: str, lo: int, hi: int | None, where: str) -> int:
    v = rec.get(key)
    if isinstance(v, bool) or not isinstance(v, int):
        raise JournalError(f"{where}: '{key}' must be an integer, got {v!r}")
    if v < lo or (hi is not None and v >= hi):
        rng = f">= {lo}" if hi is None else f"in [{lo}, {hi - 1}]"
        raise JournalError(f"{where}: '{key}' = {v} must be {rng}")
    return v


def _check_block(rec: dict, cfg: TournamentConfig | None, where: str) -> int:
    """Validate a block record (the fields written by :func:`play_block`); returns its index."""
    for key in ("block", "deals", "chips", "counters", "hands"):
        if key not in rec:
            raise JournalError(f"{where}: block record without '{key}'")
    b = _int_field(rec, "block", 0, cfg.n_blocks if cfg is not None else None, where)
    hands = _int_field(rec, "hands", 0, None, where)
    deals, chips, counters = rec["deals"], rec["chips"], rec["counters"]
    if (
        not isinstance(deals, list)
        or len(deals) != 2
        or not all(isinstance(x, int) and not isinstance(x, bool) for x in deals)
    ):
        raise JournalError(f"{where}: 'deals' must be [first, end] (two integers), got {deals!r}")
    if not isinstance(chips, list) or not all(isinstance(row, list) and all(map(_number, row)) for row in chips):
        raise JournalError(f"{where}: 'chips' must be a list of per-deal lists of numbers (at most 2**53 in magnitude)")
    if not isinstance(counters, list) or not all(
        isinstance(c, dict)
        and all(
            isinstance(c.get(k), int) and not isinstance(c.get(k), bool) and 0 <= c[k] <= MAX_NUMBER for k in COUNTERS
        )
        for c in counters
    ):
        raise JournalError(
            f"{where}: 'counters' must be a list of per-player tables with the integer counters {list(COUNTERS)} "
            "(0 to 2**53)"
        )
    if "seconds" in rec and not _number(rec["seconds"]):
        raise JournalError(f"{where}: 'seconds' must be a number, got {str(rec['seconds'])[:40]!r}")
    if cfg is not None:
        n = cfg.n_players
        want = block_deals(b, cfg.deals, cfg.block_deals)
        if deals != [want.start, want.stop]:
            raise JournalError(f"{where}: block {b} holds deals {deals}, expected [{want.start}, {want.stop}]")
        if len(chips) != len(want) or any(len(row) != n for row in chips):
            raise JournalError(f"{where}: 'chips' must be {len(want)} deals x {n} players")
        if len(counters) != n:
            raise JournalError(f"{where}: 'counters' must have {n} entries (one per player), got {len(counters)}")
        if hands != len(want) * n:
            raise JournalError(f"{where}: 'hands' = {hands}, expected {len(want) * n}")
        if cfg.estimator != "plain" and "aivat" not in rec:
            raise JournalError(f"{where}: block record without 'aivat' (the run uses the aivat estimator)")
    if "aivat" in rec:
        _check_aivat(rec["aivat"], len(chips), len(chips[0]) if chips else 0, where)
    if "quality" in rec:
        _check_quality(rec["quality"], len(counters), where)
    return b


def _check_aivat(av: object, deals: int, n: int, where: str) -> None:
    """Validate a block's ``aivat`` record: ``chance`` and ``action``, ``deals`` rows of ``n`` numbers each."""
    if not isinstance(av, dict):
        raise JournalError(f"{where}: 'aivat' must be an object with 'chance' and 'action'")
    for key in ("seconds", "block_cpu"):
        if key in av and not _number(av[key]):
            raise JournalError(f"{where}: 'aivat' '{key}' must be a number")
    for key in ("chance", "action"):
        rows = av.get(key)
        if (
            not isinstance(rows, list)
            or len(rows) != deals
            or not all(isinstance(row, list) and len(row) == n and all(map(_number, row)) for row in rows)
        ):
            raise JournalError(f"{where}: 'aivat' '{key}' must be {deals} deals x {n} numbers, like 'chips'")


def _lines(f: IO[bytes], where: str) -> Iterator[tuple[int, bytes, bool, bool]]:
    """``(number, line without its end, ends with a newline, is the last line)`` of an open journal, one line
    at a time (one line of lookahead); a line longer than :data:`MAX_LINE_BYTES` raises JournalError."""
    i, cur = 0, f.readline(MAX_LINE_BYTES + 2)
    while cur:
        i += 1
        if len(cur.rstrip(b"\n")) > MAX_LINE_BYTES:
            raise JournalError(
                f"{where} line {i}: longer than {size_text(MAX_LINE_BYTES)} (the limit of a journal line)"
            )
        nxt = f.readline(MAX_LINE_BYTES + 2)
        yield i, cur.rstrip(b"\n"), cur.endswith(b"\n"), not nxt
        cur = nxt


def _is_json(raw: bytes) -> bool:
    """``raw`` parses as JSON at all (NaN included): a line that does not was torn by a crash."""
    try:
        json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return False
    return True


def read_journal(path: Path, key: str | None = None) -> tuple[dict | None, dict[int, dict]]:
    """The header and the finished blocks ``{block: record}`` of the journal ``path``.

    Every line carries its keyed checksum (:func:`signed_line`) under ``key`` (default: the key kept in the
    ``run.json`` next to the journal, :func:`journal_key`).  The first line must be the header
    (``{"kind": "header", "fingerprint": str, "config": {...}}``;
    it is written atomically with the file), every other line a block record as returned by
    :func:`play_block` plus ``"kind": "block"``, checked against the header's configuration (block
    index in range and seen once, deals, shapes of ``chips``/``counters``, ``hands``, finite numbers).
    Only a torn *last* line (no final newline, or not JSON: the process died mid-write) is dropped.  A missing
    or empty file gives ``(None, {})``.  The file is only read, one line at a time.

    Raises:
        JournalError: unreadable file, no key to check it with, a line other than the last that is not UTF-8
            JSON, a line that is not strict JSON (``NaN``, ``Infinity``, ``1e999``, nested more than 32 deep),
            longer than :data:`MAX_LINE_BYTES`, without its checksum or whose checksum does not match (edited
            or forged), a record that is not a JSON object, lacks a key or has a wrong type or value, a
            duplicate block or header; the one-line message names the file and the line number.
    """
    header: dict | None = None
    blocks: dict[int, dict] = {}
    name = f"journal {str(path)!r}"
    try:
        f = open_regular(path)  # a FIFO or a device is refused at once, never read
    except FileNotFoundError:
        return header, blocks
    except OSError as e:
        raise JournalError(f"cannot read the journal {str(path)!r}: {e.strerror or e}") from None
    cfg = None
    with f:
        try:
            for i, raw, whole, last in _lines(f, name):
                where = f"{name} line {i}"
                if not whole:  # a torn tail; the header is written atomically with the file, so it is never torn
                    if i == 1:
                        raise JournalError(
                            f"{where}: not a complete JSON line (the journal is corrupt: repair it or pass --overwrite)"
                        )
                    break
                try:
                    rec = loads_json(raw, where, JournalError)
                except JournalError:
                    if _is_json(raw):
                        raise  # a whole line, but not strict JSON (NaN, Infinity, 1e999, too deep)
                    if last and i > 1:
                        break  # a torn write that happened to end in a newline byte (e.g. zero-filled)
                    raise JournalError(
                        f"{where}: not a JSON line (the journal is corrupt: repair it or pass --overwrite)"
                    ) from None
                if key is None:
                    key = journal_key(Path(path).parent)
                    if key is None:
                        raise JournalError(
                            f"{where}: no key to check the journal with ('{KEY_FIELD}' of {RUN_INFO} next to it: the "
                            "file was removed, or the run is from an older loki); pass --overwrite to start again"
                        )
                if not isinstance(rec, dict):
                    raise JournalError(f"{where}: expected a JSON object, got {type(rec).__name__}")
                rec = json.loads(_verified(raw, key, where))
                if i == 1:
                    header, cfg = _header(rec, where)
                    continue
                if rec.get("kind") != "block":
                    raise JournalError(f"{where}: expected a block record (kind 'block'), got kind {rec.get('kind')!r}")
                b = _check_block(rec, cfg, where)
                if b in blocks:
                    raise JournalError(f"{where}: block {b} appears twice")
                blocks[b] = rec
        except OSError as e:
            raise JournalError(f"cannot read the journal {str(path)!r}: {e.strerror or e}") from None
    return header, blocks


def _header(rec: dict, where: str) -> tuple[dict, TournamentConfig]:
    """The header record, checked (kind, fingerprint, config table), and its configuration."""
    if rec.get("kind") != "header":
        raise JournalError(f"{where}: expected the header record (kind 'header'), got kind {rec.get('kind')!r}")
    if not isinstance(rec.get("fingerprint"), str) or not isinstance(rec.get("config"), dict):
        raise JournalError(f"{where}: the header needs 'fingerprint' (a string) and 'config' (an object)")
    try:
        cfg = config_from_dict(rec["config"], source=where, check_players=False)
    except TournamentConfigError as e:
        raise JournalError(f"{where}: invalid header config: {e}") from None
    return rec, cfg


class JournalWriter:
    """Appends block records signed with ``key`` (:func:`signed_line`) to a journal file, each line flushed and
    fsynced."""

    def __init__(self, path: Path, key: str):
        self.path = path
        self.key = key
        self.f = open_output(path, "journal", append=True)  # a regular file: never through a link or into a FIFO

    def append(self, rec: dict) -> None:
        """Append ``rec`` as one signed line (flushed and fsynced).

        Raises:
            OSError: the line cannot be written; JournalError: ``rec`` is not strict JSON.
        """
        self.f.write(signed_line(rec, self.key) + "\n")
        self.f.flush()
        os.fsync(self.f.fileno())

    def close(self) -> None:
        self.f.close()
