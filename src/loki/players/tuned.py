"""Sets of values found by ``loki tune`` (or chosen by a study's plan), shipped by name: ``tuned = "NAME"`` in a
Loki-2 configuration (spec option ``tuned=NAME``, e.g. ``loki2:B:tuned=B1``) applies one, the fields a configuration
gives explicitly override it, and a configuration without ``tuned`` plays the paper's values (and the DEFAULTs where
the sources leave a value open).

**Sets as data.**  Each set is one file, ``loki/data/tuned/<NAME>.toml``: its ``player`` (the spec it is for),
``parent`` (the set it changes, or none), ``changes`` (what it changes relative to its parent, a partial
configuration merged key by key; ``drop`` lists parent tables it takes back), ``study`` (the folder under
``experiments/`` with its plan, runs and history), ``validation`` (its figures on seeds the search never played),
``status`` (``current``, or ``superseded`` with ``superseded_by``), a one-line ``summary`` and the ``provenance``.
Every value is a DEFAULT (tuned: <study>): found on tuning seeds (≥ 1000), validated on other seeds, reported on seeds
0 and 1.  ``loki tune --list-sets`` prints them; :func:`set_label` names a player's set (``"fitted: BRS3"``).

**A style and a set together** (``loki2:BRS:LA:tuned=BRS3``): the set's values win where both give one (BRS3's
``bettor.make1`` and ``make2`` over LA's), and the style's other values stay (LA's ``preflop_shift`` and
``aggressive_call_raise``, which BRS3 does not set).  Such a player was fitted neither way; the sets were fitted
without a style.

>>> TUNED_SETS["BRS3"]["preflop_reweighting"], SETS["BRS3"].parent, SETS["BRS2"].status
('strategy', 'BRS2', 'superseded')
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources
from typing import Any

__all__ = ["TUNED_SETS", "SETS", "TunedSet", "apply_tuned", "merge_config", "set_label"]


def merge_config(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    """``base`` with ``over``'s fields over it, nested tables (``bettor``, ``form``, ``sim``, ...) merged key by key
    (one level deep, as the configurations nest); neither argument is changed.

    >>> merge_config({"make_width": 0.05, "bettor": {"make1": 0.5, "make2": 0.85}}, {"bettor": {"make1": 0.6}})
    {'make_width': 0.05, 'bettor': {'make1': 0.6, 'make2': 0.85}}
    """
    merged: dict[str, Any] = {k: (dict(v) if isinstance(v, dict) else v) for k, v in base.items()}
    for k, v in over.items():
        if isinstance(v, dict) and isinstance(merged.get(k), dict):
            merged[k] = {**merged[k], **v}
        else:
            merged[k] = v
    return merged


@dataclass(frozen=True)
class TunedSet:
    """One shipped set (module docstring), as its file says.

    Attributes:
        name: the set's name (``tuned = "NAME"``).
        player: the spec it was fitted for (e.g. ``"loki2:BRS"``).
        parent: the set it changes ("" for none: it changes the paper's values).
        status: ``"current"`` or ``"superseded"``; superseded_by: the set that replaced it ("" if current).
        study: its study folder, relative to the repository (``experiments/...``).
        summary: one line: what it is.
        validation: its figures on validation seeds.
        changes: what it changes relative to its parent (a partial Loki-2 configuration); drop: parent tables it
            takes back (the paper's values for them).
        provenance: how it was found.
    """

    name: str
    player: str
    parent: str
    status: str
    superseded_by: str
    study: str
    summary: str
    validation: str
    changes: dict[str, Any]
    drop: tuple[str, ...]
    provenance: str


def _read_sets() -> dict[str, TunedSet]:
    """Every ``loki/data/tuned/*.toml``, checked.

    Raises:
        ValueError: a file whose name and ``name`` differ, an unknown parent or successor, or a bad status.
    """
    folder = resources.files("loki").joinpath("data", "tuned")
    out: dict[str, TunedSet] = {}
    for f in sorted(folder.iterdir(), key=lambda f: f.name):
        if not f.name.endswith(".toml"):
            continue
        d = tomllib.loads(f.read_text(encoding="utf-8"))
        s = TunedSet(
            name=d["name"],
            player=d["player"],
            parent=d.get("parent", ""),
            status=d["status"],
            superseded_by=d.get("superseded_by", ""),
            study=d["study"],
            summary=d["summary"],
            validation=d["validation"],
            changes=d.get("changes", {}),
            drop=tuple(d.get("drop", ())),
            provenance=d.get("provenance", ""),
        )
        if f.name != f"{s.name}.toml" or s.status not in ("current", "superseded"):
            raise ValueError(f"loki/data/tuned/{f.name}: name {s.name!r} or status {s.status!r} is wrong")
        out[s.name] = s
    for s in out.values():
        for other in (s.parent, s.superseded_by):
            if other and other not in out:
                raise ValueError(f"loki/data/tuned/{s.name}.toml: unknown set {other!r}")
    return out


def _values(name: str, sets: dict[str, TunedSet]) -> dict[str, Any]:
    """The full partial configuration of set ``name``: its parent's, without ``drop``, with ``changes`` over it."""
    s = sets[name]
    base = _values(s.parent, sets) if s.parent else {}
    base = {k: v for k, v in base.items() if k not in s.drop}
    return merge_config(base, s.changes)


#: name -> the set as its file says (:class:`TunedSet`), in name order.
SETS: dict[str, TunedSet] = _read_sets()
#: name -> a partial Loki-2 configuration (nested tables merge key by key): the set's values, its parents' included.
TUNED_SETS: dict[str, dict[str, Any]] = {n: _values(n, SETS) for n in SETS}


def set_label(name: str | None) -> str:
    """How a player names the set it plays: ``"fitted: BRS3"``, ``"fitted: BRS1, superseded"``; "" for none.

    >>> set_label("BRS3"), set_label(None)
    ('fitted: BRS3', '')
    """
    if not name:
        return ""
    s = SETS.get(name)
    return f"fitted: {name}" + (", superseded" if s is not None and s.status == "superseded" else "")


def apply_tuned(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` with its ``tuned`` set's values under it: the set first, the explicitly given fields over them (the
    ``bettor``, ``form`` and ``sim`` tables merged key by key).  An unknown name is left for validation
    to report."""
    name = data.get("tuned")
    if name is None or name not in TUNED_SETS:
        return data
    return merge_config(TUNED_SETS[name], data)
