"""Every z3 query of a proof as an SMT-LIB2 file, so a second solver can re-check it.

``Dump(dir, law, instance)`` names the files ``<law id>[.<instance>].<n>.smt2`` in
``dir``; each starts with a comment header (law, instance, what the query asks, z3's
answer, the assumptions the proof states) and holds the assertions and ``(check-sat)``.
``verify.decide.recheck`` runs cvc5 on such a directory.
"""
from __future__ import annotations

import os
import re
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
        os.makedirs(self.directory, exist_ok=True)
        self.count += 1
        tag = _instance_tag(self.instance)
        name = f"{self.law.id}{'.' + tag if tag else ''}.{self.count}.smt2"
        header = [f"law: {self.law.id}", f"statement: {self.law.statement}",
                  f"instance: {self.instance or '-'}", f"query: {asks}",
                  f"z3: {answer}"] + [f"assumption: {a}" for a in assumptions]
        body = solver.to_smt2()
        text = "".join(f"; {' '.join(line.split())}\n" for line in header)
        path = os.path.join(self.directory, name)
        with open(path + ".tmp", "w", encoding="utf-8") as f:
            f.write(text + "(set-logic ALL)\n" + _without_logic(body))
        os.replace(path + ".tmp", path)


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
