"""Every z3 query of a proof as an SMT-LIB2 file, so a second solver can re-check it.

``Dump(dir, law, instance)`` names the files ``<law id>[.<instance>].<n>.smt2`` in
``dir``; each starts with a comment header (law, instance, what the query asks, z3's
answer, the assumptions the proof states) and holds the assertions and ``(check-sat)``.
``verify.decide.recheck`` runs cvc5 on such a directory. A file that cannot be written
(a directory in its way, a dangling link for a directory, a full disk) is a
``QueryFileWarning`` and no file, never a changed verdict; concurrent runs writing to
one directory each write whole files under temporary names of their own.
"""
from __future__ import annotations

import contextlib
import errno
import os
import re
import tempfile
import warnings
from typing import Any, Mapping

import z3

from laws.core import Law


def _instance_tag(instance: Mapping[str, Any]) -> str:
    text = ",".join(f"{k}={v}" for k, v in instance.items())
    return re.sub(r"[^A-Za-z0-9_=,.-]", "_", text)


class Dump:
    """Writes the queries of one proof attempt (nothing when ``directory`` is None)."""

    def __init__(self, directory: str | None, law: Law, instance: Mapping[str, Any]) -> None:
        self.directory = directory
        self.law = law
        self.instance = dict(instance)
        self.count = 0

    def write(self, solver: z3.Solver, asks: str, answer: Any, assumptions: list[str]) -> None:
        if self.directory is None:
            return
        self.count += 1
        tag = _instance_tag(self.instance)
        name = f"{self.law.id}{'.' + tag if tag else ''}.{self.count}.smt2"
        header = [f"law: {self.law.id}", f"statement: {self.law.statement}",
                  f"instance: {self.instance or '-'}", f"query: {asks}",
                  f"z3: {answer}"] + [f"assumption: {a}" for a in assumptions]
        body = solver.to_smt2()
        text = "".join(f"; {' '.join(line.split())}\n" for line in header)
        try:
            write_text(self.directory, name, text + "(set-logic ALL)\n" + _without_logic(body))
        except OSError as exc:  # a query file is a by-product: it never changes a verdict
            _warn_once(self.directory, name, exc)


class QueryFileWarning(UserWarning):
    """A query file could not be written; the verdict it belongs to is unaffected."""


_WARNED: set[str] = set()


def _warn_once(directory: str, name: str, exc: OSError) -> None:
    if directory in _WARNED:
        return
    _WARNED.add(directory)
    reason = exc.strerror or type(exc).__name__
    warnings.warn(QueryFileWarning(
        f"--smt {directory}: {name} (and any later query file there that fails) not "
        f"written: {reason}; the verdicts are unaffected"), stacklevel=3)


def write_text(directory: str, name: str, text: str) -> str:
    """Write ``directory/name`` through a temporary file of a name of its own in the same
    directory and a rename, so that concurrent writers never share a temporary name and
    a reader never sees half a file. ``OSError`` when the directory cannot be made, a
    directory stands at the file's place, or the disk is full; nothing is left behind."""
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, name)
    if os.path.isdir(path):
        raise IsADirectoryError(errno.EISDIR, "a directory is in the way", path)
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{name}.", suffix=".tmp")
    try:
        os.fchmod(fd, 0o644)  # mkstemp's 0600 would hide the file from a second user
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return path


def _without_logic(body: str) -> str:
    return "\n".join(line for line in body.splitlines()
                     if not line.startswith("(set-logic")) + "\n"


def z3_answer(path: str) -> str | None:
    """The answer z3 gave, from a query file's header."""
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.startswith(";"):
                break
            if line.startswith("; z3: "):
                return line[len("; z3: "):].strip()
    return None
