"""The ACPC dealer's cards: the same seed gives the same cards as the ACPC dealer.

Source: ``../shared/reference/acpc-dealing.md`` (read from the ACPC server source, v1.0.42, and
checked against the real seed-0 logs in ``../shared/acpc/``):

- one reference Mersenne Twister MT19937 per match, seeded with the single-integer seeding
  ``init_genrand(seed)`` and never reseeded (hand ``h + 1`` continues where hand ``h`` stopped);
- at the start of every hand the deck is in the order suits-outer, ranks-inner
  (``2c 3c ... Ac 2d ... As``; card ids of :mod:`loki.cards`, ``4 * rank + suit``, the ACPC numbering);
- one card from ``n`` remaining: ``i = genrand_int32() mod n``, the card is ``deck[i]``, the last
  card ``deck[n - 1]`` moves into slot ``i``;
- draw order: both hole cards of position 0, then of position 1, ..., then every board card of the
  hand (all of them, even when the hand ends early).

The generator below is written from the MT19937 definition (Matsumoto and Nishimura, 1998:
``w = 32, n = 624, m = 397, r = 31``, ``a = 0x9908B0DF``, tempering ``u = 11, s = 7, b = 0x9D2C5680,
t = 15, c = 0xEFC60000, l = 18``, initialisation multiplier ``1812433253``).

>>> deals = AcpcDeals(seed=0, n_players=2)
>>> deals.hand()
(['5d5c', '9hQd'], '8dAs8s4h6d')
"""

from __future__ import annotations

from loki.cards import format_card
from loki.errors import ConfigError

__all__ = ["MT19937", "AcpcDeals", "acpc_deck"]

_N, _M = 624, 397
_MATRIX_A = 0x9908B0DF
_UPPER, _LOWER = 0x80000000, 0x7FFFFFFF
_MASK32 = 0xFFFFFFFF


class MT19937:
    """The 32-bit Mersenne Twister with the reference single-integer seeding ``init_genrand``.

    Args:
        seed: 0 .. 2**32 - 1 (the C code keeps the low 32 bits of an ``unsigned long``).

    Raises:
        ConfigError: a seed outside 0 .. 2**32 - 1.

    >>> g = MT19937(5489)          # the reference code's default seed
    >>> g.genrand_int32()          # its first output, as published with the reference code
    3499211612
    """

    def __init__(self, seed: int):
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= _MASK32:
            raise ConfigError(f"seed {seed!r}: the ACPC dealer's seed is a 32-bit unsigned integer (0..4294967295)")
        mt = [0] * _N
        mt[0] = seed
        for i in range(1, _N):
            mt[i] = (1812433253 * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i) & _MASK32
        self.mt = mt
        self.index = _N  # the first draw regenerates the whole state

    def _twist(self) -> None:
        mt = self.mt
        for k in range(_N):
            y = (mt[k] & _UPPER) | (mt[(k + 1) % _N] & _LOWER)
            v = mt[(k + _M) % _N] ^ (y >> 1)
            if y & 1:
                v ^= _MATRIX_A
            mt[k] = v
        self.index = 0

    def genrand_int32(self) -> int:
        """The next 32-bit output (0 .. 2**32 - 1)."""
        if self.index >= _N:
            self._twist()
        y = self.mt[self.index]
        self.index += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        y ^= y >> 18
        return y


def acpc_deck() -> list[int]:
    """The deck at the start of every hand: suits outer, ranks inner (``2c 3c ... Ac 2d ... As``),
    as card ids ``4 * rank + suit``."""
    return [4 * rank + suit for suit in range(4) for rank in range(13)]


class AcpcDeals:
    """The cards of successive hands of an ACPC match with ``seed`` (module docstring).

    Args:
        seed: the match seed (0 .. 2**32 - 1).
        n_players: players in the game (2..10).
        hole_cards: hole cards per player (2 in hold'em).
        board_cards: board cards of the whole hand (5 in hold'em: 3 + 1 + 1).

    Raises:
        ConfigError: a bad seed, or more cards than the deck holds.
    """

    def __init__(self, seed: int, n_players: int, hole_cards: int = 2, board_cards: int = 5):
        if n_players * hole_cards + board_cards > 52 or n_players < 1:
            raise ConfigError(
                f"{n_players} players x {hole_cards} hole cards + {board_cards} board cards do not fit one deck"
            )
        self.rng = MT19937(seed)
        self.n_players, self.hole_cards, self.board_cards = n_players, hole_cards, board_cards
        self.hands_dealt = 0

    def draw_hand(self) -> tuple[list[list[int]], list[int]]:
        """The next hand as card ids: ``(holes per position, board)``."""
        deck = acpc_deck()
        n = len(deck)
        drawn = []
        for _ in range(self.n_players * self.hole_cards + self.board_cards):
            i = self.rng.genrand_int32() % n
            drawn.append(deck[i])
            deck[i] = deck[n - 1]
            n -= 1
        k = self.hole_cards
        holes = [drawn[p * k : (p + 1) * k] for p in range(self.n_players)]
        self.hands_dealt += 1
        return holes, drawn[self.n_players * k :]

    def hand(self) -> tuple[list[str], str]:
        """The next hand as text: ``(hole cards per position, e.g. ['5d5c', '9hQd'], the board '8dAs8s4h6d')``."""
        holes, board = self.draw_hand()
        return ["".join(format_card(c) for c in h) for h in holes], "".join(format_card(c) for c in board)
