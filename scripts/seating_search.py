"""Search the duplicate seatings shipped in :data:`loki.tournament.schedule.SEATINGS`.

For ``n`` players a deal is replayed ``n`` times; the seatings of the replays form a Latin square
(every player sits in every seat once, so holds every set of hole cards once).  Among Latin squares we
want, lexicographically, the largest (minimum over pairs of players, sum over pairs) of the number of
*distinct cyclic seat offsets* ``(seat_j - seat_i) mod n`` at which the pair meets over the ``n``
replays (AAAI-99 §6, condition 2: "each player sits in a different position relative to all
opponents").  A pair meets at most at ``n - 1`` offsets (offset 0 is impossible).

Work in the player -> seat form ``P[r][i]`` (seat of player ``i`` in replay ``r``); it is a Latin
square too and the objective only depends on its columns' differences, so it is invariant under
permuting replays (rows) and renaming players (columns).  Hence:

* ``exhaustive`` (n <= 7): enumerate the *reduced* squares (first row and first column the identity:
  every Latin square is a row and column permutation of one), branch and bound on the per-pair upper
  bound ``min(n - 1, distinct so far + replays left)``.  Exact: the printed optimum is the true one.
  With ``--williams`` only row-complete squares (each ordered pair of players side by side, seat s
  then s + 1, exactly once) are enumerated, to see what that property costs.
* ``anneal`` (any n): seeded simulated annealing over Latin squares with a fixed number of moves (no
  clock, so the result is a pure function of the arguments).  A move picks two replays and one cycle
  of the permutation that maps the players' seats in one replay to the seats of the other, and swaps
  the two replays' seats along that cycle: both rows stay permutations and every player keeps the
  same set of seats, so the square stays Latin.  Energy: ``sum over pairs (n - 1 - distinct)**3``
  (DEFAULT: a concave surrogate that pushes the worst pairs first); the best square by the
  lexicographic criterion is kept.

The result is normalised (:func:`normalise`): players renamed so that the pair meeting at the most
offsets becomes the enhanced pair ``(n - 2, n - 1)`` of a Figure 3 field (ties: the pair with the
most distinct *linear* offsets, then the first found), player ``i`` sits in seat ``i`` in replay 0, and
the replays ordered by the seat of player 0.  ``--emit`` prints the dict literal pasted into
``schedule.py``.

    python scripts/seating_search.py exhaustive 6
    python scripts/seating_search.py anneal 10 --seeds 0 1 2 3 --moves 2000000
    python scripts/seating_search.py design --emit   # the shipped designs
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit

from loki.tournament.schedule import offset_counts

# ------------------------------------------------------------------------------ scoring (numba)


@njit(cache=True)
def _distinct(P, n, i, j, seen):  # pragma: no cover - numba
    """Distinct cyclic offsets at which players ``i`` and ``j`` meet over the replays of ``P`` (``seen``: scratch)."""
    seen[:] = 0
    d = 0
    for r in range(n):
        o = (P[r, j] - P[r, i]) % n
        if seen[o] == 0:
            seen[o] = 1
            d += 1
    return d


@njit(cache=True)
def _score(P, n):  # pragma: no cover - numba
    """(min over pairs, sum over pairs) of the distinct cyclic offsets of the player -> seat square P."""
    seen = np.zeros(n, np.int64)
    mn = n
    tot = 0
    for i in range(n):
        for j in range(i + 1, n):
            d = _distinct(P, n, i, j, seen)
            tot += d
            if d < mn:
                mn = d
    return mn, tot


@njit(cache=True)
def _energy(P, n):  # pragma: no cover - numba
    """Annealing energy: the sum over pairs of (offsets missed)³."""
    seen = np.zeros(n, np.int64)
    e = 0
    for i in range(n):
        for j in range(i + 1, n):
            e += (n - 1 - _distinct(P, n, i, j, seen)) ** 3
    return e


# ------------------------------------------------------------------------- exhaustive (numba)


@njit(cache=True)
def _exhaustive(n, best_min, best_sum, williams, max_keep):  # pragma: no cover - numba  # noqa: C901 - one branch and bound, its pruning rules read together
    """Branch and bound over reduced player -> seat squares; returns (best_min, best_sum, n_best, kept).

    ``best_min``/``best_sum``: a lower bound to start from (squares strictly worse are pruned; equal
    ones are counted).  ``kept``: up to ``max_keep`` optimal squares.
    """
    P = -np.ones((n, n), np.int64)
    L = -np.ones((n, n), np.int64)  # L[r, s] = player at seat s
    colu = np.zeros((n, n), np.bool_)
    adj = np.zeros((n, n), np.bool_)  # adj[a, b]: a at seat s and b at seat s + 1 in some replay
    cnt = np.zeros((n, n, n), np.int64)
    dist = np.zeros((n, n), np.int64)
    for i in range(n):
        P[0, i] = i
        L[0, i] = i
        colu[i, i] = True
        if i + 1 < n:
            adj[i, i + 1] = True
    for i in range(n):
        for j in range(i + 1, n):
            cnt[i, j, (j - i) % n] = 1
            dist[i, j] = 1
    # upper bound of each pair = min(n - 1, dist + replays in which the pair is still unplaced)
    ub = np.zeros((n, n), np.int64)
    sum_ub = 0
    for i in range(n):
        for j in range(i + 1, n):
            ub[i, j] = min(n - 1, 1 + n - 1)
            sum_ub += ub[i, j]
    ncells = (n - 1) * n
    placed = -np.ones(ncells + 1, np.int64)
    nxt = np.zeros(ncells + 1, np.int64)
    kept = np.zeros((max_keep, n, n), np.int64)
    n_best = 0
    k = 0
    while k >= 0:
        if k == ncells:
            mn = n
            for i in range(n):
                for j in range(i + 1, n):
                    if dist[i, j] < mn:
                        mn = dist[i, j]
            tot = sum_ub  # all bounds are exact now
            if mn > best_min or (mn == best_min and tot > best_sum):
                best_min = mn
                best_sum = tot
                n_best = 0
            if mn == best_min and tot == best_sum:
                if n_best < max_keep:
                    kept[n_best] = P
                n_best += 1
            k -= 1
            continue
        r = 1 + k // n
        i = k % n
        left = n - 1 - r  # replays after r
        # undo the placement at k, if any
        s0 = placed[k]
        if s0 >= 0:
            for j in range(i):
                d = (s0 - P[r, j]) % n
                cnt[j, i, d] -= 1
                if cnt[j, i, d] == 0:
                    dist[j, i] -= 1
                sum_ub -= ub[j, i]
                ub[j, i] = min(n - 1, dist[j, i] + left + 1)
                sum_ub += ub[j, i]
            if williams:
                if s0 > 0:
                    adj[L[r, s0 - 1], i] = False
                if s0 + 1 < n and L[r, s0 + 1] >= 0:
                    adj[i, L[r, s0 + 1]] = False
            colu[i, s0] = False
            L[r, s0] = -1
            P[r, i] = -1
            placed[k] = -1
        # next candidate seat
        found = -1
        s = nxt[k]
        while s < n:
            ok = L[r, s] < 0 and not colu[i, s]
            if ok and i == 0 and s != r:
                ok = False
            if ok and williams:
                if s > 0 and L[r, s - 1] >= 0 and adj[L[r, s - 1], i]:
                    ok = False
                if ok and s + 1 < n and L[r, s + 1] >= 0 and adj[i, L[r, s + 1]]:
                    ok = False
            if ok:
                found = s
                break
            s += 1
        if found < 0:
            nxt[k] = 0
            k -= 1
            continue
        s = found
        nxt[k] = s + 1
        placed[k] = s
        P[r, i] = s
        L[r, s] = i
        colu[i, s] = True
        if williams:
            if s > 0 and L[r, s - 1] >= 0:
                adj[L[r, s - 1], i] = True
            if s + 1 < n and L[r, s + 1] >= 0:
                adj[i, L[r, s + 1]] = True
        bad = False
        for j in range(i):
            d = (s - P[r, j]) % n
            cnt[j, i, d] += 1
            if cnt[j, i, d] == 1:
                dist[j, i] += 1
            sum_ub -= ub[j, i]
            ub[j, i] = min(n - 1, dist[j, i] + left)
            sum_ub += ub[j, i]
            if ub[j, i] < best_min:
                bad = True
        if not bad and sum_ub < best_sum:
            mn = n
            for a in range(n):
                for b in range(a + 1, n):
                    if ub[a, b] < mn:
                        mn = ub[a, b]
            if mn <= best_min:
                bad = True
        if bad:
            continue  # the loop undoes this placement and tries the next seat
        k += 1
        nxt[k] = 0
    return best_min, best_sum, n_best, kept[: min(n_best, max_keep)]


def exhaustive(n: int, williams: bool = False, start: tuple[int, int] = (0, 0), keep: int = 1000):
    """The optimum (min, sum) over all Latin squares of order n (row-complete ones if ``williams``).

    Returns ``(min, sum, count of optimal reduced squares, up to keep of them as player -> seat arrays)``.
    """
    return _exhaustive(n, start[0], start[1], williams, keep)


# ---------------------------------------------------------------------------- anneal (numba)


@njit(cache=True)
def _row_cycle(A, r1, r2, start, seen, cyc):  # pragma: no cover - numba
    """Swap rows r1 and r2 of the Latin square A along the cycle through column ``start`` of the
    permutation ``c -> the column where row r1 holds A[r2, c]``; returns the cycle length (0: the
    cycle is the whole row or a fixed point, nothing done)."""
    n = A.shape[1]
    seen[:] = False
    m = 0
    k = start
    while not seen[k]:
        seen[k] = True
        cyc[m] = k
        m += 1
        v = A[r2, k]
        for c in range(n):
            if A[r1, c] == v:
                k = c
                break
    if m == n or m == 1:
        return 0
    for q in range(m):
        c = cyc[q]
        A[r1, c], A[r2, c] = A[r2, c], A[r1, c]
    return m


@njit(cache=True)
def _anneal(P, n, seed, moves, t0, t1):  # pragma: no cover - numba
    """Simulated annealing from the player -> seat Latin square P; returns the best square found.

    Moves (equally likely): a cycle switch between two replays (rows of P), between two players
    (columns of P) or between two seats (columns of the seat -> player square).
    """
    np.random.seed(seed)
    cur = _energy(P, n)
    bmin, bsum = _score(P, n)
    best = P.copy()
    old = P.copy()
    L = np.empty((n, n), np.int64)
    seen = np.zeros(n, np.bool_)
    cyc = np.empty(n, np.int64)
    for it in range(moves):
        temp = t0 * (t1 / t0) ** (it / moves)
        a = np.random.randint(n)
        b = np.random.randint(n - 1)
        if b >= a:
            b += 1
        start = np.random.randint(n)
        kind = np.random.randint(3)
        old[:] = P
        if kind == 0:
            m = _row_cycle(P, a, b, start, seen, cyc)
        elif kind == 1:
            m = _row_cycle(P.T, a, b, start, seen, cyc)
        else:
            for r in range(n):
                for i in range(n):
                    L[r, P[r, i]] = i
            m = _row_cycle(L.T, a, b, start, seen, cyc)
            for r in range(n):
                for s in range(n):
                    P[r, L[r, s]] = s
        if m == 0:
            continue
        new = _energy(P, n)
        if new <= cur or np.random.random() < np.exp((cur - new) / temp):
            cur = new
            mn, tot = _score(P, n)
            if mn > bmin or (mn == bmin and tot > bsum):
                bmin, bsum = mn, tot
                best[:] = P
        else:
            P[:] = old
    return bmin, bsum, best


def random_latin(n: int, rng: np.random.Generator) -> np.ndarray:
    """A random player -> seat Latin square: each replay a perfect matching of players to their unused seats.

    Kuhn's augmenting paths with players and seats visited in random order (a Latin rectangle always
    extends to a full row, Hall's theorem), so it never fails.  Not uniform over Latin squares; only a
    start for :func:`anneal`.
    """
    free = [set(range(n)) for _ in range(n)]  # seats player i has not used yet
    P = np.zeros((n, n), np.int64)

    def augment(i: int, owner: list[int], seen: set[int]) -> bool:
        for s in rng.permutation(sorted(free[i])):
            s = int(s)
            if s in seen:
                continue
            seen.add(s)
            if owner[s] < 0 or augment(owner[s], owner, seen):
                owner[s] = i
                return True
        return False

    for r in range(n):
        owner = [-1] * n  # seat -> player in this replay
        for i in rng.permutation(n):
            assert augment(int(i), owner, set())
        for s, i in enumerate(owner):
            P[r, i] = s
            free[i].discard(s)
    return P


def anneal(n: int, seed: int, moves: int, t0: float = 30.0, t1: float = 0.3, start=None):
    """Anneal from ``start`` (a player -> seat square) or else from :func:`random_latin` of ``seed``.

    DEFAULT temperatures 30 -> 0.3 (geometric in the move number), set by eye on n = 8..10.
    Returns ``(min, sum, best player -> seat square)``.
    """
    P = random_latin(n, np.random.default_rng(seed)) if start is None else np.array(start, np.int64)
    return _anneal(P, n, seed, moves, t0, t1)


# ------------------------------------------------------------- relabelled cyclic squares (numba)


@njit(cache=True)
def _relabel(n):  # pragma: no cover - numba
    """Best ``P[r][i] = beta[(r + i) % n]`` over the permutations ``beta`` of the seats with ``beta[0] = 0``."""
    beta = np.arange(n)
    P = np.empty((n, n), np.int64)
    bm = -1
    bs = -1
    bb = beta.copy()
    while True:
        for r in range(n):
            for i in range(n):
                P[r, i] = beta[(r + i) % n]
        mn, tot = _score(P, n)
        if mn > bm or (mn == bm and tot > bs):
            bm, bs = mn, tot
            bb[:] = beta
        k = n - 2  # next permutation of beta[1:] in lexicographic order
        while k >= 1 and beta[k] >= beta[k + 1]:
            k -= 1
        if k < 1:
            break
        m = n - 1
        while beta[m] <= beta[k]:
            m -= 1
        beta[k], beta[m] = beta[m], beta[k]
        beta[k + 1 :] = beta[k + 1 :][::-1].copy()
    return bm, bs, bb


def relabel(n: int):
    """The cyclic square with its seats renamed, ``seat of player i in replay r = beta[(r + i) % n]``.

    Renaming seats is *not* a symmetry of the objective (only ``s -> u*s + c`` with ``u`` a unit mod
    ``n`` is), so the ``(n - 1)!`` renamings (``beta[0] = 0``: translations are) differ; a pair
    ``(i, j)`` meets at the offsets ``beta[t + j - i] - beta[t]`` over ``t``, so ``beta`` is wanted with
    every difference function as injective as possible (like a singly periodic Costas array).
    Exhaustive; 9! = 362,880 renamings at n = 10.  Returns ``(min, sum, beta, player -> seat square)``.
    """
    mn, tot, beta = _relabel(n)
    P = np.array([[beta[(r + i) % n] for i in range(n)] for r in range(n)], np.int64)
    return mn, tot, beta, P


# ------------------------------------------------------------------------------- normalising


def to_square(P) -> tuple[tuple[int, ...], ...]:
    """Player -> seat rows to the seat -> player rows of :func:`loki.tournament.schedule.seatings`."""
    n = len(P)
    out = []
    for row in P:
        L = [0] * n
        for i, s in enumerate(row):
            L[int(s)] = i
        out.append(tuple(L))
    return tuple(out)


def linear_offsets(square, i: int, j: int) -> int:
    """Distinct ``seat_j - seat_i`` (not reduced mod n) of players i and j over the replays."""
    return len({row.index(j) - row.index(i) for row in square})


def normalise(square):
    """The canonical form of a design; renames players, rotates seats and orders replays only, so the
    Latin property and every pair's offsets are kept (up to the renaming).

    1. The enhanced pair ``(a, b)``: the first pair (in ``(i, j)`` order) meeting at the most cyclic
       offsets, ties broken by the most distinct linear offsets (seat difference, not mod n).
    2. The first replay in which one of them, ``x``, sits right before the other, ``y`` (cyclically),
       becomes replay 0; seats are rotated so that ``x`` and ``y`` hold seats ``n - 2`` and ``n - 1``.
    3. ``x``, ``y`` are renamed ``n - 2``, ``n - 1`` and the others by their seat in replay 0, so replay 0
       seats player ``i`` at seat ``i``; the replays are ordered by the seat of player 0.
    """
    n = len(square)
    counts = offset_counts(square)
    top = max(counts.values())
    a, b = max((p for p in counts if counts[p] == top), key=lambda p: linear_offsets(square, *p))
    for row in square:
        sx = {p: s for s, p in enumerate(row)}
        hit = [(x, y) for x, y in ((a, b), (b, a)) if (sx[y] - sx[x]) % n == 1]
        if hit:
            x, y = hit[0]
            shift = (n - 2 - sx[x]) % n
            break
    else:  # the pair never sits side by side (not for the shipped designs)
        raise ValueError("normalise: the enhanced pair never sits side by side")
    rotated = [tuple(row[(s - shift) % n] for s in range(n)) for row in square]
    first = next(r for r in rotated if r[n - 2] == x and r[n - 1] == y)
    rename = {p: s for s, p in enumerate(first)}
    rows = [tuple(rename[p] for p in row) for row in rotated]
    rows.sort(key=lambda row: row.index(0))
    return tuple(rows)


def is_latin(square) -> bool:
    """Every replay seats every player once and every player sits in every seat once."""
    n = len(square)
    full = list(range(n))
    return all(sorted(row) == full for row in square) and all(sorted(col) == full for col in zip(*square))


def is_row_complete(square) -> bool:
    """Every ordered pair of players sits side by side (seat s, then s + 1) in exactly one replay."""
    n = len(square)
    pairs = [(row[s], row[s + 1]) for row in square for s in range(n - 1)]
    return len(pairs) == len(set(pairs)) == n * (n - 1)


def stats(square) -> tuple[int, int, float, int]:
    c = offset_counts(square)
    v = list(c.values())
    n = len(square)
    return min(v), sum(v), round(sum(v) / len(v), 3), c[(n - 2, n - 1)]


#: Orders searched exhaustively (all Latin squares, up to replay order and player names).
EXACT_MAX = 7


def design(n: int, seeds=(0, 1, 2, 3), moves: int = 2_000_000, log=print):
    """The shipped design of order n (normalised seat -> player rows) and how it was found.

    n <= :data:`EXACT_MAX`: every optimal reduced square (branch and bound, started from the best
    relabelled cyclic square, a sound lower bound).  Larger n: the best relabelled cyclic square and
    :func:`anneal` from each seed's random square and from that relabelled square.  Among the
    candidates with the best (min, sum) a row-complete (Williams) one is preferred, then the first.
    """
    t = time.perf_counter()
    rmin, rsum, beta, rel = relabel(n)
    log(f"n={n}: relabelled cyclic min={rmin} sum={rsum} beta={beta.tolist()}")
    if n <= EXACT_MAX:
        mn, tot, count, kept = exhaustive(n, start=(rmin, rsum))
        log(f"n={n}: exhaustive optimum min={mn} sum={tot} ({count} optimal reduced squares)")
        cands = [to_square(P) for P in kept]
    else:
        cands = [to_square(rel)]
        for seed in seeds:
            for start, label in ((None, "random"), (rel, "relabelled")):
                mn, tot, P = anneal(n, seed, moves, start=start)
                log(f"n={n}: anneal seed={seed} from {label}: min={mn} sum={tot}")
                cands.append(to_square(P))
    assert all(is_latin(c) for c in cands)
    best = max(cands, key=lambda c: (*stats(c)[:2], is_row_complete(c)))
    rc = [c for c in cands if stats(c)[:2] == stats(best)[:2] and is_row_complete(c)]
    log(f"n={n}: chosen {stats(best)[:2]}, row-complete optimal candidates: {len(rc)}, {time.perf_counter() - t:.1f} s")
    out = normalise(best)
    assert stats(out)[:2] == stats(best)[:2] and is_row_complete(out) >= is_row_complete(best)
    return out


def emit(designs: dict[int, tuple[tuple[int, ...], ...]]) -> str:
    """The ``_DESIGNS`` literal of ``schedule.py`` (ruff-formatted layout)."""
    lines = ["_DESIGNS: dict[int, tuple[tuple[int, ...], ...]] = {"]
    for n, sq in designs.items():
        lines.append(f"    {n}: (")
        lines += [f"        ({', '.join(map(str, row))}{',' if n == 1 else ''})," for row in sq]
        lines.append("    ),")
    lines.append("}")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("mode", choices=["exhaustive", "relabel", "anneal", "design"])
    ap.add_argument("n", type=int, nargs="*", help="orders (design: default 2..10)")
    ap.add_argument("--williams", action="store_true", help="exhaustive: row-complete squares only")
    ap.add_argument("--at-least", type=int, nargs=2, default=(0, 0), metavar=("MIN", "SUM"), help="exhaustive: bound")
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2, 3])
    ap.add_argument("--moves", type=int, default=2_000_000)
    ap.add_argument("--emit", action="store_true", help="design: print the _DESIGNS literal")
    args = ap.parse_args()
    t = time.perf_counter()
    for n in args.n or (range(2, 11) if args.mode == "design" else []):
        if args.mode == "exhaustive":
            mn, tot, count, kept = exhaustive(n, args.williams, tuple(args.at_least))
            rc = sum(is_row_complete(to_square(P)) for P in kept)
            if count == 0:
                print(f"n={n} williams={args.williams}: no square reaches min={mn} sum={tot}")
                continue
            print(f"n={n} williams={args.williams}: optimum min={mn} sum={tot}, {count} optimal reduced squares")
            print(f"  row-complete among the first {len(kept)}: {rc}")
        elif args.mode == "relabel":
            mn, tot, beta, _ = relabel(n)
            print(f"n={n}: min={mn} sum={tot} beta={beta.tolist()}")
        elif args.mode == "anneal":
            for seed in args.seeds:
                mn, tot, P = anneal(n, seed, args.moves)
                assert is_latin(to_square(P))
                print(f"n={n} seed={seed}: min={mn} sum={tot} mean={tot / (n * (n - 1) / 2):.3f}")
    if args.mode == "design":
        designs = {n: design(n, args.seeds, args.moves) for n in (args.n or range(2, 11))}
        for n, sq in designs.items():
            mn, tot, mean, pair = stats(sq)
            print(f"n={n}: min={mn} sum={tot} mean={mean} enhanced pair={pair} row-complete={is_row_complete(sq)}")
        if args.emit:
            print(emit(designs))
    print(f"{time.perf_counter() - t:.1f} s")


if __name__ == "__main__":
    main()
