"""Where a whole ``loki`` process's CPU goes, by machine code: numba kernels by name, the Python interpreter, numpy.

``perf record`` (the software clock, so it runs where the machine has no hardware counters, in a VM too) samples one
``loki`` command in one process.  numba's machine code has no symbols, so the profiled process writes perf's JIT map
(``/tmp/perf-<pid>.map``) when it exits: every function of every compiled kernel it loaded, named
``module.function``, placed and sized by the kernel's object code (its ELF symbol table; a kernel's callees have
their own names unless the compiler inlined them, and a callee compiled into several kernels is named in each).
``perf report`` then groups the samples, and this script prints the shares by kind of code and the kernels with the
most samples::

    NUMBA_CACHE_DIR=... PYTHONPATH=src python benchmarks/perf_kernels.py --top 15 -- \\
        tournament --preset fig3-BRS-BRS3 --deals 200 --workers 1 --no-plots --quiet --overwrite --out /tmp/p

Run the command with ``--workers 1`` (worker processes leave without writing their maps) and load numba's cache
first (a first run compiles).  A sampler attributes each sample to one instruction: inside a kernel that inlines its
callees, ask where by address (``--keep`` keeps ``perf.data`` and the map for ``perf annotate``-style reading;
otherwise the map is removed from ``/tmp`` once read).
Needs ``perf`` (Debian's ``linux-perf``) and ``kernel.perf_event_paranoid`` at most 2.
"""

from __future__ import annotations

import argparse
import atexit
import gc
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

#: The profiled process: this module's :func:`child`, then the ``loki`` command line.
_CHILD = "import sys\nsys.path.insert(0, {dir!r})\nimport perf_kernels\nperf_kernels.child()\n"


def demangle(name: str) -> str:
    """``module.function`` of a numba symbol (Itanium style: ``_ZN`` then length-prefixed parts, then ABI tags and
    argument types, which are dropped); a symbol of numba's CPython wrapper is marked so; others as they are.

    >>> demangle("_ZN4loki7betting5rules7to_callB4v166B36c8tJTIeFIjxB2IKSgI4CrvQCltYEAA_3d_3dE5ArrayIxLi1E1C7mutable")
    'loki.betting.rules.to_call'
    >>> demangle("memset")
    'memset'
    """
    if not name.startswith("_ZN"):
        return name
    i, parts = 3, []
    while i < len(name) and name[i].isdigit():
        j = i
        while name[j].isdigit():
            j += 1
        n = int(name[i:j])
        parts.append(name[j : j + n])
        i = j + n
    out = ".".join(parts)
    return "(Python wrapper) " + out[8:] if out.startswith("cpython.") else out


def elf_functions(obj: bytes) -> list[tuple[int, int, int, str]]:
    """``(offset, size, section, symbol)`` of every function symbol of a 64-bit little-endian ELF object (a numba
    kernel's object code): its offset in its section, its size in bytes, the section's index.

    Raises:
        ValueError: ``obj`` is not a 64-bit little-endian ELF object, or a truncated or corrupt one.
    """
    if obj[:4] != b"\x7fELF" or len(obj) < 64 or obj[4] != 2 or obj[5] != 1:
        raise ValueError("elf_functions: not a 64-bit little-endian ELF object")
    try:
        return _elf_functions(obj)
    except (struct.error, IndexError, ValueError, UnicodeDecodeError) as e:
        raise ValueError(f"elf_functions: a truncated or corrupt ELF object ({e})") from None


def _elf_functions(obj: bytes) -> list[tuple[int, int, int, str]]:
    (shoff,) = struct.unpack_from("<Q", obj, 0x28)
    (shnum,) = struct.unpack_from("<H", obj, 0x3C)
    secs = [struct.unpack_from("<IIQQQQIIQQ", obj, shoff + 64 * k) for k in range(shnum)]
    out = []
    for sec in secs:
        if sec[1] != 2:  # SHT_SYMTAB
            continue
        strtab = secs[sec[6]]
        for k in range(sec[5] // 24):
            st_name, st_info, _, st_shndx, st_value, st_size = struct.unpack_from("<IBBHQQ", obj, sec[4] + 24 * k)
            if st_info & 15 == 2 and st_size > 0:  # STT_FUNC
                a = strtab[4] + st_name
                out.append((st_value, st_size, st_shndx, obj[a : obj.index(b"\0", a)].decode()))
    return out


def kernel_functions() -> dict[int, tuple[int, str]]:
    """``{address: (size, name)}`` of every function of every numba kernel this process has loaded: each kernel's
    object code's functions placed by its entry point's address; a kernel whose object code was not kept by
    :func:`keep_object_code` (or is not ELF) is listed by its entry point alone (size 0: not known)."""
    from numba.core.dispatcher import Dispatcher

    # at exit the ``loki`` command has frozen what is left (its shutdown then skips it), and ``gc.get_objects`` does not
    # list frozen objects: back into the collector's generations first
    gc.unfreeze()
    ents: dict[int, tuple[int, str]] = {}
    for disp in gc.get_objects():
        if not isinstance(disp, Dispatcher):
            continue
        cres: Any
        for cres in list(disp.overloads.values()):
            lib, entry = cres.library, cres.fndesc.llvm_func_name
            try:
                addr = lib.get_pointer_to_function(entry)
            except Exception:
                continue
            if not addr:
                continue
            funcs: list[tuple[int, int, int, str]] = []
            obj = getattr(lib, "_perf_object", None) or getattr(lib, "_compiled_object", None)
            if obj is not None:
                try:
                    funcs = elf_functions(obj)
                except ValueError:
                    funcs = []
            at = {f[3]: f for f in funcs}
            if entry in at:
                base = addr - at[entry][0]
                for off, size, shndx, name in funcs:
                    if shndx == at[entry][2]:
                        ents[base + off] = (size, demangle(name))
            else:
                ents.setdefault(addr, (0, disp.py_func.__module__ + "." + disp.py_func.__qualname__))
    return ents


def write_perf_map(ents: dict[int, tuple[int, str]], path: str) -> None:
    """Write perf's JIT map (``<hex address> <hex size> <name>`` lines) of ``ents`` (:func:`kernel_functions`); an
    unknown size reaches to the next function (at most 1 MiB)."""
    from loki.io.outpath import open_output

    keys = sorted(ents)
    with open_output(path, "perf's JIT map") as f:
        for i, a in enumerate(keys):
            size, name = ents[a]
            if size == 0:
                size = min(keys[i + 1] - a if i + 1 < len(keys) else 1 << 16, 1 << 20)
            f.write(f"{a:x} {size:x} {name}\n")


def keep_object_code() -> None:
    """Keep each cached kernel's object code on its library as it is loaded (numba hands it to the linker and drops
    it; a kernel compiled in this process keeps its own, ``_compiled_object``)."""
    from numba.core import codegen

    lib_class: Any = codegen.CPUCodeLibrary
    if getattr(lib_class, "_perf_kept", False):
        return
    set_object = lib_class._set_compiled_object

    def keep(self, value):
        self._perf_object = value
        set_object(self, value)

    lib_class._set_compiled_object = keep
    lib_class._perf_kept = True


def child() -> None:
    """The profiled process: keep the kernels' object code, write perf's JIT map at exit, run the ``loki`` command
    line of ``sys.argv``."""
    from loki.cli import app  # first: the command line's settings (one OpenBLAS thread) come before numpy's import

    keep_object_code()
    atexit.register(lambda: write_perf_map(kernel_functions(), f"/tmp/perf-{os.getpid()}.map"))
    sys.argv[0] = "loki"
    app()


#: Shared objects by the kind of code they hold (the first pattern that matches the object's name).
KINDS = (
    ("numba kernels", r"^\[JIT\]"),
    ("Python interpreter", r"libpython|^python"),
    ("numpy", r"_multiarray|_umath|numpy|openblas"),
    ("numba runtime", r"_helperlib|_nrt_python|_dispatcher|llvmlite"),
    ("C library", r"^libc\.|^libm\.|^ld-linux"),
    ("operating system", r"^\[kernel"),
)


def kind_of(dso: str) -> str:
    """The kind of code of a shared object's name (:data:`KINDS`), "other" if none matches."""
    for kind, pattern in KINDS:
        if re.search(pattern, dso):
            return kind
    return "other"


def parse_report(text: str) -> list[tuple[float, str, str]]:
    """``(percent, shared object, symbol)`` rows of ``perf report --stdio --sort dso,sym`` output."""
    rows = []
    for line in text.splitlines():
        m = re.match(r"\s*([\d.]+)%\s+(\S.*?)\s+\[[.k]\]\s+(.*\S)\s*$", line)
        if m:
            rows.append((float(m.group(1)), m.group(2).strip(), m.group(3)))
    return rows


def parse_dso_report(text: str) -> list[tuple[float, str]]:
    """``(percent, shared object)`` rows of ``perf report --stdio --sort dso`` output: the shares by kind of code are
    summed from these, not from the per-symbol rows, whose thousands of entries under 0.005 % (a process that
    compiles its kernels) print as 0.00 % and would lose their sum."""
    rows = []
    for line in text.splitlines():
        m = re.match(r"\s*([\d.]+)%\s+(\S.*?)\s*$", line)
        if m and not line.lstrip().startswith("#"):
            rows.append((float(m.group(1)), m.group(2)))
    return rows


def _report(perf: str, data: Path, sort: str) -> str:
    """``perf report --stdio`` of ``data`` sorted by ``sort`` (its text).

    Raises:
        SystemExit: ``perf report`` failed.
    """
    rep = subprocess.run(
        [perf, "report", "-i", str(data), "--stdio", "--no-children", "--sort", sort, "-g", "none"],
        capture_output=True, text=True,
    )  # fmt: skip
    if rep.returncode != 0:
        raise SystemExit(f"perf_kernels: perf report failed ({rep.returncode}):\n{rep.stderr[-2000:]}")
    return rep.stdout


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--top", type=int, default=15, help="kernels and other symbols to list")
    ap.add_argument("--freq", type=int, default=2000, help="samples per second")
    ap.add_argument("--keep", type=Path, default=None, help="folder to keep perf.data and the JIT map in")
    ap.add_argument("command", nargs=argparse.REMAINDER, help="-- then the loki command's arguments")
    a = ap.parse_args(argv)
    cmd = a.command[1:] if a.command[:1] == ["--"] else a.command
    if not cmd:
        ap.error("give the loki command after --, e.g. -- tournament --preset fig3-BR --workers 1 ...")
    if not 1 <= a.top <= 10_000:
        ap.error(f"--top {a.top}: expected 1 to 10,000 rows")
    if not 1 <= a.freq <= 100_000:
        ap.error(f"--freq {a.freq}: expected 1 to 100,000 samples a second")
    from loki.errors import OutputPathError
    from loki.io.files import atomic_target
    from loki.io.outpath import check_output_path, make_folder

    try:
        keep = None if a.keep is None else make_folder(a.keep, "--keep")
        if keep is not None:
            check_output_path(keep / "perf.data", "--keep")
    except OutputPathError as e:
        raise SystemExit(f"perf_kernels: {e}") from None
    perf = shutil.which("perf")
    if perf is None:
        raise SystemExit("perf_kernels: `perf` not found (Debian: apt-get install linux-perf)")
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "perf.data"
        rec = subprocess.run(
            [perf, "record", "-e", "cpu-clock", "-F", str(a.freq), "-o", str(data), "--", sys.executable, "-c",
             _CHILD.format(dir=str(Path(__file__).resolve().parent)), *cmd],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        if rec.returncode != 0:
            raise SystemExit(f"perf_kernels: the profiled command failed ({rec.returncode}):\n{rec.stderr[-2000:]}")
        report = _report(perf, data, "dso,sym")
        by_dso = _report(perf, data, "dso")
        maps = [Path(f"/tmp/perf-{pid}.map") for pid in sorted(set(re.findall(r"\[JIT\] tid (\d+)", report)))]
        try:
            if keep is not None:
                for src, dst in [(data, keep / "perf.data")] + [(m, keep / m.name) for m in maps if m.is_file()]:
                    with atomic_target(dst) as part:
                        shutil.copyfile(src, part)
        except (OutputPathError, OSError) as e:
            raise SystemExit(f"perf_kernels: --keep: {e}") from None
        finally:
            for m in maps:  # the profiled processes' maps, read: not left in /tmp
                if m.is_file() and not m.is_symlink():
                    m.unlink()
    rows = [(pct, kind_of(dso), dso, sym) for pct, dso, sym in parse_report(report)]
    by_kind: dict[str, float] = defaultdict(float)
    kernels: dict[str, float] = defaultdict(float)
    for pct, dso in parse_dso_report(by_dso):
        by_kind[kind_of(dso)] += pct
    for pct, kind, _, sym in rows:
        if kind == "numba kernels":
            kernels[sym if not sym.startswith("0x") else "(unnamed JIT code)"] += pct
    print(f"{' '.join(cmd)}: share of the process's samples by kind of code")
    for kind, pct in sorted(by_kind.items(), key=lambda kv: -kv[1]):
        print(f"  {pct:6.2f} %  {kind}")
    print(f"the {a.top} kernels with the most samples")
    for sym, pct in sorted(kernels.items(), key=lambda kv: -kv[1])[: a.top]:
        print(f"  {pct:6.2f} %  {sym}")
    print(f"the {a.top} other symbols with the most samples")
    others = sorted(((pct, dso, sym) for pct, kind, dso, sym in rows if kind != "numba kernels"), reverse=True)
    for pct, dso, sym in others[: a.top]:
        print(f"  {pct:6.2f} %  {sym} ({os.path.basename(dso)})")


if __name__ == "__main__":
    main()
