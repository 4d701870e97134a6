"""loki._jit: numba's disk cache keyed by every kernel source; fast imports without numba."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numba
import pytest

import loki
from loki import _jit

PKG = Path(loki.__file__).resolve().parent


def _run(code: str, env: dict | None = None, cwd: str | None = None) -> str:
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=cwd, timeout=600, check=False
    )
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_core_imports_load_neither_numba_nor_tables():
    out = _run(
        "import sys, loki, loki.errors, loki.cards, loki.evaluator, loki.engine\n"
        "print('numba' in sys.modules, loki.evaluator.api._built.cache_info().currsize)"
    )
    assert out.split() == ["False", "0"]


def test_every_numba_module_is_in_the_digest():
    listed = set(_jit.KERNEL_MODULES)
    for rel in listed:
        assert (PKG / rel).is_file(), rel
    for path in PKG.rglob("*.py"):
        rel = path.relative_to(PKG).as_posix()
        text = path.read_text()
        if re.search(r"^\s*(from numba|import numba|from loki\._jit import)", text, re.M):
            assert rel in listed, f"{rel} uses numba but is not in loki._jit.KERNEL_MODULES"
    # kernels read the holding tables of cards.py and the hash constants of evaluator/keys.py as globals
    assert {"cards.py", "evaluator/keys.py"} <= listed


def test_digest_changes_when_any_kernel_source_changes(tmp_path):
    for rel in _jit.KERNEL_MODULES:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(PKG / rel, tmp_path / rel)
    base = _jit.source_digest(tmp_path)
    assert base == _jit.source_digest() and re.fullmatch(r"[0-9a-f]{16}", base)
    seen = {base}
    for rel in _jit.KERNEL_MODULES:
        original = (tmp_path / rel).read_bytes()
        (tmp_path / rel).write_bytes(original + b"\n# an edit\n")
        d = _jit.source_digest(tmp_path)
        assert d not in seen, rel
        seen.add(d)
        (tmp_path / rel).write_bytes(original)
    assert _jit.source_digest(tmp_path) == base


def test_kernels_are_cached_under_the_digest_and_numba_config_is_restored():
    from loki.assessment.income_rate import _pot_share_kernel
    from loki.assessment.outs import ppot_outs
    from loki.assessment.potential import hp1_kernel
    from loki.assessment.potential_all import hp1_all_kernel
    from loki.assessment.strength import hs_counts_kernel
    from loki.evaluator.kernels import rank_from_key
    from loki.simulator.playout import sim_batch
    from loki.triples import pt_kernel

    where = _jit.cache_dir()
    assert Path(where).name == _jit.source_digest()
    env_dir = os.environ.get("NUMBA_CACHE_DIR", "")
    if env_dir:
        assert Path(where).parent == Path(env_dir)
    for k in (rank_from_key, hs_counts_kernel, hp1_kernel, hp1_all_kernel, ppot_outs, sim_batch, pt_kernel):
        assert k._cache._impl.locator.get_cache_path().startswith(where + os.sep), k
    assert _pot_share_kernel._cache._impl.locator.get_cache_path().startswith(where + os.sep)
    assert numba.config.CACHE_DIR == env_dir  # set only while decorating


def test_njit_without_cache_is_plain_numba():
    @_jit.njit
    def f(x):
        return x + 1

    @_jit.njit(cache=False)
    def g(x):
        return x + 2

    assert f(1) == 2 and g(1) == 3 and f._cache.__class__.__name__ == "NullCache"


def test_kernels_divide_by_numpys_error_model_unless_they_ask_for_pythons():
    """``njit`` compiles with numba's numpy error model (a zero divisor gives inf / nan / 0, no test per division); a
    kernel that asks for ``error_model="python"`` raises ZeroDivisionError, as the specific model's context
    frequencies do on a context with nothing to normalise."""
    from loki.modeler.kernels import context_frequencies_into, context_frequencies_post

    @_jit.njit
    def div(a, b):
        return a / b

    @_jit.njit(error_model="python")
    def div_raising(a, b):
        return a / b

    @_jit.njit
    def idiv(a, b):
        return a // b

    assert div(1.0, 0.0) == float("inf") and div(0.0, 0.0) != div(0.0, 0.0) and idiv(7, 0) == 0
    with pytest.raises(ZeroDivisionError):
        div_raising(1.0, 0.0)
    for k in (context_frequencies_into, context_frequencies_post):
        assert k.targetoptions["error_model"] == "python", k


_PROBE = """
import numpy as np
from loki.assessment.strength import hs_counts_kernel
from loki.evaluator import kernel_tables
board = np.array([0, 21, 30], np.int64)  # 2c 7d 9h
print(*hs_counts_kernel(51, 47, board, np.ones(1326), kernel_tables()))
"""


@pytest.mark.slow
def test_editing_a_callee_recompiles_its_cached_callers_in_other_modules(tmp_path):
    """The stale-cache trap: hs_counts_kernel (strength.py) inlines rank_from_key (evaluator/kernels.py).

    numba alone would reload the cached hs_counts_kernel after rank_from_key changes (it checks only
    strength.py); with loki._jit the edit moves the whole cache to a new digest folder.
    """
    shutil.copytree(PKG, tmp_path / "loki", ignore=shutil.ignore_patterns("__pycache__"))
    env = dict(os.environ, PYTHONPATH=str(tmp_path), NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    before = _run(_PROBE, env, cwd=str(tmp_path)).split()
    assert before == ["640.0", "9.0", "432.0"]  # AsKs on 2c7d9h against a uniform range
    src = tmp_path / "loki" / "evaluator" / "kernels.py"
    text = src.read_text()
    head = "def rank_from_key(key, bits, tables):\n"
    assert text.count(head) == 1
    src.write_text(
        text.replace(head, head + "    return np.int64(1)  # every hand ties\n\n\ndef _unused(key, bits, tables):\n")
    )
    after = _run(_PROBE, env, cwd=str(tmp_path)).split()
    assert after == ["0.0", "1081.0", "0.0"]  # the cached caller was not reused
    assert len(list((tmp_path / "cache").iterdir())) == 2  # one digest folder per source state
