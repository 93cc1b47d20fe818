"""Planted bugs: a kernel's source edited in a scratch copy, certified, expected to fail.

A planted bug is a row (``planted_bugs.Planted``: kernel, name, what it models, edits of
the form snippet → replacement, the edited file); the project's rows are the table of
planted_bugs.py, the kernels themselves carry none. ``apply_edits`` performs the edits on a text
and refuses a snippet that does not occur exactly once, so a kernel that drifted away
from its rows is an error, never a silent no-op. ``planted_spec`` writes the edited
file to a scratch directory, imports it in place of the original for as long as the
kernel module is re-imported from it, and hands back the kernel's spec with ``run``
taken from that copy; the original modules are restored before it returns. The same
``apply_edits`` plants the bugs of the mutation suite (tests/mutations/) in a copy of
the whole project.

A binding made by a user (``bind(..., planted={name: variant})``) may plant a variant
function instead; it replaces ``run`` as it is.

Not covered: edits of files outside ``impls/`` (a combine of ``laws/`` is edited by the
mutation suite, whose copies of the project run in a child process).
"""
from __future__ import annotations

import contextlib
import dataclasses
import importlib.util
import sys
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any, Iterable, Iterator

from impls.spec import KernelSpec
from verify.certification.binding import as_spec
from verify.certification.certify import certify
from verify.certification.planted_bugs import ROWS, Planted

PROJECT_ROOT = Path(__file__).resolve().parents[2]


class SnippetError(ValueError):
    """An edit's snippet does not occur exactly once in its file."""


def apply_edits(text: str, edits: Iterable[tuple[str, str]], label: str = "edit",
                file: str = "the source") -> str:
    """``text`` with each snippet replaced by its replacement, in order; ``SnippetError``
    unless every snippet occurs exactly once (when its turn comes) and changes something."""
    for old, new in edits:
        count = text.count(old)
        if count != 1:
            raise SnippetError(f"{label}: snippet occurs {count} times in {file} "
                               "(expected exactly once)")
        if old == new:
            raise SnippetError(f"{label}: replacement equals the snippet")
        text = text.replace(old, new, 1)
    return text


def edited_source(row: Planted, root: Path = PROJECT_ROOT) -> str:
    """The edited file's text with the row applied (``SnippetError`` when it no longer fits)."""
    text = (root / row.path).read_text(encoding="utf-8")
    return apply_edits(text, row.edits, f"{row.kernel}.{row.name}", row.path)


def planted_bugs(spec: KernelSpec) -> dict[str, Any]:
    """The planted bugs ``spec`` must fail, by name: the table's rows for a kernel of
    impls/ (planted_bugs.py), and the variants a user's binding plants."""
    import impls
    own = {row.name: row for row in ROWS if row.kernel == spec.name} \
        if spec.name in impls.kernel_names() else {}
    return {**own, **spec.execution.planted}


def _dotted(relative: str) -> str:
    return relative.removesuffix(".py").replace("/", ".")


def _kernel_module(spec: KernelSpec, relative: str) -> str:
    """The module whose ``KERNEL`` supplies the planted ``run``: the kernel's own module
    in impls/ when there is one, else the edited module."""
    own = PROJECT_ROOT / "impls" / f"{spec.name}.py"
    return f"impls.{spec.name}" if own.is_file() else _dotted(relative)


def _execute(dotted: str, path: Path) -> Any:
    found = importlib.util.spec_from_file_location(dotted, path)
    assert found is not None and found.loader is not None
    module = importlib.util.module_from_spec(found)
    sys.modules[dotted] = module
    found.loader.exec_module(module)
    return module


@contextlib.contextmanager
def planted_module(spec: KernelSpec, row: Planted) -> Iterator[ModuleType]:
    """The kernel's module executed from a copy of its source with ``row`` applied (for a
    row in a module the kernel imports, that module's copy is what it imports); the
    process's own modules are back in place before the body runs, and the copy stays
    on disk while the context lasts."""
    relative = row.path
    text = edited_source(row)
    edited, kernel = _dotted(relative), _kernel_module(spec, relative)
    saved = {m: sys.modules.get(m) for m in (edited, kernel)}
    with tempfile.TemporaryDirectory(prefix="planted-") as scratch:
        try:
            path = Path(scratch) / Path(relative).name
            path.write_text(text, encoding="utf-8")
            module = _execute(edited, path)
            if kernel != edited:
                module = _execute(kernel, PROJECT_ROOT / (kernel.replace(".", "/") + ".py"))
        finally:
            for dotted, original in saved.items():
                if original is None:
                    sys.modules.pop(dotted, None)
                else:
                    sys.modules[dotted] = original
        yield module


@contextlib.contextmanager
def planted_spec(spec: KernelSpec, bug: str | Planted) -> Iterator[KernelSpec]:
    """``spec`` with ``run`` taken from a copy of its source where the planted bug (a
    row, or the name of one of ``planted_bugs(spec)``) is applied, and no planted bugs
    of its own (``planted_module``); a user's variant function replaces ``run`` as is."""
    spec = as_spec(spec)
    entry = planted_bugs(spec)[bug] if isinstance(bug, str) else bug
    if not isinstance(entry, Planted):
        yield _running(spec, entry)
        return
    with planted_module(spec, entry) as module:
        yield _running(spec, as_spec(module.KERNEL).execution.run)


def _running(spec: KernelSpec, run: Any) -> KernelSpec:
    """``spec`` running ``run``, with no planted bugs of its own."""
    return dataclasses.replace(
        spec, execution=dataclasses.replace(spec.execution, run=run, planted={}))


def planted_results(spec: KernelSpec, backend: str, seed: int = 0,
                    dtypes: Iterable[str] | None = None) -> dict[str, dict]:
    """Certify each planted bug of ``spec`` (same cases, oracle and bound; ``run`` from
    the edited copy). Every one must come out with pass False."""
    spec = as_spec(spec)
    results = {}
    for name in planted_bugs(spec):
        with planted_spec(spec, name) as variant:
            cert = certify(variant, backend, seed=seed, dtypes=dtypes, check_laws=False,
                           compiled=False)
        results[name] = cert
    return results
