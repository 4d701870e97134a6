"""``benchmarks/trial_parts.py`` estimates what the parts of a Simulator trial cost by replaying decisions with kernels
rewritten by text patches: every patch must still fit the kernel as it is (else the benchmark would time the full
kernel under a variant's name), make valid Python, and a patch that no longer fits must stop the benchmark by name."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "trial_parts.py"


@pytest.fixture()
def trial_parts(benchmark_script):
    return benchmark_script("trial_parts")


def test_every_variant_patches_the_kernel_as_it_is(trial_parts, tmp_path):
    """Each variant's copy differs from the tree in the play-out kernel only (``full`` in nothing), by each of its
    patches' new text, and the rewritten kernel compiles as Python; a second run leaves the copy's files untouched
    (their times key the variant's numba cache)."""
    src = ROOT / "src"
    kernel = (src / trial_parts.KERNEL).read_text()
    for name, patches in trial_parts.PATCHES.items():
        dst = trial_parts.make_variant(src, name, tmp_path)
        text = (dst / trial_parts.KERNEL).read_text()
        compile(text, str(dst / trial_parts.KERNEL), "exec")
        if not patches:
            assert text == kernel
        for old, new in patches:
            assert kernel.count(old) == 1 and new in text and new != old
        assert (dst / "loki" / "simulator" / "driver.py").read_text() == (src / "loki/simulator/driver.py").read_text()
        mtime = (dst / trial_parts.KERNEL).stat().st_mtime_ns
        trial_parts.make_variant(src, name, tmp_path)
        assert (dst / trial_parts.KERNEL).stat().st_mtime_ns == mtime


def test_a_patch_that_no_longer_fits_stops_by_name(trial_parts, tmp_path, monkeypatch):
    monkeypatch.setitem(trial_parts.PATCHES, "gone", [("a line the kernel does not have\n", "x\n")])
    with pytest.raises(SystemExit, match="patch 'gone'"):
        trial_parts.make_variant(ROOT / "src", "gone", tmp_path)


def test_a_symlink_in_the_copy_is_refused_not_written_through(trial_parts, tmp_path):
    """A path of the variant's copy that is a symlink stops the benchmark; the file it points to is left as it was."""
    target = tmp_path / "elsewhere.py"
    target.write_text("kept\n")
    link = tmp_path / "full" / "src" / trial_parts.KERNEL
    link.parent.mkdir(parents=True)
    link.symlink_to(target)
    with pytest.raises(SystemExit, match="not a regular file"):
        trial_parts.make_variant(ROOT / "src", "full", tmp_path)
    assert target.read_text() == "kept\n"
