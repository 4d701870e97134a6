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

from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from loki.errors import ConfigError

__all__ = ["LokiModel", "format_validation_error"]


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
