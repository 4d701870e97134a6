"""The one ``njit`` every loki kernel module uses: numba's disk cache, keyed by all kernel sources.

numba's on-disk cache (``cache=True``) files each compiled function under the folder of its own
source file and checks only that file's content: a kernel in ``strength.py`` that calls
``rank_from_key`` keeps its cached machine code after ``evaluator/kernels.py`` changes, and with it
the old callee inlined (numba 0.68.1, ``numba/core/caching.py``: ``_SourceFileBackedLocatorMixin``
stamps a function with the hash of its own file only).

This module removes that trap.  :func:`njit` is ``numba.njit``, except that a function decorated
with ``cache=True`` is cached under :func:`cache_dir`::

    <base>/<digest>

* ``base`` is ``numba.config.CACHE_DIR`` (the ``NUMBA_CACHE_DIR`` environment variable) if set,
  else a per-user cache folder (``~/.cache/loki/numba`` on Linux, from numba's ``AppDirs``);
* ``digest`` is a SHA-256 prefix over the numba version and the source text of every module in
  :data:`KERNEL_MODULES` (the modules that define kernels or whose module-level values kernels
  read as compile-time constants).

Any edit to any kernel module therefore gives every kernel a fresh cache folder, and nothing stale
is ever loaded; the cost is one full recompilation (a minute or two) after such an edit.  Old
digest folders are left in place (several source trees may share one ``base``); delete them when
you like.

How it hooks into numba: ``numba.njit(cache=True)`` builds the function's cache locator when the
decorator is applied (``Dispatcher.enable_caching`` → ``UserProvidedCacheLocator``, which reads
``numba.config.CACHE_DIR`` once, in its ``__init__``).  :func:`njit` sets ``numba.config.CACHE_DIR``
to :func:`cache_dir` for the moment of decoration and restores it after, so numba code outside loki
keeps its own cache settings.

Importing this module imports numba; :mod:`loki`, :mod:`loki.errors`, :mod:`loki.cards` and
:mod:`loki.evaluator` do not import it (a test checks that ``import loki`` leaves numba unloaded).
"""

from __future__ import annotations

import functools
import hashlib
import os
import tempfile
from pathlib import Path

import numba
from llvmlite import ir as _ir
from numba import types as _types
from numba.core import cgutils as _cgutils
from numba.core import config as _numba_config
from numba.extending import intrinsic as _intrinsic

__all__ = ["KERNEL_MODULES", "source_digest", "cache_dir", "njit", "unlikely", "prefetch"]

#: Source files (relative to the ``loki`` package folder) that the cache digest covers: every
#: module that defines a numba kernel, plus the modules whose module-level arrays and constants
#: kernels read as globals (numba freezes those into the compiled code): ``cards.py`` (holding
#: tables), ``evaluator/keys.py`` (hash constants) and ``betting/layout.py`` (the state-vector
#: layout).  A test checks that every module using numba is listed.
KERNEL_MODULES = (
    "_jit.py",
    "cards.py",
    "evaluator/keys.py",
    "evaluator/build.py",
    "evaluator/kernels.py",
    "assessment/strength.py",
    "assessment/potential.py",
    "assessment/potential_all.py",
    "assessment/outs.py",
    "assessment/weights_kernels.py",
    "assessment/income_rate.py",
    "assessment/showdown.py",
    "triples/rule_chain.py",
    "modeler/kernels.py",
    "simulator/playout.py",
    "betting/layout.py",
    "betting/rules.py",
    "betting/pots.py",
    "lbr/kernels.py",
)

_PACKAGE_DIR = Path(__file__).resolve().parent


def source_digest(package_dir: str | Path | None = None, modules: tuple[str, ...] = KERNEL_MODULES) -> str:
    """16 hex digits of SHA-256 over the numba version and the kernel modules' source bytes.

    Args:
        package_dir: the ``loki`` package folder to read (default: this installation's).
        modules: file paths relative to ``package_dir`` (default :data:`KERNEL_MODULES`).

    Returns:
        A 16-character lowercase hex string; it changes when any listed file's content changes
        (a missing file counts as empty, under its own name).
    """
    root = Path(package_dir) if package_dir is not None else _PACKAGE_DIR
    h = hashlib.sha256()
    h.update(f"numba {numba.__version__}\n".encode())
    for rel in modules:
        try:
            data = (root / rel).read_bytes()
        except OSError:
            data = b""
        h.update(f"{rel} {len(data)}\n".encode())
        h.update(data)
    return h.hexdigest()[:16]


def _default_base() -> Path:
    from numba.misc.appdirs import AppDirs

    return Path(AppDirs(appname="loki", appauthor=False).user_cache_dir) / "numba"


@functools.cache
def cache_dir() -> str:
    """The folder loki's kernels are cached in: ``<base>/<digest>`` (see the module docstring).

    Created if needed.  If ``base`` cannot be written, a per-user folder under the system's
    temporary directory is used instead.
    """
    configured = _numba_config.CACHE_DIR  # type: ignore[attr-defined]  # set by numba at import
    base = Path(configured) if configured else _default_base()
    path = base / source_digest()
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError:
        uid = os.getuid() if hasattr(os, "getuid") else "user"
        path = Path(tempfile.gettempdir()) / f"loki-numba-{uid}" / source_digest()
        path.mkdir(parents=True, exist_ok=True)
    return str(path)


def njit(*args, **kwargs):
    """``numba.njit`` with loki's cache folder for ``cache=True`` functions.

    Same call forms as ``numba.njit`` (``@njit``, ``@njit(cache=True, inline="always")``, ...).
    With ``cache=True`` the function is cached under :func:`cache_dir`; without it, this is
    ``numba.njit`` unchanged.

    ``nrt=False`` compiles the function without numba's reference counting (numba's ``_nrt`` option): a compiled
    function increments and decrements (atomically) the reference count of every array argument it binds, on every
    call, which in the Simulator's play-outs cost more than the betting rules they called (the state vector, the
    pots, the board cache's rows: ~10 % of a Simulator tournament's CPU).  Only for a kernel that allocates nothing
    and calls nothing that allocates (numba refuses to compile one that does) and returns no array it made.

    Division follows numpy's error model by default (``error_model="numpy"``): a float divided by zero gives
    ``inf``/``nan`` and an integer one 0, where numba's default (``"python"``) tests every divisor and raises
    ``ZeroDivisionError``.  That test is a branch per division in every hot loop, and it can keep the compiler from
    vectorising them: without it a fig3-BRS-BRS3 tournament ran ~1.05–1.08× more games per CPU second on one machine
    and within the noise of another, the play byte-identical (BENCHMARKS.md, "Division without a zero test").  A
    division that cannot meet a zero divisor gives the same float either way; a kernel whose divisor can be zero on
    some input, and whose Python twin raises there, asks for ``error_model="python"`` itself (the specific model's
    context frequencies).  Functions inlined into a kernel (``inline="always"``) take the kernel's model.
    """
    if "nrt" in kwargs:
        kwargs["_nrt"] = kwargs.pop("nrt")
    kwargs.setdefault("error_model", "numpy")
    if not kwargs.get("cache"):
        return numba.njit(*args, **kwargs)
    if args and callable(args[0]):
        return _cached(numba.njit(**kwargs), args[0])
    decorator = numba.njit(*args, **kwargs)
    return functools.partial(_cached, decorator)


def _cached(decorator, fn):
    saved = _numba_config.CACHE_DIR  # type: ignore[attr-defined]
    _numba_config.CACHE_DIR = cache_dir()  # type: ignore[attr-defined]
    try:
        return decorator(fn)
    finally:
        _numba_config.CACHE_DIR = saved  # type: ignore[attr-defined]


@_intrinsic
def unlikely(typingctx, cond):
    """``cond`` (a bool) in a kernel, telling the compiler it is rarely true (LLVM's ``llvm.expect``), so that the
    code of the common case is laid out straight through and the rare branch out of its way: ``if unlikely(x):``.
    The value is ``cond`` itself; only the machine code's layout changes (the evaluator's flush test: ~8 % of
    ``rank_batch``)."""
    sig = _types.boolean(_types.boolean)

    def codegen(context, builder, signature, args):
        fnty = _ir.FunctionType(_ir.IntType(1), [_ir.IntType(1), _ir.IntType(1)])
        fn = _cgutils.get_or_insert_function(builder.module, fnty, "llvm.expect.i1")
        return builder.call(fn, [args[0], _ir.Constant(_ir.IntType(1), 0)])

    return sig, codegen


@_intrinsic
def prefetch(typingctx, ary, i, j):
    """Ask the processor to bring element ``ary[i, j]`` of a 2-D array into its caches (LLVM's ``llvm.prefetch``,
    for a read) and go on: a kernel that will read an element it can name well before it needs it (e.g. a board
    cache's row of the holding a trial has just dealt, read a few hundred instructions later) hides the memory's
    latency behind the work in between.  No effect on results: nothing is read, the indices are not checked (an
    address outside the array is harmless to a prefetch)."""
    if not (isinstance(ary, _types.Array) and ary.ndim == 2 and isinstance(i, _types.Integer)):
        return None
    if not isinstance(j, _types.Integer):
        return None
    sig = _types.void(ary, i, j)

    def codegen(context, builder, signature, args):
        aty = signature.args[0]
        arr = context.make_array(aty)(context, builder, value=args[0])
        idx = [
            context.cast(builder, args[1], signature.args[1], _types.intp),
            context.cast(builder, args[2], signature.args[2], _types.intp),
        ]
        ptr = _cgutils.get_item_pointer2(
            context, builder, data=arr.data, shape=_cgutils.unpack_tuple(builder, arr.shape),
            strides=_cgutils.unpack_tuple(builder, arr.strides), layout=aty.layout, inds=idx, wraparound=False,
        )  # fmt: skip
        i8p = _ir.IntType(8).as_pointer()
        fnty = _ir.FunctionType(_ir.VoidType(), [i8p, _ir.IntType(32), _ir.IntType(32), _ir.IntType(32)])
        fn = _cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        i32 = _ir.IntType(32)
        builder.call(fn, [builder.bitcast(ptr, i8p), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return sig, codegen
