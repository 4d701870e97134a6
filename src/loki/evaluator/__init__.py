"""The Hand Evaluator's hand ranker (AAAI99 §3, Figure 2): exact ranks of 5-, 6- and 7-card hands.

Package face: the keys and table format (:mod:`~loki.evaluator.keys`), the lazily built tables
(:mod:`~loki.evaluator.build`), the numba kernels (:mod:`~loki.evaluator.kernels`) and the Python API with the
design notes (:mod:`~loki.evaluator.api`).  Importing it neither imports numba nor builds a table: ``RANK_TABLE``,
``FLUSH_TABLE``, ``HASH_OFFSETS``, ``rank_from_key`` and ``hand_category`` are resolved on first access.
"""

from __future__ import annotations

from loki.evaluator.api import (
    category_name,
    class_ranks,
    describe,
    describe_kickers,
    evaluate,
    evaluate_batch,
    kernel_tables,
    rank5,
    rank6,
    rank7,
    rank_batch,
    rank_cards,
    tables,
)
from loki.evaluator.keys import (
    CARD_BIT,
    CARD_KEY,
    CARD_KEY7,
    CATEGORY_FIRST_RANK,
    CATEGORY_NAMES,
    FLUSH_CHECK,
    FLUSH_CHECK7,
    HASH_SHIFT,
    N_RANKS,
    RANK_KEYS,
    RANK_SHIFT,
    SUIT_BIAS,
    SUIT_SHIFT,
    EvalTables,
)

__all__ = [
    "N_RANKS",
    "CATEGORY_NAMES",
    "CATEGORY_FIRST_RANK",
    "RANK_KEYS",
    "CARD_KEY",
    "CARD_KEY7",
    "CARD_BIT",
    "SUIT_SHIFT",
    "SUIT_BIAS",
    "FLUSH_CHECK",
    "FLUSH_CHECK7",
    "RANK_SHIFT",
    "FLUSH_TABLE",  # noqa: F822 - resolved on first access by __getattr__
    "RANK_TABLE",  # noqa: F822 - resolved on first access by __getattr__
    "HASH_OFFSETS",  # noqa: F822 - resolved on first access by __getattr__
    "HASH_SHIFT",
    "EvalTables",
    "tables",
    "kernel_tables",
    "rank_from_key",  # noqa: F822 - resolved on first access by __getattr__
    "rank5",
    "rank6",
    "rank7",
    "rank_cards",
    "rank_batch",
    "hand_category",  # noqa: F822 - resolved on first access by __getattr__
    "evaluate",
    "evaluate_batch",
    "category_name",
    "describe",
    "describe_kickers",
    "class_ranks",
]

_LAZY_TABLES = {"RANK_TABLE": "rank_table", "FLUSH_TABLE": "flush_table", "HASH_OFFSETS": "hash_offsets"}
_LAZY_KERNELS = ("rank_from_key", "hand_category")


def __getattr__(name: str):
    # RANK_TABLE & co. and the table-free kernels, resolved on first access (PEP 562) so that
    # importing this package neither builds the tables nor imports numba.
    if name in _LAZY_TABLES:
        return getattr(tables(), _LAZY_TABLES[name])
    if name in _LAZY_KERNELS:
        from loki.evaluator import kernels

        return getattr(kernels, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
