"""The project's import graph has no rings and no climbs (issue 46).

Every ``import`` and ``from … import …`` of every module under the project's packages and
``bot.py`` is an arrow, at any depth: inside functions and classes too; only the body of an
``if TYPE_CHECKING:`` block is left out (it never runs).  Relative imports are resolved, and
``from package import name`` points at ``package.name`` when that is a module.  A module name
built at run time (``importlib.import_module(f"render.{name}")``) is not an arrow the walk can
see; every import written out is.

* A **ring** is a set of modules that import each other, directly or around a loop, at any
  depth (a strongly connected component of more than one module).
* A **climb** is an arrow from a module to one in a higher layer.  Layers, from the bottom:
  ``rules``; ``data``, ``ai``; ``render``; ``host``, ``balance``; ``cogs``; ``bot``; ``bench``.

A failure names each ring by its modules and every arrow inside it (``file:line``), and each
climb by its arrow.
"""
from __future__ import annotations

import ast
import functools
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# From the bottom; packages on one line share a layer and may import each other's modules
# (as long as no ring forms).
LAYERS: tuple[tuple[str, ...], ...] = (
    ("rules",),
    ("data", "ai"),
    ("render",),
    ("host", "balance"),
    ("cogs",),
    ("bot",),
    ("bench",),
)
LAYER = {top: rank for rank, tops in enumerate(LAYERS) for top in tops}

# Rings still in the tree that another change of issue 46 is breaking up (host/ and cogs/).
# Each is the exact set of modules of the ring.  The test fails on any ring not listed here
# and on a listed ring that is gone, so that this list only shrinks: delete an entry when its
# ring is broken, and never add one.
KNOWN_RINGS: tuple[frozenset[str], ...] = ()

# Climbs still in the tree that another change is removing; the same rules as KNOWN_RINGS.
# Each is (importer, imported).
KNOWN_CLIMBS: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Arrow:
    source: str
    target: str
    path: Path
    line: int

    def __str__(self) -> str:
        return f"{self.source} -> {self.target} ({self.path.relative_to(ROOT)}:{self.line})"


def project_modules(root: Path = ROOT) -> dict[str, Path]:
    """Dotted module name -> file, for every module of the project's packages and ``bot.py``."""
    found: dict[str, Path] = {}
    for top in LAYER:
        if (root / f"{top}.py").is_file():
            found[top] = root / f"{top}.py"
        package = root / top
        if not (package / "__init__.py").is_file():
            continue
        for path in sorted(package.rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return ((isinstance(test, ast.Name) and test.id == "TYPE_CHECKING")
            or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"))


def imports_of(source: str, name: str, is_package: bool, known: set[str] | dict[str, Path]) -> list[tuple[str, int]]:
    """``(module, line)`` for every import in ``source`` (module ``name``) that lands on one of
    ``known``: the longest known prefix of an imported dotted name, and ``package.name`` for
    ``from package import name`` when that is a module itself."""

    def resolve(dotted: str) -> str | None:
        parts = dotted.split(".")
        for end in range(len(parts), 0, -1):
            candidate = ".".join(parts[:end])
            if candidate in known:
                return candidate
        return None

    found: list[tuple[str, int]] = []

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child.test):
                for stmt in child.orelse:  # the `else:` of `if TYPE_CHECKING:` does run
                    visit_one(stmt)
                continue
            visit_one(child)

    def visit_one(node: ast.AST) -> None:
        if isinstance(node, ast.Import):
            for alias in node.names:
                target = resolve(alias.name)
                if target:
                    found.append((target, node.lineno))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if is_package else name.split(".")[:-1]
                base = base[:len(base) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            for alias in node.names:
                if f"{module}.{alias.name}" in known:
                    found.append((f"{module}.{alias.name}", node.lineno))
                else:
                    target = resolve(module)
                    if target:
                        found.append((target, node.lineno))
        visit(node)

    visit(ast.parse(source))
    return found


def import_graph(root: Path = ROOT) -> dict[str, dict[str, Arrow]]:
    """Module -> {imported module: the first arrow to it}."""
    modules = project_modules(root)
    graph: dict[str, dict[str, Arrow]] = {}
    for name, path in modules.items():
        arrows = graph.setdefault(name, {})
        for target, line in imports_of(path.read_text(encoding="utf-8"), name,
                                       path.name == "__init__.py", modules):
            if target != name and target not in arrows:
                arrows[target] = Arrow(name, target, path, line)
    return graph


@functools.cache
def project_graph() -> dict[str, dict[str, Arrow]]:
    """The project's graph, walked once per test process: five tests read it and none changes it."""
    return import_graph()


def rings(graph: dict[str, dict[str, Arrow]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(graph[start]))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(graph[target])))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(frozenset(component))
    return found


def climbs(graph: dict[str, dict[str, Arrow]]) -> list[Arrow]:
    def layer(module: str) -> int:
        return LAYER[module.split(".")[0]]

    return [arrow for arrows in graph.values() for arrow in arrows.values()
            if layer(arrow.target) > layer(arrow.source)]


def describe(ring: frozenset[str], graph: dict[str, dict[str, Arrow]]) -> str:
    arrows = sorted((a for m in ring for a in graph[m].values() if a.target in ring), key=str)
    return "ring " + ", ".join(sorted(ring)) + ":\n" + "\n".join(f"    {a}" for a in arrows)


# -- the tests ------------------------------------------------------------------------------


def test_no_ring_but_the_known_ones():
    graph = project_graph()
    new = [ring for ring in rings(graph) if ring not in KNOWN_RINGS]
    assert not new, "modules import each other around a ring:\n" + "\n".join(describe(r, graph) for r in new)


def test_every_known_ring_still_exists():
    """KNOWN_RINGS only shrinks: a ring that is broken (or has changed) leaves the list."""
    present = set(rings(project_graph()))
    gone = [sorted(ring) for ring in KNOWN_RINGS if ring not in present]
    assert not gone, ("no longer a ring: remove it from KNOWN_RINGS (a ring that only lost modules: "
                      f"list what is left of it instead): {gone}")


def test_no_climb_but_the_known_ones():
    new = [arrow for arrow in climbs(project_graph()) if (arrow.source, arrow.target) not in KNOWN_CLIMBS]
    assert not new, ("modules import from a layer above their own:\n"
                     + "\n".join(f"    {arrow}" for arrow in new))


def test_every_known_climb_still_exists():
    present = {(arrow.source, arrow.target) for arrow in climbs(project_graph())}
    gone = [climb for climb in KNOWN_CLIMBS if climb not in present]
    assert not gone, f"no longer a climb, remove from KNOWN_CLIMBS: {gone}"


def test_the_walker_sees_every_kind_of_import():
    """The walker itself: relative imports, modules named in ``from … import``, imports inside
    functions, and nothing from an ``if TYPE_CHECKING:`` block."""
    known = {"pkg", "pkg.a", "pkg.b", "pkg.c", "pkg.sub", "pkg.sub.d", "pkg.e", "pkg.f", "pkg.g"}
    source = (
        "from typing import TYPE_CHECKING\n"
        "import pkg.a\n"
        "from . import b\n"
        "from ..sub.d import thing\n"
        "from pkg import some_name\n"
        "if TYPE_CHECKING:\n"
        "    from pkg import c\n"
        "else:\n"
        "    from pkg import g\n"
        "def late():\n"
        "    from ..e import other\n"
        "class K:\n"
        "    import pkg.f as f\n"
    )
    got = imports_of(source, "pkg.sub.mod", False, known)
    assert got == [("pkg.a", 2), ("pkg.sub", 3), ("pkg.sub.d", 4), ("pkg", 5), ("pkg.g", 9),
                   ("pkg.e", 11), ("pkg.f", 13)]
    graph = {"x": {"y": Arrow("x", "y", ROOT, 1)}, "y": {"z": Arrow("y", "z", ROOT, 1)},
             "z": {"x": Arrow("z", "x", ROOT, 1)}, "w": {"x": Arrow("w", "x", ROOT, 1)}}
    assert rings(graph) == [frozenset({"x", "y", "z"})]


def test_the_walk_covers_the_project():
    graph = project_graph()
    assert {"rules", "rules.squares", "data.store", "render", "host", "cogs", "bot"} <= set(graph)
    assert "rules.prng" in graph["rules.squares"]
