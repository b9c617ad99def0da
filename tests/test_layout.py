"""The package's import graph, read from the source files (every import, also those inside
functions): arrows point down, cli/ -> evaluation/ -> research/ -> publish/ -> citations/ and
search/ -> errors.py, and the pure core (citations/, search/, publish/) imports no LangGraph,
LangChain or model client."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "deep_research"

# A room may import rooms of a lower rank only (and itself).
RANK = {
    "cli": 6,
    "evaluation": 5, "server": 5, "progress.py": 5,
    "research": 4,
    "publish": 3, "inputs.py": 3,
    "citations": 2, "search": 2,
    "language.py": 1, "terminal.py": 1, "env_file.py": 1,
    "errors.py": 0, "lru.py": 0, "json_values.py": 0,
}
PURE = ("citations", "search", "publish")
MODEL_PACKAGES = ("langgraph", "langgraph_sdk", "langchain", "langchain_core", "openai", "anthropic")


def _imports(path: Path) -> list[tuple[str, int]]:
    """(absolute module, line) of every import in a file, relative ones resolved."""
    rel = path.relative_to(SRC).with_suffix("")
    package = list(rel.parts[:-1])
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [(a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if not node.level:
                out.append((node.module or "", node.lineno))
                continue
            base = package[: len(package) - (node.level - 1)]
            if node.module:
                out.append((".".join([*base, node.module]), node.lineno))
            else:  # from . import a, b: each name may be a module
                out += [(".".join([*base, a.name]), node.lineno) for a in node.names]
    return out


def _room(module: str) -> str | None:
    """The room of deep_research.<x>...: a subpackage name or a top-level module file."""
    parts = module.split(".")
    if parts[0] != "deep_research" or len(parts) < 2:
        return None
    return parts[1] if (PACKAGE / parts[1]).is_dir() else f"{parts[1]}.py"


def _edges() -> list[tuple[str, str, str, str]]:
    """(from room, to room, imported module, where) for every import of the package."""
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        mine = _room("deep_research." + ".".join(path.relative_to(PACKAGE).with_suffix("").parts))
        for module, line in _imports(path):
            where = f"{path.relative_to(SRC)}:{line}"
            out.append((mine, _room(module) or "", module, where))
    return out


def test_the_scanner_sees_the_arrows_it_checks():
    """Known arrows are found, so the checks below cannot pass on an empty graph."""
    edges = {(a, b) for a, b, _, _ in _edges()}
    assert {("research", "publish"), ("publish", "citations"), ("cli", "research"),
            ("evaluation", "research")} <= edges
    assert set(RANK) == {p.name for p in PACKAGE.iterdir()
                         if (p.is_dir() and (p / "__init__.py").exists()) or
                         (p.suffix == ".py" and p.name != "__init__.py")}, "a room without a rank"


def test_arrows_point_down():
    wrong = [f"{where}: {a} imports {module}" for a, b, module, where in _edges()
             if b and b != a and a in RANK and RANK[b] >= RANK[a]]
    assert not wrong, "\n".join(wrong)


def test_research_never_imports_evaluation():
    wrong = [f"{where}: {module}" for a, b, module, where in _edges() if a == "research" and b == "evaluation"]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("room", PURE)
def test_the_pure_core_imports_no_langgraph_langchain_or_model_client(room):
    wrong = [f"{where}: {module}" for a, _, module, where in _edges()
             if a == room and module.split(".")[0] in MODEL_PACKAGES]
    assert not wrong, "\n".join(wrong)


def test_research_runtime_is_below_the_stages():
    """research/runtime/ (configuration, models, deps, run folders) imports no stage
    (scope/, report/), nor the graph or its runner."""
    wrong = [f"{where}: {module}" for path in sorted((PACKAGE / "research" / "runtime").rglob("*.py"))
             for module, line in _imports(path)
             if module.startswith(("deep_research.research.scope", "deep_research.research.report",
                                   "deep_research.research.graph", "deep_research.research.runner"))
             for where in [f"{path.relative_to(SRC)}:{line}"]]
    assert not wrong, "\n".join(wrong)
