"""Claim kinds: each claim states its numbers, and its check computes a verdict with
evidence from them.

Verdicts (exact strings): ``confirmed``; ``refuted`` (the evidence is a minimal,
replayable case); ``conditional`` (holds under an assumption the evidence states);
``needs-gpu`` (a measurement that only a GPU can make; never guessed); ``not-checkable``
(the evidence says why). The first line of the evidence is the one-line reason.

Kinds: ``law`` (decided by the law catalog), ``worked-example`` (a computation or a
counterexample the text walks through, evaluated as written), ``arithmetic`` (a formula
evaluated with the text's own numbers), ``data-movement`` (the two-level I/O model of
``papers.iomodel``), ``numerical`` (two evaluations compared against a rounding bound)
and ``speedup`` (measured on a GPU against the stated baseline).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, ClassVar, Mapping

CONFIRMED = "confirmed"
REFUTED = "refuted"
CONDITIONAL = "conditional"
NEEDS_GPU = "needs-gpu"
NOT_CHECKABLE = "not-checkable"
VERDICTS = (CONFIRMED, REFUTED, CONDITIONAL, NEEDS_GPU, NOT_CHECKABLE)

KINDS = ("law", "worked-example", "arithmetic", "data-movement", "numerical", "speedup")

LawVerdict = Callable[[str], Mapping]


@dataclass(frozen=True)
class Outcome:
    """A verdict and its evidence (first line: the reason; the rest: what to replay)."""

    verdict: str
    evidence: str

    def __post_init__(self):
        if self.verdict not in VERDICTS:
            raise ValueError(f"unknown verdict {self.verdict!r}; expected one of {VERDICTS}")
        if not self.evidence.strip():
            raise ValueError("a verdict needs evidence")

    @property
    def reason(self) -> str:
        return self.evidence.strip().splitlines()[0]


def outcome(verdict: str, *lines: str) -> Outcome:
    """An Outcome from evidence lines (empty lines dropped)."""
    return Outcome(verdict, "\n".join(line for line in lines if line))


# --------------------------------------------------------------------------- law claims
_STRONG = ("proved", "refuted")          # an unbounded proof, or a replayed counterexample
_WEAK = ("proved-bounded", "tested", "statistical")  # bounded, tested or a statistical test
_UNDECIDED = ("unknown", "error", "missing", None)


@dataclass(frozen=True)
class Claim:
    """A claim decided by the law catalog: it holds when every law it names agrees with
    its expectation (a law expected to fail must be refuted)."""

    text: str                  # the claim, in the project's words
    laws: tuple[str, ...]      # law ids whose verdicts decide it
    where: str = ""            # where the text makes it (section, table, line)
    kind: ClassVar[str] = "law"

    def check(self, law_verdict: LawVerdict | None = None) -> Outcome:
        if law_verdict is None:
            return outcome(NOT_CHECKABLE,
                           "the law catalog was not consulted (no law_verdict given); "
                           f"laws: {', '.join(self.laws)}")
        results = {law: _law_result(law_verdict, law) for law in self.laws}
        undecided = {k: r for k, r in results.items() if r.get("verdict") in _UNDECIDED}
        if undecided:
            return outcome(NOT_CHECKABLE, "no decision for " + "; ".join(
                f"{k} ({r.get('verdict') or 'no verdict'}"
                + (f": {r['reason']}" if r.get("reason") else "") + ")"
                for k, r in undecided.items()))
        wrong = {k: r for k, r in results.items() if not r.get("ok")}
        if wrong:
            return outcome(REFUTED, "law disagrees with its expectation: " + "; ".join(
                f"{k} is {r['verdict']} (expected to {r.get('expect', 'agree')})"
                for k, r in wrong.items()),
                *(_counterexample_line(k, r) for k, r in wrong.items()))
        weak = {k: r for k, r in results.items() if r.get("verdict") in _WEAK}
        details = [_counterexample_line(k, r) for k, r in results.items()
                   if r.get("verdict") == "refuted"]
        if weak:
            return outcome(CONDITIONAL, "holds under a limit the check states: " + "; ".join(
                f"{k} {_weak_scope(r)}" for k, r in weak.items()),
                _summary(results), *details)
        return outcome(CONFIRMED, _summary(results), *details)


def _law_result(law_verdict: LawVerdict, law: str) -> Mapping:
    try:
        result = law_verdict(law)
    except KeyError:
        return {"verdict": "missing", "ok": False, "reason": "no such law"}
    return result if result is not None else {"verdict": "missing", "ok": False}


def _summary(results: Mapping[str, Mapping]) -> str:
    return "; ".join(f"{k}: {r['verdict']}"
                     + (" (an anti-law, refuted as expected)" if r["verdict"] == "refuted"
                        else "") for k, r in results.items())


def _weak_scope(result: Mapping) -> str:
    if result.get("verdict") == "proved-bounded":
        return f"proved only for {result.get('bound') or 'a stated bound'}"
    if result.get("verdict") == "statistical":
        return f"holds statistically, not proved ({result.get('reason') or ''})"
    cases = result.get("cases")
    return f"tested on {cases if cases is not None else 'some'} cases, not proved"


def _counterexample_line(law: str, result: Mapping) -> str:
    cx = result.get("counterexample")
    if not cx:
        return ""
    bindings = ", ".join(f"{k} = {v}" for k, v in (cx.get("bindings") or {}).items())
    return f"  {law}: at {bindings}: lhs = {cx.get('lhs')}, rhs = {cx.get('rhs')}"


# --------------------------------------------------------------------------- computed claims
@dataclass(frozen=True)
class Computed:
    """A claim whose check is a computation over the numbers the claim states."""

    text: str
    where: str
    run: Callable[[], Outcome] = field(repr=False)
    related: tuple[str, ...] = ()  # laws the claim rests on (for ``explain``; not checked)
    kind: ClassVar[str] = ""
    laws: ClassVar[tuple[str, ...]] = ()  # no law decides it (read by verify/commands.py)

    def check(self, law_verdict: LawVerdict | None = None) -> Outcome:
        return self.run()


class WorkedExample(Computed):
    kind: ClassVar[str] = "worked-example"


class Arithmetic(Computed):
    kind: ClassVar[str] = "arithmetic"


class DataMovement(Computed):
    kind: ClassVar[str] = "data-movement"


class Numerical(Computed):
    kind: ClassVar[str] = "numerical"


@dataclass(frozen=True)
class NotCheckable:
    """A quantitative statement no computation here can decide; ``why`` says so."""

    text: str
    where: str
    why: str
    kind: str = "arithmetic"
    related: tuple[str, ...] = ()
    laws: ClassVar[tuple[str, ...]] = ()

    def check(self, law_verdict: LawVerdict | None = None) -> Outcome:
        return outcome(NOT_CHECKABLE, self.why)


# --------------------------------------------------------------------------- formulas
def matches(value: float, stated: float | tuple[float, float], rel_tol: float) -> bool:
    """``value`` agrees with a stated figure (or lies in a stated range) to ``rel_tol``,
    the precision the text's rounding implies."""
    lo, hi = stated if isinstance(stated, tuple) else (stated, stated)
    return lo * (1 - rel_tol) - 1e-300 <= value <= hi * (1 + rel_tol) + 1e-300


def show(value: float) -> str:
    """A number as a reader checks it: integers exactly, others to 4 significant digits."""
    if isinstance(value, int) or (float(value).is_integer() and abs(value) < 1e16):
        return f"{int(value):,}"
    return f"{value:.4g}"


def arithmetic(text: str, where: str, *, expr: str, inputs: Mapping[str, float],
               formula: Callable[..., float], stated: float | tuple[float, float],
               rel_tol: float, assumption: str = "", related: tuple[str, ...] = ()
               ) -> Arithmetic:
    """A formula evaluated with the text's numbers and compared with its stated result:
    confirmed (``conditional`` when the claim needs ``assumption``) or refuted."""

    def run() -> Outcome:
        value = formula(**inputs)
        given = ", ".join(f"{k} = {show(v)}" for k, v in inputs.items())
        target = (f"{show(stated[0])}–{show(stated[1])}" if isinstance(stated, tuple)
                  else show(stated))
        line = f"{expr} = {show(value)} with {given}; the text states {target}"
        if not matches(value, stated, rel_tol):
            return outcome(REFUTED, f"{line} (off by more than {rel_tol:.0%})")
        if assumption:
            return outcome(CONDITIONAL, f"{line}, assuming {assumption}")
        return outcome(CONFIRMED, line)

    return Arithmetic(text, where, run, related)


def ratio_str(a: float, b: float) -> str:
    return f"{a / b:.3g}×" if b else "∞"


def log2(x: float) -> float:
    return math.log2(x)
