"""Income-rate (IR) tables IR2, IR4 and IR7 for the 169 hand classes.

Papp built the tables by simulating 1,000,000 games per hand class against 1, 3
and 6 opponents who "always call to the end", with ``IR = net_bankroll /
hands_played`` (PAPP98 papp/node37, Eq. 5.1), published ×1000 in Appendix A.
The raw rows are not available to us; the reference's reconstruction
(loki-algorithms.md §2.1, OURCHECK) is that the published anchors fit

    IR_N(h) = N × E_N(h) − 1

exactly, where ``E_N(h)`` is the showdown pot share of ``h`` against ``N − 1``
uniformly random hands (ties split) with everyone putting in the same stake.
We regenerate the tables with that recipe: :func:`rollout_table` samples
``n_samples`` deals per class in a compiled kernel (seeded per class, so the
result does not depend on the order or the number of worker processes).

The shipped tables (``loki/data/income_rates.csv``) were produced by::

    loki ir-tables --samples 1000000 --seed 1999

Published anchors (the tests check them): IR7 AA = +2043, IR7 72o = −495,
IR2 32s = −279, IR2 32o = −351, IR4 A8s = 338 (PENA99's example).

Not in the sources: :func:`class_equity_matrix`, the all-in equity of every class against every other (shipped
as ``loki/data/class_equity.csv``), and :func:`holding_equity`, a hand's equity against a weight table, for the
adaptive pre-flop model (:mod:`loki.preflop`).

>>> tables = load_tables()
>>> sorted(tables)
[2, 4, 7]
>>> tables[7].shape, tables[7].dtype
((169,), dtype('float64'))
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np

from loki._jit import njit
from loki.cards import (
    CLASS_NAMES,
    HOLDING_CARDS,
    HOLDING_CLASS,
    HOLDING_INDEX,
    HOLDING_MASKS,
    N_CLASSES,
    N_HOLDINGS,
    class_holdings,
)
from loki.errors import ConfigError, RangeError
from loki.evaluator import kernel_tables
from loki.evaluator.kernels import rank_from_key

__all__ = [
    "TABLE_PLAYERS",
    "IRTable",
    "class_pot_share",
    "rollout_table",
    "load_tables",
    "write_tables",
    "rollout_tables",
    "holding_ir",
    "class_equity_matrix",
    "load_class_equity",
    "write_class_equity",
    "holding_equity",
]

#: Number of players of each table (the hand itself plus 1, 3 or 6 opponents): PAPP98 papp/node37.
TABLE_PLAYERS = (2, 4, 7)

_DATA_FILE = "income_rates.csv"
_EQUITY_FILE = "class_equity.csv"


@njit(cache=True)
def _pot_share_kernel(c0, c1, n_players, n_samples, seed, tables):  # pragma: no cover - compiled
    # sum and sum of squares of the pot share over n_samples deals; tables = the evaluator tables
    card_key, card_bit = tables[0], tables[1]
    np.random.seed(seed)
    deck = np.empty(50, dtype=np.int64)
    k = 0
    for c in range(52):
        if c != c0 and c != c1:
            deck[k] = c
            k += 1
    need = 2 * (n_players - 1) + 5
    hole_key = card_key[c0] + card_key[c1]
    hole_bits = card_bit[c0] | card_bit[c1]
    total = 0.0
    total_sq = 0.0
    for _ in range(n_samples):
        for i in range(need):
            j = i + np.random.randint(50 - i)
            t = deck[i]
            deck[i] = deck[j]
            deck[j] = t
        bkey = 0
        bbits = 0
        for i in range(5):
            bkey += card_key[deck[i]]
            bbits |= card_bit[deck[i]]
        ours = rank_from_key(bkey + hole_key, bbits | hole_bits, tables)
        n_tied = 1
        lost = False
        for o in range(n_players - 1):
            a = deck[5 + 2 * o]
            b = deck[6 + 2 * o]
            r = rank_from_key(bkey + card_key[a] + card_key[b], bbits | card_bit[a] | card_bit[b], tables)
            if r > ours:
                lost = True
                break
            if r == ours:
                n_tied += 1
        share = 0.0 if lost else 1.0 / n_tied
        total += share
        total_sq += share * share
    return total, total_sq


#: Sampled deals per hand class at most (100 times Papp's 1,000,000: a run of hours, not of years).
MAX_SAMPLES = 100_000_000


def _check_samples(n_samples: int) -> None:
    if not 2 <= n_samples <= MAX_SAMPLES:
        raise ConfigError(f"n_samples={n_samples!r}: expected 2..{MAX_SAMPLES:,} (Papp used 1,000,000)")


def class_pot_share(hand_class: int | str, n_players: int, n_samples: int, seed: int) -> tuple[float, float]:
    """Monte Carlo showdown pot share of a hand class against ``n_players − 1`` random hands.

    Args:
        hand_class: class id 0..168 or name (``"AKs"``).
        n_players: 2..10, including the hand itself.
        n_samples: number of sampled deals (opponent hands and a 5-card board).
        seed: RNG seed for this class (same seed, same result).

    Returns:
        ``(mean share, standard error)``, both in pot fractions (0..1).

    Raises:
        CardError: a bad hand class (from :func:`loki.cards.class_holdings`).
        ConfigError: a bad player or sample count.
    """
    members = class_holdings(hand_class if isinstance(hand_class, str) else int(hand_class))
    if not 2 <= n_players <= 10:
        raise ConfigError(f"n_players={n_players!r}: expected 2..10")
    _check_samples(n_samples)
    c0, c1 = (int(x) for x in HOLDING_CARDS[members[0]])  # suit isomorphism: any member will do
    tot, tot_sq = _pot_share_kernel(c0, c1, n_players, int(n_samples), int(seed), kernel_tables())
    mean = tot / n_samples
    var = max(tot_sq / n_samples - mean * mean, 0.0)
    return mean, float(np.sqrt(var / (n_samples - 1)))


@njit(cache=True)
def _class_equity_kernel(members, counts, n_samples, seed, tables):  # pragma: no cover - compiled
    # out[a, b] = mean showdown pot share of class a against class b (ties split), for a < b; members[c, :counts[c]]
    # are the class's holdings as (card, card) pairs
    card_key, card_bit = tables[0], tables[1]
    n = counts.shape[0]
    out = np.full((n, n), 0.5)
    deck = np.empty(52, dtype=np.int64)
    for a in range(n):
        for b in range(a + 1, n):
            np.random.seed(seed + a * 1000 + b)
            total = 0.0
            for _ in range(n_samples):
                while True:
                    i = np.random.randint(counts[a])
                    j = np.random.randint(counts[b])
                    a0, a1 = members[a, i, 0], members[a, i, 1]
                    b0, b1 = members[b, j, 0], members[b, j, 1]
                    if a0 != b0 and a0 != b1 and a1 != b0 and a1 != b1:
                        break
                k = 0
                for c in range(52):
                    if c != a0 and c != a1 and c != b0 and c != b1:
                        deck[k] = c
                        k += 1
                bkey = 0
                bbits = 0
                for t in range(5):
                    r = t + np.random.randint(48 - t)
                    x = deck[t]
                    deck[t] = deck[r]
                    deck[r] = x
                    bkey += card_key[deck[t]]
                    bbits |= card_bit[deck[t]]
                ra = rank_from_key(bkey + card_key[a0] + card_key[a1], bbits | card_bit[a0] | card_bit[a1], tables)
                rb = rank_from_key(bkey + card_key[b0] + card_key[b1], bbits | card_bit[b0] | card_bit[b1], tables)
                if ra > rb:
                    total += 1.0
                elif ra == rb:
                    total += 0.5
            out[a, b] = total / n_samples
            out[b, a] = 1.0 - out[a, b]
    return out


def class_equity_matrix(n_samples: int = 20_000, seed: int = 2016) -> np.ndarray:
    """Monte Carlo all-in equity of every hand class against every other: ``(169, 169) float64``, ``[a, b]`` = the
    showdown pot share (ties split, 0..1) of class ``a`` against class ``b``, each deal a random pair of
    non-overlapping members and a random 5-card board; ``[a, b] + [b, a] = 1``, the diagonal 0.5.

    The matchup values pre-flop opponent modelling needs (:mod:`loki.preflop`, the "adaptive" model; DEFAULT, beyond
    the sources).  The shipped matrix (``loki/data/class_equity.csv``) is ``class_equity_matrix(20000, 2016)``:
    standard error ≤ 0.0036 per entry.

    Raises:
        ConfigError: ``n_samples`` < 1.
    """
    if n_samples < 1:
        raise ConfigError(f"n_samples={n_samples!r}: expected at least 1")
    members = np.zeros((N_CLASSES, 12, 2), dtype=np.int64)
    counts = np.zeros(N_CLASSES, dtype=np.int64)
    for c in range(N_CLASSES):
        hs = class_holdings(c)
        counts[c] = len(hs)
        members[c, : len(hs)] = HOLDING_CARDS[hs]
    return _class_equity_kernel(members, counts, int(n_samples), int(seed), kernel_tables())


def write_class_equity(matrix: np.ndarray, path: str | Path, command: str = "") -> None:
    """Write a class-equity matrix as CSV: a header of class names, then one row per class (4 decimals)."""
    with open(path, "w", newline="") as fh:
        fh.write(
            "# All-in equity of the row class against the column class (ties split), loki.assessment.income_rate.class_equity_matrix\n"
        )
        if command:
            fh.write(f"# regenerate with: {command}\n")
        w = csv.writer(fh)
        w.writerow(["class", *CLASS_NAMES])
        for cid, name in enumerate(CLASS_NAMES):
            w.writerow([name] + [f"{x:.4f}" for x in matrix[cid]])


_EQ_CACHE: np.ndarray | None = None


def _data_rows(path: str | Path | None, default: str) -> tuple[list[list[str]], str]:
    """The non-comment CSV rows of ``path`` (default: the shipped ``loki/data/<default>``) and how messages name
    the file.

    Raises:
        ConfigError: an empty file.
    """
    if path is None:
        text = resources.files("loki").joinpath("data", default).read_text()
        where = f"loki/data/{default}"
    else:
        text = Path(path).read_text()
        where = str(path)
    rows = [r for r in csv.reader(io.StringIO(text)) if r and not r[0].startswith("#")]
    if not rows:
        raise ConfigError(f"{where}: no rows (expected a header and one row per class)")
    return rows, where


def load_class_equity(path: str | Path | None = None) -> np.ndarray:
    """The class-equity matrix ``(169, 169) float64`` (read-only), default the shipped ``loki/data/class_equity.csv``.

    Raises:
        ConfigError: a malformed file (wrong classes or shape, non-numeric values), naming the file.
    """
    global _EQ_CACHE
    if path is None and _EQ_CACHE is not None:
        return _EQ_CACHE
    rows, where = _data_rows(path, _EQUITY_FILE)
    if rows[0][1:] != list(CLASS_NAMES) or [r[0] for r in rows[1:]] != list(CLASS_NAMES):
        raise ConfigError(f"{where}: expected a header and one row per class, in loki.cards.CLASS_NAMES order")
    try:
        m = np.array([[float(x) for x in r[1:]] for r in rows[1:]])
    except ValueError as e:
        raise ConfigError(f"{where}: {e}") from None
    if m.shape != (N_CLASSES, N_CLASSES):
        raise ConfigError(f"{where}: expected {N_CLASSES} x {N_CLASSES} values, got {m.shape}")
    m.setflags(write=False)
    if path is None:
        _EQ_CACHE = m
    return m


def holding_equity(hole: tuple[int, int], weights: np.ndarray) -> float:
    """All-in pre-flop equity (0..1) of ``hole`` against an opponent holding drawn from ``weights``.

    ``Σ w(o)·M[class(hole), class(o)] / Σ w(o)`` over the holdings ``o`` that share no card with ``hole``, M the class
    matrix (:func:`load_class_equity`): suit interactions between the two hands are averaged over each class (an
    approximation, a few thousandths).

    Args:
        hole: our two cards (ints).
        weights: ``(1326,)`` the opponent's weight table.

    Raises:
        RangeError: ``weights`` of the wrong shape, or no weight on any live holding.

    >>> w = np.ones(1326)
    >>> aa = (48, 49)  # two aces
    >>> round(holding_equity(aa, w), 2)
    0.85
    """
    w = np.asarray(weights, dtype=np.float64)
    if w.shape != (N_HOLDINGS,):
        raise RangeError(f"weights must have shape (1326,), got {w.shape}")
    c0, c1 = int(hole[0]), int(hole[1])
    live = (HOLDING_MASKS & np.uint64((1 << c0) | (1 << c1))) == 0
    wl = np.where(live, w, 0.0)
    tot = float(wl.sum())
    if tot <= 0.0:
        raise RangeError("the weight table has no weight on a holding live with our cards")
    row = load_class_equity()[int(HOLDING_CLASS[HOLDING_INDEX[c0, c1]])]
    # numpy's pairwise sum of the products, in holding order: the same floats on every CPU (a BLAS dot product adds
    # in the order of the machine's kernel, so its last bits, and a decision at a threshold, could differ)
    return float((wl * row[HOLDING_CLASS]).sum()) / tot


@dataclass(frozen=True)
class IRTable:
    """One income-rate table: ``values`` and ``stderr`` are ``(169,) float64`` in milli-bets per hand (×1000 scale)."""

    n_players: int
    values: np.ndarray
    stderr: np.ndarray


def _class_seed(seed: int, n_players: int, cid: int) -> int:
    return (int(seed) * 1_000_003 + n_players * 1009 + cid) % (2**31 - 1)


def rollout_table(n_players: int, n_samples: int = 1_000_000, seed: int = 1999, progress=None) -> IRTable:
    """Income rates ``IR_N = N × E_N − 1`` (×1000) for all 169 classes (loki-algorithms.md §2.1 recipe).

    Each class uses its own derived seed, so the table is reproducible and independent of evaluation order.

    Args:
        n_players: players at the table (2, 4, 7 for Papp's tables; any 2..10 allowed).
        n_samples: deals per class (Papp: 1,000,000).
        seed: master seed.
        progress: optional callable ``progress(done, total)``.

    Returns:
        :class:`IRTable` with values and standard errors on the ×1000 scale.
    """
    values = np.empty(N_CLASSES)
    errs = np.empty(N_CLASSES)
    for cid in range(N_CLASSES):
        m, se = class_pot_share(cid, n_players, n_samples, _class_seed(seed, n_players, cid))
        values[cid] = 1000.0 * (n_players * m - 1.0)
        errs[cid] = 1000.0 * n_players * se
        if progress is not None:
            progress(cid + 1, N_CLASSES)
    return IRTable(n_players, values, errs)


def write_tables(tables: dict[int, IRTable], path: str | Path, command: str = "") -> None:
    """Write IR tables to the CSV format shipped in ``loki/data`` (one row per class)."""
    ns = sorted(tables)
    with open(path, "w", newline="") as fh:
        fh.write(
            "# Income-rate tables (x1000), IR_N = N * showdown_share - 1 vs N-1 random hands (PAPP98 Eq. 5.1; loki-algorithms.md 2.1)\n"
        )
        if command:
            fh.write(f"# regenerate with: {command}\n")
        w = csv.writer(fh)
        w.writerow(["class"] + [f"IR{n}" for n in ns] + [f"IR{n}_stderr" for n in ns])
        for cid, name in enumerate(CLASS_NAMES):
            w.writerow(
                [name] + [f"{tables[n].values[cid]:.1f}" for n in ns] + [f"{tables[n].stderr[cid]:.2f}" for n in ns]
            )


_CACHE: dict[int, np.ndarray] | None = None


def load_tables(path: str | Path | None = None) -> dict[int, np.ndarray]:
    """Load the IR tables: ``{2: (169,) float64, 4: ..., 7: ...}`` indexed by class id (×1000 scale).

    Args:
        path: a CSV written by :func:`write_tables`; default the shipped file.

    Raises:
        ConfigError: a malformed file (missing classes or columns, non-numeric values), naming the file.
    """
    global _CACHE
    if path is None and _CACHE is not None:
        return _CACHE
    rows, where = _data_rows(path, _DATA_FILE)
    header, body = rows[0], rows[1:]
    cols = {name: i for i, name in enumerate(header)}
    out: dict[int, np.ndarray] = {}
    for n in TABLE_PLAYERS:
        if f"IR{n}" not in cols:
            raise ConfigError(f"{where}: missing column IR{n}")
        arr = np.full(N_CLASSES, np.nan)
        for r in body:
            try:
                arr[CLASS_NAMES.index(r[0])] = float(r[cols[f"IR{n}"]])
            except (ValueError, IndexError) as e:
                raise ConfigError(f"{where}: bad row {r!r}: {e}") from None
        if np.isnan(arr).any():
            raise ConfigError(f"{where}: IR{n} lacks classes {[CLASS_NAMES[i] for i in np.flatnonzero(np.isnan(arr))]}")
        arr.setflags(write=False)
        out[n] = arr
    if path is None:
        _CACHE = out
    return out


def holding_ir(n_players: int) -> np.ndarray:
    """``(1326,) float64``: the IR (x1000 scale) of every holding from table ``IR{n_players}``.

    Indexed by holding id (:data:`loki.cards.HOLDING_CLASS` maps it to its class); the tables are
    PAPP98 Eq. 5.1 roll-outs (:func:`load_tables`).

    Raises:
        ConfigError: ``n_players`` not in 2, 4, 7 (the shipped tables), or a malformed shipped file.
    """
    tables = load_tables()
    if n_players not in tables:
        raise ConfigError(f"no IR table for {n_players} players: expected one of {sorted(tables)}")
    return tables[n_players][HOLDING_CLASS]


def rollout_tables(n_samples: int = 1_000_000, seed: int = 1999, progress=None) -> dict[int, IRTable]:
    """Roll out IR2, IR4 and IR7 (PAPP98 Eq. 5.1, see :func:`rollout_table`): what ``loki ir-tables`` computes
    before it writes them with :func:`write_tables` (to a new file: loki's shipped tables are never replaced).

    Args:
        n_samples: sampled deals per hand class.
        seed: the master seed (each table and class derives its own).
        progress: called as ``progress(done, total)`` over the three tables' classes.

    Returns:
        ``{n_players: IRTable}`` for the players of :data:`TABLE_PLAYERS`.

    Raises:
        ConfigError: ``n_samples`` outside 2 .. :data:`MAX_SAMPLES` (before any roll-out).
    """
    _check_samples(n_samples)
    tables = {}
    for i, n in enumerate(TABLE_PLAYERS):

        def prog(done, total, i=i):
            if progress is not None:
                progress(i * total + done, len(TABLE_PLAYERS) * total)

        tables[n] = rollout_table(n, n_samples, seed, prog)
    return tables
