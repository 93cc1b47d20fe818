"""Running one mutant: copy the project's importable packages into a scratch directory,
apply the edit there, find what it affects, and judge it in a child process.

``affected_kernels`` follows the project's own imports (parsed, not executed) from each
kernel module, so a shared file (``impls/launch.py``, a combine) names every kernel that
uses it. ``run_mutant`` returns an ``Outcome``: caught or not, with a one-line reason.
A crash or a timeout of the child counts as caught; a child that imported the project
from anywhere but the scratch copy is an error, never a verdict.

Not covered: mutants of files outside impls/, laws/ and verify/.
"""
from __future__ import annotations

import ast
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from mutants import Mutant, apply

PROJECT_ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("impls", "laws", "verify", "papers")
CHILD = Path(__file__).with_name("child.py")
COMBINES = "laws/associativity/combines.py"


@dataclass
class Outcome:
    id: str
    cls: str
    caught: bool
    reason: str
    seconds: float
    kernels: tuple[str, ...] = ()
    laws: tuple[str, ...] = ()
    error: bool = False            # the run could not judge the mutant (setup problem)

    def to_json(self) -> dict:
        return {"id": self.id, "class": self.cls, "caught": self.caught,
                "reason": self.reason, "seconds": round(self.seconds, 1),
                "kernels": list(self.kernels), "laws": list(self.laws),
                "error": self.error}


# --------------------------------------------------------------------------- copies
def copy_project(into: Path, root: Path = PROJECT_ROOT) -> None:
    for package in PACKAGES:
        if (root / package).is_dir():
            shutil.copytree(root / package, into / package,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))


def plant(mutant: Mutant, into: Path) -> None:
    """Apply the mutant to the copy under ``into`` (``SnippetError`` if it does not fit)."""
    path = into / mutant.file
    path.write_text(apply(mutant, path.read_text(encoding="utf-8")), encoding="utf-8")


# --------------------------------------------------------------------------- imports
def _module_file(root: Path, dotted: str) -> Path | None:
    base = root.joinpath(*dotted.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _imports(root: Path, path: Path) -> set[Path]:
    """Project files that ``path`` imports directly (relative and absolute imports)."""
    package = ".".join(path.relative_to(root).with_suffix("").parts[:-1])
    found: set[Path] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            parts = package.split(".") if node.level else []
            if node.level > 1:
                parts = parts[:-(node.level - 1)]
            base = ".".join(p for p in [*parts, node.module or ""] if p)
            names = [base] + [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        for name in names:
            if name.split(".")[0] in PACKAGES and (target := _module_file(root, name)):
                found.add(target)
    return found


def kernel_modules(root: Path) -> list[str]:
    return sorted(p.stem for p in (root / "impls").glob("*.py")
                  if not p.stem.startswith("_") and "\nKERNEL = " in p.read_text(encoding="utf-8"))


def affected_kernels(root: Path, relfile: str) -> list[str]:
    """Kernels whose module imports ``relfile``, directly or through project modules."""
    target = (root / relfile).resolve()
    hit = []
    for name in kernel_modules(root):
        seen, todo = set(), [(root / "impls" / f"{name}.py").resolve()]
        while todo:
            path = todo.pop()
            if path in seen:
                continue
            seen.add(path)
            todo.extend(p.resolve() for p in _imports(root, path))
        if target in seen:
            hit.append(name)
    return hit


def edited_function(mutant: Mutant, source: str) -> str | None:
    """The name of the top-level function whose body holds the mutant's snippet."""
    line = source[:source.index(mutant.old)].count("\n") + 1
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef) and node.lineno <= line <= node.end_lineno:
            return node.name
    return None


# --------------------------------------------------------------------------- judging
def run_mutant(mutant: Mutant, timeout: float = 300.0) -> Outcome:
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="mutant-") as scratch:
        root = Path(scratch)
        copy_project(root)
        combine = (edited_function(mutant, (root / mutant.file).read_text(encoding="utf-8"))
                   if mutant.file == COMBINES else None)
        plant(mutant, root)
        kernels = affected_kernels(root, mutant.file)
        report = root / "report.json"
        argv = [sys.executable, str(CHILD), "--root", str(root), "--report", str(report),
                "--kernels", ",".join(kernels)]
        if combine:
            argv += ["--combine", combine]
        status, tail = _run_child(argv, root, timeout)
        doc = json.loads(report.read_text()) if report.is_file() else None
    seconds = time.monotonic() - start
    return _judge(mutant, kernels, status, tail, doc, seconds)


def _run_child(argv: list[str], root: Path, timeout: float) -> tuple[str, str]:
    env = dict(os.environ, PYTHONPATH=str(root), PYTHONDONTWRITEBYTECODE="1")
    proc = subprocess.Popen(argv, cwd=root, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        _, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return "timeout", f"timed out after {timeout:.0f} s"
    lines = [ln for ln in (err or "").splitlines() if ln.strip()]
    tail = lines[-1][:200] if lines else ""
    if proc.returncode < 0:
        return "crash", f"killed by signal {-proc.returncode}: {tail}"
    return ("ok" if proc.returncode == 0 else "crash"), tail


def _judge(mutant: Mutant, kernels: list[str], status: str, tail: str,
           doc: dict | None, seconds: float) -> Outcome:
    def outcome(caught: bool, reason: str, error: bool = False, laws=()) -> Outcome:
        return Outcome(mutant.id, mutant.cls, caught, reason, seconds, tuple(kernels),
                       tuple(laws), error)
    if doc and doc.get("setup_error"):
        return outcome(False, doc["setup_error"], error=True)
    if status == "timeout":
        return outcome(True, tail)
    if doc is None:
        return outcome(True, f"child died before a report: {tail}")
    if not kernels and not doc.get("laws"):
        return outcome(False, "nothing imports the edited file", error=True)
    failures = [f"{k}: {c['reason']}" for k, c in doc["kernels"].items() if not c["pass"]]
    failures += [f"law {lid}: {r['reason']}" for lid, r in doc["laws"].items() if not r["ok"]]
    laws = tuple(doc["laws"])
    if failures:
        return outcome(True, "; ".join(failures), laws=laws)
    if status == "crash":
        return outcome(True, f"child crashed: {tail}", laws=laws)
    worst = max((c.get("rho") or 0.0 for c in doc["kernels"].values()), default=0.0)
    return outcome(False, f"certified (max rho {worst:.3g})", laws=laws)
