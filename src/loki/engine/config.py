"""The rules of a fixed-limit game: :class:`GameConfig` (amounts in chips)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from loki.errors import ConfigError

__all__ = ["GameConfig", "STREET_NAMES", "ODD_CHIP_RULES"]

STREET_NAMES = ("preflop", "flop", "turn", "river")
ODD_CHIP_RULES = ("left_of_button", "split")


@dataclass(frozen=True, slots=True)
class GameConfig:
    """Rules of a fixed-limit Texas Hold'em game (amounts in chips).

    Attributes:
        n_players: 2..10 seats, numbered 0..n-1.
        small_bet: bet size pre-flop and on the flop (chips, > 0).
        big_bet: bet size on the turn and river (chips, >= small_bet).
        small_blind: forced bet of the small blind (chips, >= 0).
        big_blind: forced bet of the big blind (chips, > 0, >= small_blind).
        max_bets: bets per round including the first bet (pre-flop: including the big blind),
            so ``4`` means a bet and 3 raises; >= 1.
        stacks: ``None`` for unlimited bankrolls, an int (every seat) or a tuple of ``n_players``
            ints (per seat; chips at the start of each hand, each >= 1).
        odd_chip: ``"left_of_button"`` (integer chips, remainder of an uneven split to the first
            winner clockwise from the button; pokerkit's rule) or ``"split"`` (exact fractional
            split, float payoffs; the ACPC dealer's rule).  See the :mod:`loki.engine` docstring.

    Raises:
        ConfigError: any field out of range (a ``ValueError``); the message names the field and the
            value.

    >>> GameConfig(n_players=3, stacks=50).stacks
    (50, 50, 50)
    """

    n_players: int = 2
    small_bet: int = 10
    big_bet: int = 20
    small_blind: int = 5
    big_blind: int = 10
    max_bets: int = 4
    stacks: int | tuple[int, ...] | None = None
    odd_chip: str = "left_of_button"

    def __post_init__(self):
        def _int(name, lo, hi=None):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
                raise ConfigError(f"GameConfig.{name} must be an int, got {v!r}")
            if v < lo or (hi is not None and v > hi):
                rng = f"{lo}..{hi}" if hi is not None else f">= {lo}"
                raise ConfigError(f"GameConfig.{name} = {v!r} out of range (expected {rng})")
            object.__setattr__(self, name, int(v))

        _int("n_players", 2, 10)
        _int("small_bet", 1)
        _int("big_bet", 1)
        _int("small_blind", 0)
        _int("big_blind", 1)
        _int("max_bets", 1)
        if self.small_blind > self.big_blind:
            raise ConfigError(f"GameConfig.small_blind = {self.small_blind} exceeds big_blind = {self.big_blind}")
        if self.big_bet < self.small_bet:  # the turn and river bet is the big one (limit hold'em: twice the small)
            raise ConfigError(f"GameConfig.big_bet = {self.big_bet} is below small_bet = {self.small_bet}")
        if self.odd_chip not in ODD_CHIP_RULES:
            raise ConfigError(f"GameConfig.odd_chip = {self.odd_chip!r}: expected one of {ODD_CHIP_RULES}")
        st = self.stacks
        if st is not None:
            if isinstance(st, (int, np.integer)) and not isinstance(st, bool):
                st = (int(st),) * self.n_players
            else:
                try:
                    st = tuple(st)
                except TypeError:
                    raise ConfigError(
                        f"GameConfig.stacks must be None, an int or a tuple of ints, got {self.stacks!r}"
                    ) from None
            if len(st) != self.n_players:
                raise ConfigError(f"GameConfig.stacks has {len(st)} entries for {self.n_players} players")
            for v in st:
                if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 1:
                    raise ConfigError(f"GameConfig.stacks entries must be ints >= 1 chip, got {self.stacks!r}")
            object.__setattr__(self, "stacks", tuple(int(v) for v in st))

    @property
    def bet_sizes(self) -> tuple[int, int, int, int]:
        """Bet size per round (chips): ``(small_bet, small_bet, big_bet, big_bet)``."""
        return (self.small_bet, self.small_bet, self.big_bet, self.big_bet)

    @property
    def raise_caps(self) -> tuple[int, int, int, int]:
        """Bets-or-raises allowed per round *excluding* the big blind (ACPC ``maxRaises``)."""
        return (self.max_bets - 1, self.max_bets, self.max_bets, self.max_bets)
