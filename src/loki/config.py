"""Typed, frozen configuration records validated by pydantic, with loki's own error type.

Every configuration of the decision core (Bettor thresholds, Triple Generator widths, pre-flop style,
Simulator settings, whole players) is a :class:`LokiModel`: a frozen pydantic v2 model that rejects
unknown fields.  Building one from bad values raises :class:`loki.errors.ConfigError` (a ``ValueError``)
with one line naming every offending field, whether it is built from Python keywords, from a nested
dict (a TOML table) or with :meth:`LokiModel.model_validate`.

>>> from pydantic import Field
>>> class Knobs(LokiModel):
...     make1: float = Field(0.5, ge=0.0, le=1.0)
>>> Knobs(make1=0.4).make1
0.4
>>> Knobs(make1=2)
Traceback (most recent call last):
...
loki.errors.ConfigError: Knobs: make1 = 2: Input should be less than or equal to 1
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from loki.errors import ConfigError

__all__ = ["LokiModel", "format_validation_error", "tunable", "derived", "TunableParam", "tunable_params"]


def format_validation_error(what: str, err: ValidationError) -> str:
    """One line from a pydantic ``ValidationError``: ``what: field.path = value: message; ...``."""
    parts = []
    for e in err.errors(include_url=False):
        loc = ".".join(str(x) for x in e["loc"])
        msg = e["msg"]
        if msg.startswith("Value error, "):
            msg = msg[len("Value error, ") :]
        inp = e.get("input")
        shown = f" = {inp!r}" if e["type"] != "missing" and not isinstance(inp, dict) and len(repr(inp)) <= 40 else ""
        parts.append(f"{loc}{shown}: {msg}" if loc else msg)
    return f"{what}: " + "; ".join(parts)


class LokiModel(BaseModel):
    """Base of loki's configuration records: frozen, unknown fields rejected, errors as ConfigError."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    def __init__(self, /, **data: Any) -> None:
        try:
            super().__init__(**data)
        except ValidationError as e:
            raise ConfigError(format_validation_error(type(self).__name__, e)) from None

    @classmethod
    def model_validate(cls, obj: Any, **kwargs: Any):  # type: ignore[override]
        """Validate a mapping (e.g. a TOML table) into this record.

        Raises:
            ConfigError: one line naming each bad field.
        """
        try:
            return super().model_validate(obj, **kwargs)
        except ValidationError as e:
            raise ConfigError(format_validation_error(cls.__name__, e)) from None

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        # Nested records are validated by pydantic's core, not through our __init__ (which would wrap each
        # nested error into its parent's); the error is converted once, at the outermost record.
        cls.__pydantic_custom_init__ = False
        cls.model_rebuild(force=True)


def tunable(
    default: Any, low: float, high: float, *, source: str, log: bool = False, step: float | None = None, **kw: Any
):
    """A pydantic ``Field`` whose value a tuning study may search (``loki tune``): its range
    ``[low, high]`` (log scale when ``log``; integers when the default is an ``int``, on a grid of ``step`` if given)
    and the source of its default (a paper tag, or ``"DEFAULT"`` for a value the sources leave open) are kept in the
    field's metadata (:func:`tunable_params` reads them).  Other keyword arguments (``ge``, ``le``, ...) go to
    ``Field``.

    Raises:
        ConfigError: an empty range or a default outside it.

    >>> class Knobs(LokiModel):
    ...     width: float = tunable(0.05, 0.0, 0.2, source="DEFAULT", ge=0.0)
    >>> [(t.path, t.low, t.high, t.source) for t in tunable_params(Knobs())]
    [('width', 0.0, 0.2, 'DEFAULT')]
    """
    if not low < high or (default is not None and not low <= default <= high):
        raise ConfigError(f"tunable: need low < high and the default {default!r} in [{low!r}, {high!r}]")
    meta: dict[str, Any] = {"low": low, "high": high, "log": bool(log), "step": step, "source": source}
    return Field(default, json_schema_extra={"tune": meta}, **kw)


def derived(default: Any, **kw: Any):
    """A pydantic ``Field`` for a nested record that its owner overrides (e.g. the Simulator's Triple Generator, set
    from the player's): :func:`tunable_params` does not search inside it."""
    return Field(default, json_schema_extra={"tune": "derived"}, **kw)


@dataclass(frozen=True)
class TunableParam:
    """One tunable field of a configuration (:func:`tunable`).

    Attributes:
        path: the field's dotted path from the configuration (``"bettor.make1"``, ``"sim.trials"``).
        low, high: the search range; log: search on a log scale; step: grid step or None; integer: an int field.
        value: the field's value in the configuration; default: its class default.
        source: where the default comes from (a paper tag, ``"DEFAULT"``, or ``"DEFAULT (tuned: <study>)"``).
        doc: the field's description, if any.
    """

    path: str
    low: float
    high: float
    log: bool
    step: float | None
    integer: bool
    value: Any
    default: Any
    source: str
    doc: str = ""


def tunable_params(config: BaseModel, prefix: str = "") -> list[TunableParam]:
    """Every :func:`tunable` field of ``config`` and of the records nested in it, depth first in field order.

    Args:
        config: a configuration record (e.g. a player's :class:`loki.players.loki.Loki2Config`).
        prefix: prepended to the paths (used in the recursion).
    """
    out: list[TunableParam] = []
    for name, f in type(config).model_fields.items():
        value = getattr(config, name)
        extra: dict[str, Any] = f.json_schema_extra if isinstance(f.json_schema_extra, dict) else {}
        meta: Any = extra.get("tune")
        if meta == "derived":
            continue
        if isinstance(meta, dict):
            out.append(
                TunableParam(
                    prefix + name,
                    float(meta["low"]),
                    float(meta["high"]),
                    bool(meta["log"]),
                    meta.get("step"),
                    isinstance(f.default, int) and not isinstance(f.default, bool),
                    value,
                    f.default,
                    str(meta["source"]),
                    f.description or "",
                )
            )
        elif isinstance(value, BaseModel):
            out += tunable_params(value, prefix + name + ".")
    return out
