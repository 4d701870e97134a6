"""docs/ARCHITECTURE.md: its import rules hold and its example runs as written."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "loki"
DOC = ROOT / "docs" / "ARCHITECTURE.md"

CORE = {
    "cards", "evaluator", "evaluator_kernels", "evaluator_tables", "betting", "engine", "assessment", "weights",
    "income_rate", "strategies", "rule_chain", "bettor", "triples", "ev_triples", "preflop", "preflop_model",
    "modeler", "situation", "selector", "simulator", "playout", "config", "errors", "_jit", "weights_kernels",
}  # fmt: skip
OUTER = {"players", "tournament", "io", "cli", "replay", "table"}


def _module_imports() -> dict[str, set[str]]:
    """``{module: loki modules it imports at module level}`` (imports inside functions and TYPE_CHECKING blocks
    are not import-time dependencies)."""
    mods = {}
    for p in SRC.rglob("*.py"):
        rel = p.relative_to(SRC.parent).with_suffix("")
        parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
        mods[".".join(parts)] = p
    graph: dict[str, set[str]] = {m: set() for m in mods}
    for m, p in mods.items():
        pkg = m if p.name == "__init__.py" else m.rpartition(".")[0]
        for node in ast.parse(p.read_text()).body:
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                continue
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            for n in ast.walk(node):
                if isinstance(n, ast.Import):
                    graph[m].update(a.name for a in n.names if a.name in mods)
                elif isinstance(n, ast.ImportFrom):
                    base = n.module or ""
                    if n.level:
                        base = ".".join(pkg.split(".")[: len(pkg.split(".")) - n.level + 1] + ([base] if base else []))
                    for a in n.names:
                        full = f"{base}.{a.name}"
                        graph[m].add(full if full in mods else base)
        graph[m] &= set(mods)
        graph[m].discard(m)
    return graph


def _top(m: str) -> str:
    return m.split(".")[1] if m.count(".") else ""


def test_no_import_cycles():
    graph = _module_imports()
    state: dict[str, int] = {}

    def visit(v, path):
        state[v] = 1
        for w in graph[v]:
            if state.get(w) == 1:
                raise AssertionError("import cycle: " + " -> ".join(path + [v, w]))
            if w not in state:
                visit(w, path + [v])
        state[v] = 2

    for v in graph:
        if v not in state:
            visit(v, [])


def test_layers_import_one_way():
    for m, deps in _module_imports().items():
        top = _top(m)
        bad = {d for d in deps if _top(d) in OUTER}
        if top in CORE:
            assert not bad, f"core module {m} imports {sorted(bad)}"
        if top == "players":
            assert not {d for d in bad if _top(d) in {"tournament", "io", "cli"}}, f"{m} imports {sorted(bad)}"


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
    from loki.table import play_session
    from loki.tournament import load_config, run_tournament

    cfg = load_config(tmp_path / "suspicious.toml")
    spec = [s for s in cfg.seats if s.label == "Suspicious B"][0]
    p = make_player(spec.player, seed=1)
    assert type(p.modeler).__name__ == "Suspicious"
    play_session(GameConfig(n_players=3), [p, make_player("maniac", seed=2), make_player("loki1", seed=3)], 30, seed=4)
    assert p.modeler.raises > 0  # the maniac raised and the model saw it
    run = run_tournament(cfg, workers=1)
    assert len(run.chips) == cfg.deals and len(run.chips[0]) == 6


@pytest.mark.parametrize("name", ["numba", "loki.evaluator_kernels"])
def test_import_loki_is_light(name):
    import subprocess

    code = f"import loki, loki.errors, loki.config, sys; print({name!r} in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
