"""Player specifications: build any player from a short text spec.

Specs (case-insensitive) used by tournaments, the ACPC client and the human table:

- ``random``, ``calling`` — the reference players (no options: ``random:x`` raises ValueError);
- ``loki1`` — Loki-1 with the default configuration; ``loki1:TC``, ``loki1:TA``, ``loki1:LC``, ``loki1:LA``
  — the style presets (:data:`loki.players.loki1.STYLES`);
- ``loki2:<features>`` — Loki-2 with features from ``B``, ``R``, ``S`` (e.g. ``loki2:BR``, ``loki2:BRS``),
  optionally with a style, ``loki2:BR:LA`` (see :mod:`loki.players.loki2`).

>>> make_player("loki1:TA", seed=3).name
'Loki-1 TA'
>>> make_player("calling").name
'calling station'
"""

from __future__ import annotations

from collections.abc import Callable

from loki.players.base import Player

__all__ = ["make_player", "PLAYER_KINDS", "register"]

#: kind -> factory(options: list[str], seed: int, name: str | None) -> Player
PLAYER_KINDS: dict[str, Callable[..., Player]] = {}


def register(kind: str):
    """Decorator registering a factory for ``kind`` (the part of a spec before the first ``:``)."""

    def deco(fn):
        PLAYER_KINDS[kind.lower()] = fn
        return fn

    return deco


def _no_options(kind: str, opts: list[str]) -> None:
    if opts:
        raise ValueError(f"{':'.join([kind] + opts)!r}: unknown option {opts[0]!r} ({kind!r} takes no options)")


@register("random")
def _random(opts, seed, name):
    from loki.players.simple import RandomPlayer

    _no_options("random", opts)
    return RandomPlayer(seed, name=name or "random")


@register("calling")
def _calling(opts, seed, name):
    from loki.players.simple import CallingStation

    _no_options("calling", opts)
    return CallingStation(name=name or "calling station")


@register("loki1")
def _loki1(opts, seed, name):
    from loki.players.loki1 import STYLES, Loki1Config, Loki1Player

    if not opts:
        return Loki1Player(Loki1Config(), seed=seed, name=name or "Loki-1")
    style = opts[0].upper()
    if style not in STYLES or len(opts) > 1:
        raise ValueError(f"unknown Loki-1 style in {':'.join(['loki1'] + opts)!r}: expected one of {sorted(STYLES)}")
    return Loki1Player(STYLES[style], seed=seed, name=name or f"Loki-1 {style}")


def make_player(spec: str, seed: int = 0, name: str | None = None) -> Player:
    """Build a player from a spec such as ``"loki1:LA"`` or ``"loki2:BR"``.

    Args:
        spec: ``kind[:option...]`` (module docstring), case-insensitive.
        seed: seeds every random choice of the player.
        name: display name (default: from the spec).

    Raises:
        ValueError: an empty spec, an unknown kind (the message lists the known kinds), or an
            option the kind does not take or a bad option value (the message names the spec).
    """
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"player spec must be a non-empty string, got {spec!r}")
    kind, *opts = [p.strip() for p in spec.strip().split(":")]
    kind = kind.lower()
    if kind == "loki2" and kind not in PLAYER_KINDS:
        try:
            import loki.players.loki2  # noqa: F401  (registers itself)
        except ImportError:
            pass
    if kind not in PLAYER_KINDS:
        raise ValueError(
            f"unknown player type {spec!r}: expected one of {sorted(PLAYER_KINDS)} (e.g. 'loki1:TC', 'loki2:BR')"
        )
    return PLAYER_KINDS[kind](opts, seed, name)
