"""The tournament journal: one checksummed JSON line per finished block, read back (and checked) on resume.

Each line carries a checksum of the rest of the line (``{"sum":"<16 hex digits of SHA-256>",...}``,
:func:`signed_line`): a line edited by hand (or damaged) is refused on resume with its line number; a torn last line
is dropped.  Used by :mod:`loki.tournament.runner` (module docstring, "Journal").
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from loki.errors import JournalError, TournamentConfigError
from loki.tournament.config import TournamentConfig, config_from_dict
from loki.tournament.handstats import COUNTERS
from loki.tournament.schedule import block_deals

__all__ = ["JOURNAL", "read_journal", "signed_line", "JournalWriter"]

#: The journal's file name in a results folder.
JOURNAL = "journal.jsonl"


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
        except (KeyError, TypeError, ValueError) as e:
            raise JournalError(f"{where}: 'quality' entry is not a model-quality tally ({e})") from None


# ------------------------------------------------------------------------------------------ journal


_SUM_HEAD = b'{"sum":"'


def signed_line(rec: dict) -> str:
    """``rec`` as one journal line (no line end) with its checksum as the first key: ``{"sum":"<16 hex
    digits of SHA-256 of the rest>",...}`` where the rest is ``rec`` as compact JSON (``rec`` non-empty).

    >>> signed_line({"kind": "block", "block": 0})
    '{"sum":"433376e850a38aa1","kind":"block","block":0}'
    """
    import hashlib

    body = json.dumps(rec, separators=(",", ":"))
    return '{"sum":"' + hashlib.sha256(body.encode()).hexdigest()[:16] + '",' + body[1:]


def _verified(raw: bytes, where: str) -> bytes:
    """The JSON text of a signed journal line without its checksum; raises JournalError if the checksum
    is missing or does not match (the line was edited or damaged)."""
    import hashlib

    n = len(_SUM_HEAD)
    if not raw.startswith(_SUM_HEAD) or raw[n + 16 : n + 18] != b'",':
        raise JournalError(
            f'{where}: no checksum (a journal line starts with {{"sum":...}}: an edited line, or a journal of '
            "an older loki; pass --overwrite to start again)"
        )
    body = b"{" + raw[n + 18 :]
    if hashlib.sha256(body).hexdigest()[:16].encode() != raw[n : n + 16]:
        raise JournalError(
            f"{where}: checksum mismatch: the line was edited or damaged (the journal is refused: "
            "restore it or pass --overwrite)"
        )
    return body


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
    if not isinstance(chips, list) or not all(
        isinstance(row, list) and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in row)
        for row in chips
    ):
        raise JournalError(f"{where}: 'chips' must be a list of per-deal lists of numbers")
    if not isinstance(counters, list) or not all(
        isinstance(c, dict) and all(isinstance(c.get(k), int) and not isinstance(c.get(k), bool) for k in COUNTERS)
        for c in counters
    ):
        raise JournalError(
            f"{where}: 'counters' must be a list of per-player tables with the integer counters {list(COUNTERS)}"
        )
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
        if cfg.estimator == "aivat" and "aivat" not in rec:
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
    for key in ("chance", "action"):
        rows = av.get(key)
        if (
            not isinstance(rows, list)
            or len(rows) != deals
            or not all(
                isinstance(row, list)
                and len(row) == n
                and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in row)
                for row in rows
            )
        ):
            raise JournalError(f"{where}: 'aivat' '{key}' must be {deals} deals x {n} numbers, like 'chips'")


def read_journal(path: Path) -> tuple[dict | None, dict[int, dict]]:
    """The header and the finished blocks ``{block: record}`` of the journal ``path``.

    Every line carries its checksum (:func:`signed_line`).  The first line must be the header
    (``{"kind": "header", "fingerprint": str, "config": {...}}``;
    it is written atomically with the file), every other line a block record as returned by
    :func:`play_block` plus ``"kind": "block"``, checked against the header's configuration (block
    index in range and seen once, deals, shapes of ``chips``/``counters``, ``hands``).  Only a torn
    *last* line (no final newline, or not JSON: the process died mid-write) is dropped.  A missing
    or empty file gives ``(None, {})``.  The file is only read.

    Raises:
        JournalError: unreadable file, a line other than the last that is not UTF-8 JSON, a line
            without its checksum or whose checksum does not match (edited by hand), a record that is
            not a JSON object, lacks a key or has a wrong type or value, a duplicate block or header;
            the one-line message names the file and the line number.
    """
    header: dict | None = None
    blocks: dict[int, dict] = {}
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        return header, blocks
    except OSError as e:
        raise JournalError(f"cannot read the journal {str(path)!r}: {e.strerror or e}") from None
    lines = data.split(b"\n")
    # the split leaves b"" after a final newline, or the torn tail of a line without one
    tail = lines.pop()
    if tail and not lines:
        # the header is written atomically with the file, so it can never be torn
        raise JournalError(
            f"journal {str(path)!r} line 1: not a complete JSON line (the journal is corrupt: "
            "repair it or pass --overwrite)"
        )
    cfg = None
    for i, raw in enumerate(lines, 1):
        where = f"journal {str(path)!r} line {i}"
        last = i == len(lines) and not tail
        try:
            rec = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            if last and i > 1:
                break  # a torn write that happened to end in a newline byte (e.g. zero-filled)
            raise JournalError(
                f"{where}: not a JSON line (the journal is corrupt: repair it or pass --overwrite)"
            ) from None
        if not isinstance(rec, dict):
            raise JournalError(f"{where}: expected a JSON object, got {type(rec).__name__}")
        rec = json.loads(_verified(raw, where))
        kind = rec.get("kind")
        if i == 1:
            if kind != "header":
                raise JournalError(f"{where}: expected the header record (kind 'header'), got kind {kind!r}")
            if not isinstance(rec.get("fingerprint"), str) or not isinstance(rec.get("config"), dict):
                raise JournalError(f"{where}: the header needs 'fingerprint' (a string) and 'config' (an object)")
            try:
                cfg = config_from_dict(rec["config"], source=where, check_players=False)
            except TournamentConfigError as e:
                raise JournalError(f"{where}: invalid header config: {e}") from None
            header = rec
        elif kind == "block":
            b = _check_block(rec, cfg, where)
            if b in blocks:
                raise JournalError(f"{where}: block {b} appears twice")
            blocks[b] = rec
        else:
            raise JournalError(f"{where}: expected a block record (kind 'block'), got kind {kind!r}")
    return header, blocks


class JournalWriter:
    """Appends signed block records to a journal file, each line flushed and fsynced."""

    def __init__(self, path: Path):
        self.path = path
        self.f = open(path, "a", encoding="utf-8")

    def append(self, rec: dict) -> None:
        self.f.write(signed_line(rec) + "\n")
        self.f.flush()
        os.fsync(self.f.fileno())

    def close(self) -> None:
        self.f.close()
