"""Imports point one way: no cycle between the apps, nor between the layers inside an app.

The graph is grimp's (the one import-linter checks in ``make lint``), which reads every import in
a file: function-level ones and those under ``TYPE_CHECKING`` count like any other. The layers are
those of pyproject.toml's contracts, read from there (docs/architecture.md explains them).
"""

from __future__ import annotations

import ast
import tomllib
from collections import defaultdict
from collections.abc import Iterable, Mapping
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[1]
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
PACKAGES = tuple(CONFIG["root_packages"])


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph(*PACKAGES, include_external_packages=False, cache_dir=None)


def _contract(name_starts: str) -> dict:
    return next(c for c in CONFIG["contracts"] if c["name"].startswith(name_starts))


def _cycle(edges: Mapping[str, Iterable[str]]) -> list[str] | None:
    """A cycle of the directed graph, as its nodes in order (the first repeated at the end), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt):], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(edges):
        if start not in state and (found := visit(start)):
            return found
    return None


def _collapsed(graph: grimp.ImportGraph, node_of) -> tuple[dict[str, set[str]], dict[tuple[str, str], str]]:
    """The graph between the nodes ``node_of`` maps modules to (None: left out), and one import behind each edge."""
    edges: dict[str, set[str]] = defaultdict(set)
    example: dict[tuple[str, str], str] = {}
    for importer in graph.modules:
        a = node_of(importer)
        if a is None:
            continue
        for imported in graph.find_modules_directly_imported_by(importer):
            b = node_of(imported)
            if b is not None and a != b:
                edges[a].add(b)
                example.setdefault((a, b), f"{importer} -> {imported}")
    return edges, example


def _explain(cycle: list[str], example: Mapping[tuple[str, str], str]) -> str:
    return "; ".join(example[(a, b)] for a, b in zip(cycle, cycle[1:], strict=False))


def test_the_graph_counts_function_level_imports(graph):
    # casino.outbox imports the Celery app inside its functions only (the app's module imports settings)
    details = graph.get_import_details(importer="casino.outbox", imported="casino.celery")
    assert details, "grimp no longer sees function-level imports: the checks below would miss back edges"
    assert all(line["line_contents"].startswith("from casino.celery import app") for line in details)


def test_no_contract_ignores_an_import():
    assert [c["name"] for c in CONFIG["contracts"] if c.get("ignore_imports")] == []


def test_no_cycle_between_top_level_packages(graph):
    edges, example = _collapsed(graph, lambda m: m.split(".")[0])
    cycle = _cycle(edges)
    assert cycle is None, f"cycle {' -> '.join(cycle)}: {_explain(cycle, example)}"


def test_the_apps_follow_their_layers(graph):
    layers = [[name.strip() for name in layer.split("|")] for layer in _contract("Apps point one way")["layers"]]
    rank = {package: i for i, layer in enumerate(layers) for package in layer}
    assert set(rank) == set(PACKAGES)
    up = sorted({(a, b) for a, targets in _collapsed(graph, lambda m: m.split(".")[0])[0].items() for b in targets
                 if rank[b] <= rank[a] and a != b})
    assert up == []


def _layer_of(contract: dict):
    containers = sorted(contract["containers"], key=len, reverse=True)
    label = {}
    for layer in contract["layers"]:
        tails = [tail.strip().strip("()") for tail in layer.replace(":", "|").split("|")]
        for tail in tails:
            label[tail] = "|".join(tails)

    def node_of(module: str) -> str | None:
        container = next((c for c in containers if module.startswith(c + ".")), None)
        if container is None:
            return None
        tail = module[len(container) + 1:].split(".")[0]
        if tail in contract.get("exhaustive_ignores", ()):
            return None
        return f"{container}[{label[tail]}]"

    return node_of


def test_no_cycle_between_the_layers_of_an_app(graph):
    contract = _contract("Within each app")
    edges, example = _collapsed(graph, _layer_of(contract))
    cycle = _cycle(edges)
    assert cycle is None, f"cycle between layers {' -> '.join(cycle)}: {_explain(cycle, example)}"


def test_no_cycle_between_the_modules_and_packages_of_an_app(graph):
    """Finer than the layers: no two of an app's own modules or packages (its services and its tasks,
    its reports and its services…) import each other, even within one layer."""
    containers = sorted(_contract("Within each app")["containers"], key=len, reverse=True)

    def node_of(module: str) -> str | None:
        container = next((c for c in containers if module.startswith(c + ".")), None)
        if container is None:
            return None
        return f"{container}.{module[len(container) + 1:].split('.')[0]}"

    edges, example = _collapsed(graph, node_of)
    cycle = _cycle(edges)
    assert cycle is None, f"cycle {' -> '.join(cycle)}: {_explain(cycle, example)}"


def test_every_module_of_an_app_has_a_layer(graph):
    contract = _contract("Within each app")
    node_of = _layer_of(contract)
    containers = contract["containers"]
    missing = []
    for module in graph.modules:
        if any(module.startswith(c + ".") for c in containers):
            try:
                node_of(module)
            except KeyError:
                missing.append(module)
    assert missing == []


def test_no_cycle_between_modules(graph):
    """Finest: no module imports, directly or through others, a module that imports it back (a cycle
    hidden behind a function-level import counts: grimp reads those too)."""
    edges, example = _collapsed(graph, lambda module: module)
    cycle = _cycle(edges)
    assert cycle is None, f"cycle {' -> '.join(cycle)}: {_explain(cycle, example)}"


def test_a_function_level_import_says_why():
    """An import inside a function hides an edge from whoever reads the module's head: it is kept for an
    app's ``ready()`` (Django loads the apps first) or with a comment on the line above or on it saying why."""
    unexplained = []
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            lines = path.read_text().splitlines()
            for fn in ast.walk(ast.parse("\n".join(lines))):
                if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                    continue
                for node in ast.walk(fn):
                    if not (isinstance(node, ast.ImportFrom) and node.module
                            and node.module.split(".")[0] in PACKAGES):
                        continue
                    if path.name == "apps.py" and fn.name == "ready":
                        continue
                    said = lines[node.lineno - 2].strip().startswith("#") or "#" in lines[node.lineno - 1]
                    if not said:
                        unexplained.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert unexplained == []
