"""The source files a certificate depends on, their hashes, and stale certificates.

A certificate's verdict depends on the kernel, its combine, its bound, oracle and case
generators, the laws it names, the certifier's comparison, and every project module
those import. ``source_files`` finds the modules that define each of the spec's
callables (by where they are defined, never by the kernel's name, so a binding outside
impls/ records its own file), the modules defining the named laws' sides, and the
certifier itself, then follows their imports transitively:

* into ``laws`` and ``impls`` (every import, also inside functions);
* from the pipeline (``verify.certification.certify``), the module-level imports of the
  certifier (``verify.certification``, and ``verify.cases`` it generates cases with):
  every module that decides a number is imported at module level, so that this walk
  finds it; the certifier's lazy imports reach only the law checker, the child
  processes and the command line, whose code decides law verdicts (recorded in the
  certificate by verdict) or runs and prints, not the numbers.

Not covered: third-party packages (their versions are recorded instead), data files
read at run time, and modules imported through ``importlib`` by a computed name.
"""
from __future__ import annotations

import ast
import hashlib
import importlib.util
import inspect
import os
import stat
import sys
import types
from pathlib import Path
from typing import Any, Iterable

from verify.jsonio import read_document
from verify.kernelobjects import python_function

REPO_ROOT = Path(__file__).resolve().parents[2]
# every import inside these is followed (the compiled section's modules import each
# other lazily, and each decides part of the certificate)
FOLLOWED = ("laws", "impls", "verify.hardware")
CERTIFIER = ("verify.certification", "verify.cases")  # followed at module level only
PIPELINE = "verify.certification.certify"     # the root of the certifier's walk


# --------------------------------------------------------------------------- callables
def functions_reached(fn: Any, seen: set[int]) -> list[types.FunctionType]:
    """``fn`` and the functions held in its closure cells, recursively (a Triton
    ``JITFunction``, autotuned or not, is unwrapped to its Python function)."""
    fn = python_function(fn)
    while hasattr(fn, "fn") and callable(fn.fn):
        fn = fn.fn
    if not isinstance(fn, types.FunctionType) or id(fn) in seen:
        return []
    seen.add(id(fn))
    found = [fn]
    for cell in fn.__closure__ or ():
        try:
            value = cell.cell_contents
        except ValueError:
            continue
        values = value if isinstance(value, (tuple, list)) else (value,)
        for v in values:
            if callable(v):
                found += functions_reached(v, seen)
    return found


def _spec_callables(spec) -> list[Any]:
    run, compare = spec.execution, spec.comparison
    parts = [run.run, compare.oracle, spec.bounding.bound, spec.coverage.cases,
             spec.bounding.algorithm, compare.precision, run.reference, run.lower, run.bench,
             spec.combine, *run.planted.values()]
    return [p for p in parts if p is not None]


def _law_callables(law_ids: Iterable[str]) -> list[Any]:
    try:
        from laws import REGISTRY
    except ImportError:
        return []
    parts = []
    for law_id in law_ids:
        if law_id in REGISTRY:
            law = REGISTRY[law_id]
            parts += [law.lhs, law.rhs, law.combine, law.pre, law.error_bound]
    return [p for p in parts if p is not None]


def _defining_files(objects: Iterable[Any]) -> set[str]:
    """The files defining each function reached from ``objects``."""
    files = set()
    seen: set[int] = set()
    for obj in objects:
        for fn in functions_reached(obj, seen):
            path = _source_file(fn)
            if path:
                files.add(path)
    return files


def _source_file(obj: Any) -> str | None:
    try:
        path = inspect.getsourcefile(obj)
    except TypeError:
        return None
    return str(Path(path).resolve()) if path else None


# --------------------------------------------------------------------------- imports
def _module_file(name: str) -> str | None:
    module = sys.modules.get(name)
    origin = getattr(module, "__file__", None) if module is not None else None
    if origin is None:
        try:
            found = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            return None
        origin = found.origin if found is not None else None
    if not origin or not origin.endswith(".py"):
        return None
    return str(Path(origin).resolve())


def _module_name(path: str) -> str | None:
    """Dotted name of a file under the repository, or None outside it."""
    try:
        rel = Path(path).relative_to(REPO_ROOT).with_suffix("")
    except ValueError:
        return None
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts) or None


def _is_followed(name: str) -> bool:
    return any(name == f or name.startswith(f + ".") for f in FOLLOWED) or _in_certifier(name)


def _in_certifier(name: str) -> bool:
    return any(name == c or name.startswith(c + ".") for c in CERTIFIER)


def _imported_names(tree: ast.Module, package: str, top_level_only: bool) -> set[str]:
    """Module names imported by ``tree`` (relative imports resolved against
    ``package``); ``from P import n`` names P.n when that is a module, else P."""
    nodes = tree.body if top_level_only else list(ast.walk(tree))
    names: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{parent}.{base}" if base else parent
            if not _is_followed(base):
                names.add(base)
                continue
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                names.add(sub if _module_file(sub) else base)
    return names


def _imports_of(path: str) -> set[str]:
    """The followed project modules ``path`` imports, as files."""
    name = _module_name(path) or ""
    package = name if path.endswith("__init__.py") else name.rpartition(".")[0]
    try:
        tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return set()
    top_only = _in_certifier(name)
    files = set()
    for imported in _imported_names(tree, package, top_only):
        if _is_followed(imported):
            found = _module_file(imported)
            if found:
                files.add(found)
    return files


def import_closure(files: Iterable[str]) -> set[str]:
    """``files`` and every followed project module they import, transitively."""
    todo, done = list(files), set()
    while todo:
        path = todo.pop()
        if path in done:
            continue
        done.add(path)
        todo.extend(_imports_of(path) - done)
    return done


def source_files(spec) -> list[str]:
    """Every file the certificate of ``spec`` depends on (module docstring), sorted;
    repo-relative where possible, absolute outside the repository."""
    roots = _defining_files(_spec_callables(spec)) | _defining_files(_law_callables(spec.laws))
    pipeline = _module_file(PIPELINE)
    if pipeline:
        roots.add(pipeline)
    for extra in spec.sources:
        p = Path(extra)
        roots.add(str((p if p.is_absolute() else REPO_ROOT / p).resolve()))
    return sorted(display_path(f) for f in import_closure(roots))


def display_path(path: str) -> str:
    p = Path(path)
    try:
        return p.relative_to(REPO_ROOT).as_posix()
    except ValueError:
        return p.as_posix()


# --------------------------------------------------------------------------- hashes
def _resolve(path: str, root: Path) -> Path:
    p = Path(path)
    return p if p.is_absolute() else root / p


def file_sha(path: Path) -> str | None:
    """The file's SHA-256; None when it is missing or not a regular file (a device or a
    fifo may never end)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return None
            digest = hashlib.sha256()
            for chunk in iter(lambda: f.read(1 << 20), b""):
                digest.update(chunk)
            return digest.hexdigest()
    except OSError:
        return None


def regular_or_absent(path: str, root: Path = REPO_ROOT) -> bool:
    """Whether hashing ``path`` (resolved as ``hash_sources`` does) reads a regular
    file or nothing."""
    p = _resolve(path, root)
    try:
        return not p.exists() or p.is_file()
    except OSError:
        return False


def hash_sources(paths: Iterable[str], root: Path = REPO_ROOT) -> dict:
    """{"sha256": combined, "files": [{"path", "sha256"}]}; a missing file hashes None."""
    entries = [{"path": p, "sha256": file_sha(_resolve(p, root))} for p in sorted(paths)]
    combined = hashlib.sha256(
        "\n".join(f"{e['path']}:{e['sha256']}" for e in entries).encode()).hexdigest()
    return {"sha256": combined, "files": entries}


def stale_certificates(directory: str | os.PathLike, root: str | os.PathLike | None = None
                       ) -> list[dict]:
    """Certificates in ``directory`` whose recorded source hash no longer matches the
    files they name: [{"kernel", "path", "reason"}]."""
    root_path = Path(root) if root is not None else REPO_ROOT
    stale = []
    for path in sorted(Path(directory).glob("*.json")):
        try:
            cert = read_document(path)
            recorded, files = cert["source_hash"], cert["sources"]
            kernel = cert.get("kernel")
            odd = [str(f["path"]) for f in files if not regular_or_absent(f["path"], root_path)]
        except (OSError, ValueError, KeyError, TypeError, RecursionError) as exc:
            stale.append({"kernel": None, "path": str(path),
                          "reason": f"unreadable certificate ({type(exc).__name__})"})
            continue
        if odd:  # a device or a fifo: hashing it might never end
            stale.append({"kernel": kernel, "path": str(path),
                          "reason": "not a file: " + ", ".join(odd)})
            continue
        current = hash_sources([f["path"] for f in files], root_path)
        if current["sha256"] == recorded:
            continue
        before = {f["path"]: f["sha256"] for f in files}
        changed = [f["path"] for f in current["files"]
                   if f["sha256"] is not None and f["sha256"] != before.get(f["path"])]
        missing = [f["path"] for f in current["files"] if f["sha256"] is None]
        parts = []
        if changed:
            parts.append("changed: " + ", ".join(changed))
        if missing:
            parts.append("missing: " + ", ".join(missing))
        stale.append({"kernel": kernel, "path": str(path),
                      "reason": "; ".join(parts) or "source hash differs"})
    return stale
