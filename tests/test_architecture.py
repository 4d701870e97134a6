"""docs/ARCHITECTURE.md: its import rules hold and its example runs as written."""

from __future__ import annotations

import ast
import os
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "loki"
DOC = ROOT / "docs" / "ARCHITECTURE.md"

#: The packages and top-level modules of loki, top layer first (pyproject.toml's import-linter contract says the same;
#: a layer imports only the layers below it, and the members of one layer import none of each other).
LAYERS = [
    {"cli", "adapters"},
    {"web"},
    {"explain", "tune", "lbr"},
    {"tournament"},
    {"aivat"},
    {"players"},
    {"io"},
    {"simulator", "selector", "preflop"},
    {"modeler"},
    {"triples"},
    {"assessment"},
    {"engine"},
    {"betting"},
    {"evaluator"},
    {"_jit", "cards", "config", "stats"},
    {"errors"},
]
#: The paper's boxes and the rules they stand on: none of them imports a player, the lab, io or a face.
CORE = set().union(*LAYERS[7:])
OUTER = {"players", "tournament", "io", "cli", "aivat", "explain", "web", "tune", "lbr", "adapters"}


def _modules() -> dict[str, Path]:
    mods = {}
    for p in SRC.rglob("*.py"):
        rel = p.relative_to(SRC.parent).with_suffix("")
        parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
        mods[".".join(parts)] = p
    return mods


def _imports(p: Path, pkg: str) -> list[tuple[str, list[str]]]:
    """Every ``loki`` import of the file at any depth (inside functions and TYPE_CHECKING blocks too):
    ``(module, [names])``."""
    out = []
    for n in ast.walk(ast.parse(p.read_text())):
        if isinstance(n, ast.Import):
            out += [(a.name, []) for a in n.names if a.name.split(".")[0] == "loki"]
        elif isinstance(n, ast.ImportFrom):
            base = n.module or ""
            if n.level:
                base = ".".join(pkg.split(".")[: len(pkg.split(".")) - n.level + 1] + ([base] if base else []))
            if base.split(".")[0] == "loki":
                out.append((base, [a.name for a in n.names]))
    return out


def _top(m: str) -> str:
    return m.split(".")[1] if m.count(".") else ""


def package_graph() -> dict[str, set[str]]:
    """``{package: packages it imports}`` over the top-level packages and modules of loki, counting every import
    at any depth (``from loki import x`` counts as an import of ``x``)."""
    mods = _modules()
    graph: dict[str, set[str]] = {}
    for m, p in mods.items():
        pkg = m if p.name == "__init__.py" else m.rpartition(".")[0]
        src = _top(m)
        if not src:
            continue
        for base, names in _imports(p, pkg):
            targets = [base] if base != "loki" else [f"loki.{n}" for n in names]
            for t in targets:
                dst = _top(t)
                if dst and dst != src and dst != "__version__":
                    graph.setdefault(src, set()).add(dst)
    return graph


def test_the_package_graph_has_no_cycle_counting_imports_at_any_depth():
    graph = package_graph()
    assert {"evaluator", "assessment", "triples", "modeler", "selector", "simulator", "preflop"} <= set(graph)
    state: dict[str, int] = {}

    def visit(v, path):
        state[v] = 1
        for w in sorted(graph.get(v, ())):
            if state.get(w) == 1:
                raise AssertionError("package cycle: " + " -> ".join(path + [v, w]))
            if w not in state:
                visit(w, path + [v])
        state[v] = 2

    for v in sorted(graph):
        if v not in state:
            visit(v, [])


def test_layers_import_downward_only():
    rank = {name: i for i, layer in enumerate(LAYERS) for name in layer}
    assert set(rank) == {_top(m) for m in _modules() if _top(m)}, "a package or module outside the layers"
    for src, dsts in package_graph().items():
        for dst in dsts:
            assert rank[dst] > rank[src], f"{src} (layer {rank[src]}) imports {dst} (layer {rank[dst]})"
    for src in CORE:
        assert not package_graph().get(src, set()) & OUTER, f"core {src} imports {package_graph()[src] & OUTER}"


def test_the_import_linter_contract_lists_the_same_layers():
    import tomllib

    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    (layers,) = [c["layers"] for c in cfg if c["type"] == "layers"]
    assert [set(x.replace(" ", "").split("|")) for x in layers] == LAYERS


def test_no_private_name_is_imported_from_another_module():
    """A name that starts with one underscore stays in its module (``loki._jit`` is a private module whose names are
    public to the kernel modules)."""
    bad = []
    for m, p in _modules().items():
        pkg = m if p.name == "__init__.py" else m.rpartition(".")[0]
        for base, names in _imports(p, pkg):
            for n in names:
                if n.startswith("_") and not n.startswith("__") and not (base == "loki" and n == "_jit"):
                    bad.append(f"{m} imports {base}.{n}")
    assert not bad, bad


def test_each_package_face_says_what_box_it_is_and_exports_its_names():
    import importlib

    for p in sorted(SRC.glob("*/__init__.py")):
        name = f"loki.{p.parent.name}"
        doc = ast.get_docstring(ast.parse(p.read_text()))
        assert doc and len(doc.split("\n\n")[0]) <= 300, f"{name}: a short first paragraph says what it is"
        mod = importlib.import_module(name) if p.parent.name not in {"cli", "web"} else None
        if mod is not None and hasattr(mod, "__all__"):
            missing = [n for n in mod.__all__ if not hasattr(mod, n)]
            assert not missing, f"{name}.__all__ names {missing} it does not have"


def _blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", DOC.read_text(), flags=re.S)


def test_the_example_adds_an_opponent_model_and_runs_it_from_toml(tmp_path, monkeypatch):
    (code,) = [b for b in _blocks("python") if "class Suspicious" in b]
    (toml,) = [b for b in _blocks("toml") if "my_models:Suspicious" in b]
    assert len(code.strip().splitlines()) <= 30  # a short example
    (tmp_path / "my_models.py").write_text(code)
    (tmp_path / "suspicious.toml").write_text(toml)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "my_models", raising=False)
    from loki.engine import GameConfig
    from loki.players.registry import make_player
    from loki.players.table import play_session
    from loki.tournament import load_config, run_tournament

    cfg = load_config(tmp_path / "suspicious.toml")
    spec = [s for s in cfg.seats if s.label == "Suspicious B"][0]
    p = make_player(spec.player, seed=1)
    assert type(p.modeler).__name__ == "Suspicious"
    play_session(GameConfig(n_players=3), [p, make_player("maniac", seed=2), make_player("loki1", seed=3)], 30, seed=4)
    assert p.modeler.raises > 0  # the maniac raised and the model saw it
    run = run_tournament(cfg, workers=1)
    assert len(run.chips) == cfg.deals and len(run.chips[0]) == 6


@pytest.mark.parametrize("name", ["numba", "loki.evaluator.kernels"])
def test_import_loki_is_light(name):
    import subprocess

    code = f"import loki, loki.errors, loki.config, sys; print({name!r} in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_the_architecture_diagram_is_drawn_from_the_code():
    import subprocess

    r = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "architecture_diagram.py"), "--check"], capture_output=True, text=True
    )
    assert r.returncode == 0, r.stdout + r.stderr


def test_the_package_is_typed_for_its_users(tmp_path):
    """PEP 561: ``loki`` ships ``py.typed``, so a bot builder's type checker reads loki's annotations (without it mypy
    skips the package: "missing library stubs or py.typed marker").  A user's file with a wrong type is checked in a
    folder of its own (not this project's mypy settings) and must get the annotation's error, not the skip."""
    import subprocess
    import tomllib

    pytest.importorskip("mypy")
    assert (SRC / "py.typed").is_file()
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["loki"]
    assert "py.typed" in data  # shipped in the wheel, not only present in the source tree
    (tmp_path / "user.py").write_text('from loki.cards import parse_cards\n\nx: str = parse_cards("AsKd")\n')
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "MYPYPATH")}
    found = subprocess.run([sys.executable, "-c", "import loki.cards"], cwd=tmp_path, env=env, capture_output=True)
    if found.returncode != 0:
        pytest.skip("loki is not installed in this environment (only on PYTHONPATH): pip install -e . to check it")
    r = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental", "--follow-imports=silent", "user.py"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert "py.typed" not in r.stdout, r.stdout
    assert 'expression has type "list[int]", variable has type "str"' in r.stdout, r.stdout
