"""``benchmarks/perf_kernels.py`` names numba's machine code for ``perf``: every function of every kernel a profiled
``loki`` process loaded, placed by the kernel's object code, so a profile lists the Simulator's callees by name."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "perf_kernels.py"


def _module():
    spec = importlib.util.spec_from_file_location("perf_kernels", SCRIPT)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_names_and_objects():
    """numba's symbols become ``module.function`` (its CPython wrappers marked); what is not an ELF object, or a
    truncated one, is refused with a ValueError; the kinds of code are told by their shared objects."""
    pk = _module()
    assert pk.demangle("_ZN4loki9simulator7playout12sim_decisionB3v12E5Array") == "loki.simulator.playout.sim_decision"
    assert pk.demangle("_ZN7cpython4loki7betting5rules7to_callB4v166E") == "(Python wrapper) loki.betting.rules.to_call"
    with pytest.raises(ValueError, match="not a 64-bit little-endian ELF object"):
        pk.elf_functions(b"\x00" * 128)
    head = bytearray(b"\x7fELF\x02\x01" + b"\x00" * 58)
    head[0x28:0x30] = (1 << 40).to_bytes(8, "little")  # section headers far past the end
    head[0x3C:0x3E] = (3).to_bytes(2, "little")
    with pytest.raises(ValueError, match="truncated or corrupt"):
        pk.elf_functions(bytes(head))
    assert pk.kind_of("[JIT] tid 7") == "numba kernels"
    assert pk.kind_of("libpython3.11.so.1.0") == "Python interpreter"
    assert pk.kind_of("_multiarray_umath.cpython-311-x86_64-linux-gnu.so") == "numpy"
    assert pk.kind_of("somewhere.so") == "other"
    rows = pk.parse_report("    12.50%  [JIT] tid 42     [.] loki.simulator.playout.sim_decision\n# comment\n")
    assert rows == [(12.5, "[JIT] tid 42", "loki.simulator.playout.sim_decision")]


def test_a_profile_names_the_simulators_callees(tmp_path):
    """Two deals of fig3-S under ``perf``: the Simulator's kernel and functions it calls without inlining them
    have their own places in perf's map (from the kernel's ELF symbol table, not guessed from the entry points), the
    kernel is named in the profile, and the shares by kind of code add up to the whole process (within the rounding
    of perf's rows)."""
    if shutil.which("perf") is None:
        pytest.skip("perf is not installed (Debian: linux-perf)")
    paranoid = Path("/proc/sys/kernel/perf_event_paranoid")
    if paranoid.exists() and int(paranoid.read_text()) > 2:
        pytest.skip("kernel.perf_event_paranoid > 2: perf may not sample this user's processes")
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    cmd = [
        sys.executable, str(SCRIPT), "--top", "80", "--keep", str(tmp_path / "keep"), "--", "tournament", "--preset",
        "fig3-S", "--deals", "2", "--workers", "1", "--no-plots", "--quiet", "--overwrite", "--no-histories", "--out",
        str(tmp_path / "t"),
    ]  # fmt: skip
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
    if proc.returncode != 0 and re.search(r"perf_event|Permission|Access to performance", proc.stderr):
        pytest.skip(f"perf may not sample here: {proc.stderr[-300:]}")
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = proc.stdout
    assert "loki.simulator.playout.sim_decision" in out
    maps = list((tmp_path / "keep").glob("perf-*.map"))
    assert len(maps) == 1
    spans = {}
    for line in maps[0].read_text().splitlines():
        start, size, name = line.split(" ", 2)
        spans.setdefault(name, []).append((int(start, 16), int(size, 16)))
    for name in ("sim_decision", "_sample_holding", "_class_code"):  # the kernel and two callees it does not inline
        assert spans.get(f"loki.simulator.playout.{name}"), name
    ranges = sorted(r for rs in spans.values() for r in rs)
    assert all(a + n <= b for (a, n), (b, _) in zip(ranges, ranges[1:]))  # placed, not overlapping
    kinds = re.findall(r"^\s+([\d.]+) %  (numba kernels|Python interpreter|numpy|numba runtime|C library|operating "
                       r"system|other)$", out, flags=re.M)  # fmt: skip
    assert 95.0 <= sum(float(p) for p, _ in kinds) <= 105.0, out  # rows rounded by perf


def test_bad_options_are_refused_before_profiling(tmp_path, capsys):
    """Out-of-range ``--top`` and ``--freq``, a missing command and a symbolic link where ``--keep`` would write are
    refused with one line naming them, before ``perf`` runs."""
    pk = _module()
    for argv, said in (
        (["--top", "0", "--", "tournament"], "--top 0: expected 1 to 10,000 rows"),
        (["--freq", "10000000", "--", "tournament"], "--freq 10000000: expected 1 to 100,000"),
        (["--"], "give the loki command after --"),
    ):
        with pytest.raises(SystemExit):
            pk.main(argv)
        assert said in capsys.readouterr().err
    keep = tmp_path / "keep"
    keep.mkdir()
    (keep / "perf.data").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(SystemExit, match="a symbolic link is there"):
        pk.main(["--keep", str(keep), "--", "tournament"])
    assert not (tmp_path / "elsewhere").exists()
