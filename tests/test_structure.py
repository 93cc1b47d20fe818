"""The project's shape, read from its source (nothing is imported): dependencies flow one
way (verify imports laws and impls, never the reverse), verify/ has no import cycle —
imports inside functions included, so a lazy back-edge is a cycle too; only imports under
``if TYPE_CHECKING:``, which never run, are left out —, modules stay under 500 lines, and
no kernel carries a planted-bug switch."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("verify", "laws", "impls", "papers")
MAX_LINES = 500


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for package in PACKAGES for p in (ROOT / package).rglob("*.py")}


def imports(path: Path, known: dict[str, Path]) -> set[str]:
    """Project modules ``path`` imports anywhere in its body (relative imports resolved;
    ``from package import name`` counts the submodule when ``name`` is one)."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {id(n) for block in ast.walk(tree) if _type_checking_block(block)
                   for stmt in block.body for n in ast.walk(stmt)}
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[:len(parts) - node.level + 1]
                base = ".".join(p for p in [*parts, base] if p)
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                       for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def _type_checking_block(node: ast.AST) -> bool:
    """``if TYPE_CHECKING:`` (or ``typing.TYPE_CHECKING``): its imports never run."""
    if not isinstance(node, ast.If):
        return False
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def graph() -> dict[str, set[str]]:
    known = _modules()
    return {name: imports(path, known) for name, path in known.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_the_cycle_finder_sees_a_lazy_back_edge():
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(edges) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []
    # planting.py imports the pipeline only inside a function: still an edge
    known = _modules()
    planting = imports(known["verify.certification.planting"], known)
    assert {"verify.certification.certify", "verify.certification.binding"} <= planting
    # a relative import inside impls/ resolves to the module it names
    assert "impls.launch" in imports(known["impls.softmax"], known)


def test_verify_has_no_import_cycle_lazy_imports_included():
    found = cycles(graph())
    assert found == [], "import cycles: " + "; ".join(" ↔ ".join(c) for c in found)


def test_certification_has_no_import_cycle():
    edges = {k: {v for v in vs if v.startswith("verify.certification")}
             for k, vs in graph().items() if k.startswith("verify.certification")}
    assert cycles(edges) == []


def test_typing_only_imports_are_not_edges_but_lazy_ones_are():
    known = _modules()
    # z3paths names z3interp's context in annotations only, under TYPE_CHECKING
    assert "verify.engine.z3interp" not in imports(known["verify.engine.z3paths"], known)
    assert "verify.engine.z3paths" in imports(known["verify.engine.z3interp"], known)


def test_the_shared_pieces_are_imported_not_imported_back():
    """The three former cycles stay broken: each pair imports a shared module (or the
    registry pulls its extension) and no edge runs back."""
    edges = graph()
    for registry, extension in [("verify.decide.search", "verify.decide.oracle"),
                                ("laws.teaching", "laws.teaching_systems"),
                                ("verify.teaching.exercise",
                                 "verify.teaching.exercises_systems")]:
        assert extension in edges[registry]
        assert registry not in edges[extension]
    assert "verify.decide.jit_raise" in edges["verify.decide.oracle"]
    assert "laws.teaching_entry" in edges["laws.teaching_systems"]
    assert "verify.teaching.answer_form" in edges["verify.teaching.exercises_systems"]


@pytest.mark.parametrize("package", ["laws", "impls"])
def test_laws_and_impls_import_nothing_from_verify(package):
    edges = graph()
    wrong = sorted(f"{m} imports {t}" for m, targets in edges.items()
                   if m.split(".")[0] == package for t in targets if t.startswith("verify"))
    assert wrong == []


def _long_modules(*folders: str) -> list[str]:
    out = []
    for folder in folders:
        for path in sorted((ROOT / folder).rglob("*.py")):
            lines = len(path.read_text(encoding="utf-8").splitlines())
            if lines > MAX_LINES:
                out.append(f"{path.relative_to(ROOT)}: {lines} lines")
    return out


def test_no_module_over_500_lines():
    assert _long_modules(*PACKAGES) == []


def test_no_kernel_carries_a_planted_bug_switch():
    """No parameter, name or keyword of impls/ mentions planting: planted bugs are rows of
    verify/certification/planted_bugs.py applied to copies of the source. (spec.py, the
    type a user's binding fills, keeps the field for a user's variant functions.)"""
    found = []
    for path in sorted(p for p in (ROOT / "impls").glob("*.py") if p.name != "spec.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.arg):
                names.append(node.arg)
            elif isinstance(node, ast.Name):
                names.append(node.id)
            elif isinstance(node, ast.keyword) and node.arg:
                names.append(node.arg)
            elif isinstance(node, (ast.FunctionDef, ast.Assign)):
                names += [getattr(node, "name", "")]
            found += [f"{path.name}: {n}" for n in names if "plant" in n.lower()]
    assert found == []
