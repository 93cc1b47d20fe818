"""Where the kernels use a law's combine: one finder for ``verify law`` and ``explain``.

The combine of a law is usually a small wrapper in ``laws/`` that calls a shared
combine (``laws/associativity/combines.py``), and the kernels in ``impls/`` call the
shared one. :func:`combine_functions` finds the wrapper and the project functions it
calls (by following its bytecode, transitively); :func:`kernel_sites` finds every real
use of any of them in ``impls/*.py``: a name or attribute in the syntax tree that
resolves, through the module's imports, to one of those functions: called, passed as
an argument (``tl.reduce(x, 0, online_softmax)``, ``KernelSpec(combine=...)``) or
otherwise referenced. What does not count: strings, docstrings, comments, ``import``
lines and definitions (none of them are name loads in the tree). What it does not
cover: a name rebound by a local assignment after its import is still taken for the
import (no kernel does that), and a use reached only through a variable holding the
function (``f = welford; f(...)`` reports the assignment, not the call).
"""
from __future__ import annotations

import ast
import dis
import inspect
import os
import sys
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

from laws import Law
from verify.engine.interp import unwrap

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
IMPLS = os.path.join(ROOT, "impls")
PROJECT_ROOTS = ("laws",)      # where combines live; impls never defines one a law uses
PROJECT_PACKAGES = ("laws", "impls")


@dataclass(frozen=True)
class Site:
    """One place in the source: a definition or a use of a combine."""

    file: str        # relative to the project root
    line: int
    name: str        # the combine's name (the function's ``__name__``)
    text: str        # the source line, stripped
    kind: str        # "definition", "shared" (a combine the law's combine calls),
                     # "call", "argument" or "reference"

    def to_json(self) -> dict:
        return {"file": self.file, "line": self.line, "name": self.name,
                "text": self.text, "kind": self.kind}

    def __str__(self) -> str:
        """``file:line: text`` for a use, ``file:line (what)`` for a definition."""
        if self.kind == "definition":
            return f"{self.file}:{self.line} (definition of {self.name})"
        if self.kind == "shared":
            return f"{self.file}:{self.line} (the shared combine {self.name})"
        return f"{self.file}:{self.line}: {self.text}"


# --------------------------------------------------------------------------- the combines
def combine_functions(law: Law) -> list[Callable]:
    """The law's combine (unwrapped) and, after it, the project functions it calls,
    directly or through those; empty when the law has no combine."""
    if law.combine is None:
        return []
    first = unwrap(law.combine)
    found: list[Callable] = [first]
    queue = [first]
    while queue:
        fn = queue.pop(0)
        for ref in _referenced(fn):
            inner = unwrap(ref)
            if (isinstance(inner, types.FunctionType) and _in_project(inner)
                    and all(inner is not f for f in found)):
                found.append(inner)
                queue.append(inner)
    return found


def _in_project(fn: types.FunctionType) -> bool:
    return (fn.__module__ or "").split(".")[0] in PROJECT_ROOTS and fn.__name__ != "<lambda>"


def _referenced(fn: Any) -> Iterator[Any]:
    """Objects a function's code loads: globals, closure cells, and attributes of
    modules loaded as globals (``combines.online_softmax``)."""
    if not isinstance(fn, types.FunctionType):
        return
    cells = {}
    for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or ()):
        try:
            cells[name] = cell.cell_contents
        except ValueError:
            continue
    for code in _codes(fn.__code__):
        last: Any = None
        for ins in dis.get_instructions(code):
            if ins.opname in ("LOAD_GLOBAL", "LOAD_NAME"):
                last = fn.__globals__.get(ins.argval, getattr(fn.__globals__.get(
                    "__builtins__"), ins.argval, None))
            elif ins.opname in ("LOAD_DEREF", "LOAD_CLASSDEREF"):
                last = cells.get(ins.argval)
            elif ins.opname in ("LOAD_ATTR", "LOAD_METHOD") and isinstance(
                    last, types.ModuleType):
                last = getattr(last, ins.argval, None)
            else:
                continue
            yield last


def _codes(code: types.CodeType) -> Iterator[types.CodeType]:
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _codes(const)


def _where(fn: Callable, kind: str) -> Site | None:
    try:
        path = inspect.getsourcefile(fn)
        lines, start = inspect.getsourcelines(fn)
    except (OSError, TypeError):
        return None
    if path is None:
        return None
    text = next((ln.strip() for ln in lines if ln.lstrip().startswith(("def ", "async def"))),
                lines[0].strip())
    return Site(relative(path), start, fn.__name__, text, kind)


def definitions(law: Law) -> list[Site]:
    """Where the law's combine is defined ("definition"), then each project function it
    calls ("shared")."""
    out = []
    for i, fn in enumerate(combine_functions(law)):
        site = _where(fn, "definition" if i == 0 else "shared")
        if site is not None:
            out.append(site)
    return out


def relative(path: str) -> str:
    """``path`` relative to the project root when inside it, else unchanged."""
    rel = os.path.relpath(os.path.abspath(path), ROOT)
    return path if rel.startswith("..") else rel


# --------------------------------------------------------------------------- the uses
def kernel_sites(law: Law, impls_dir: str = IMPLS) -> list[Site]:
    """Every use in ``impls_dir/*.py`` of the law's combine or a combine it calls, one
    per source line, in file then line order."""
    targets = {_qualified(fn): fn.__name__ for fn in combine_functions(law)}
    if not targets:
        return []
    out: list[Site] = []
    for fname in sorted(os.listdir(impls_dir)) if os.path.isdir(impls_dir) else []:
        if fname.endswith(".py"):
            out.extend(uses_in_file(os.path.join(impls_dir, fname), targets))
    return out


def _qualified(fn: Callable) -> str:
    return f"{fn.__module__}.{fn.__name__}"


def uses_in_file(path: str, targets: dict[str, str]) -> list[Site]:
    """Uses in one file of the functions named by ``targets`` (qualified name → name)."""
    found: dict[int, Site] = {}
    for line, qualified, kind, text in _project_references(os.path.abspath(path)):
        if qualified in targets and line not in found:
            found[line] = Site(relative(path), line, targets[qualified], text, kind)
    return [found[k] for k in sorted(found)]


@cache
def _project_references(path: str) -> tuple[tuple[int, str, str, str], ...]:
    """(line, qualified name, kind, source line) of every load of a name or attribute
    chain in the file that an import binds to something in the project."""
    with open(path, encoding="utf-8") as fh:
        source = fh.read()
    try:
        tree = ast.parse(source, filename=path)
    except SyntaxError:
        return ()
    bindings = _import_bindings(tree, _module_name(path))
    lines = source.splitlines()
    parents = {id(child): node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    out = []
    for node in ast.walk(tree):
        if not isinstance(getattr(node, "ctx", None), ast.Load):
            continue
        dotted = _dotted(node)
        parent = parents.get(id(node))
        if dotted is None or isinstance(parent, ast.Attribute):
            continue  # only the outermost name of a chain is resolved
        head = bindings.get(dotted[0])
        if head is None or head.split(".")[0] not in PROJECT_PACKAGES:
            continue  # tl.maximum is not combines.maximum: the head must be imported
        out.append((node.lineno, _canonical(".".join([head, *dotted[1:]])),
                    _kind(node, parent), lines[node.lineno - 1].strip()))
    return tuple(sorted(out))


def _dotted(node: ast.AST) -> list[str] | None:
    """``a.b.c`` as ["a", "b", "c"]; None for anything but names and attribute chains."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return parts[::-1]


def _kind(node: ast.AST, parent: ast.AST | None) -> str:
    if isinstance(parent, ast.Call):
        return "call" if parent.func is node else "argument"
    if isinstance(parent, ast.keyword):
        return "argument"
    return "reference"


def _module_name(path: str) -> str:
    rel = os.path.relpath(os.path.abspath(path), ROOT)
    if rel.startswith(".."):
        return os.path.splitext(os.path.basename(path))[0]
    return os.path.splitext(rel)[0].replace(os.sep, ".").removesuffix(".__init__")


def _import_bindings(tree: ast.Module, module: str) -> dict[str, str]:
    """Local name → the dotted name it imports (``combines`` →
    ``laws.associativity.combines``, ``welford`` → ``laws.associativity.combines.welford``),
    from every import statement in the file, whatever its scope."""
    package = module.rsplit(".", 1)[0] if "." in module else ""
    out: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                head = alias.name.split(".")[0]
                out[alias.asname or head] = alias.name if alias.asname else head
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node.module or "", node.level, package)
            for alias in node.names:
                if alias.name != "*":
                    out[alias.asname or alias.name] = f"{base}.{alias.name}" if base else alias.name
    return out


def _absolute(module: str, level: int, package: str) -> str:
    if level == 0:
        return module
    parts = package.split(".") if package else []
    parts = parts[:len(parts) - (level - 1)] if level > 1 else parts
    return ".".join(p for p in (*parts, module) if p)


@cache
def _canonical(full: str) -> str:
    """Where ``module.name`` is really defined: re-exports (``from .x import f``) are
    followed a few steps, through the object when its module is loaded, through the
    module's source (without importing it) when not."""
    for _ in range(8):
        module, _, name = full.rpartition(".")
        nxt = _reexport(module, name)
        if nxt is None or nxt == full:
            return full
        full = nxt
    return full


def _reexport(module: str, name: str) -> str | None:
    loaded = sys.modules.get(module)
    if loaded is not None:
        obj = unwrap(getattr(loaded, name, None))
        if isinstance(obj, types.FunctionType):
            return _qualified(obj)
        return None
    path = _source_of(module)
    if path is None:
        return None
    with open(path, encoding="utf-8") as fh:
        tree = ast.parse(fh.read(), filename=path)
    return _import_bindings(tree, module).get(name)


def _source_of(module: str) -> str | None:
    """The file of a project module, found on disk (nothing is imported)."""
    if module.split(".")[0] not in PROJECT_PACKAGES:
        return None
    base = os.path.join(ROOT, *module.split("."))
    for path in (base + ".py", os.path.join(base, "__init__.py")):
        if os.path.isfile(path):
            return path
    return None


def site_lines(law: Law) -> list[str]:
    """``verify law``'s list: where the combine and the shared combines it calls are
    defined, then each kernel use; empty when no kernel in ``impls/`` uses it."""
    uses = kernel_sites(law)
    return [str(s) for s in definitions(law) + uses] if uses else []
