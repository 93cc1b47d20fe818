"""The searcher: hypothesis draws values from each variable's domain, the mpmath oracle
compares both sides. It gives ``tested`` (with the number of cases) or a confirmed,
shrunk ``refuted``; it never gives a proof."""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Mapping

from hypothesis import HealthCheck, Phase, assume, given, settings
from hypothesis.errors import Flaky, Unsatisfiable
from hypothesis import strategies as st

from laws.core import Law, Var
from verify.decide import oracle as oracle_module
from verify.decide.jit_raise import raised_in_jit
from verify.decide.limits import PointTimeLimit, TimeLimit, one_line, time_limit
from verify.engine import domains
from verify.engine.shapes import shape_like
from verify.results import Verdict

DEFAULT_CASES = 200


def _scalar(domain: str) -> st.SearchStrategy:
    return domains.get(domain).strategy()


def strategy(var: Var) -> st.SearchStrategy:
    comps = [_scalar(d) for d in var.component_domains()]
    return st.tuples(*comps).map(lambda cs: shape_like(var, list(cs)))


@dataclass
class Search:
    status: Verdict                  # TESTED, REFUTED or UNKNOWN
    cases: int = 0                   # cases that met the preconditions and were compared
    values: list[Any] | None = None  # the shrunk counterexample
    reason: str = ""
    seconds: float = 0.0
    unmodelled: str = ""             # a word no reading models, met by the first case


class _Found(Exception):
    pass


MAX_HUNG = 3  # cases that did not finish before the search stops looking


class _Hung(ValueError):
    """A generated case the function did not finish (or one after ``MAX_HUNG`` such
    cases, not evaluated): it decides nothing, like a point where the function raises."""


class _Watched:
    """The oracle as the search's ``probe`` sees it: the cases it draws are kept (to say
    why none was evaluated) and one the function does not finish at raises ``_Hung``,
    which ``probe`` treats as undefined; after ``MAX_HUNG`` of them no case is evaluated
    (each could cost the per-point limit again). A stand-in rather than code in
    ``probe``: hypothesis derives its derandomized seed from ``probe``'s source, so the
    cases it draws stay the same."""

    def __init__(self, hung: list[str], drawn: list[list[Any]]) -> None:
        self.hung, self.drawn = hung, drawn

    def __getattr__(self, name: str) -> Any:
        return getattr(oracle_module, name)

    def _watched(self, fn, *args, **kwargs):
        if len(self.hung) >= MAX_HUNG:
            raise _Hung("the search stopped looking")
        try:
            return fn(*args, **kwargs)
        except PointTimeLimit as exc:
            self.hung.append(one_line(exc))
            raise _Hung(one_line(exc)) from None

    def preconditions_hold(self, law: Law, values: list[Any], *args, **kwargs) -> bool:
        self.drawn.append(values)
        return self._watched(oracle_module.preconditions_hold, law, values, *args, **kwargs)

    def gap(self, *args, **kwargs) -> Any:
        return self._watched(oracle_module.gap, *args, **kwargs)


def _why_none(law: Law, drawn: list[list[Any]], instance: Mapping[str, Any]
              ) -> tuple[str, str]:
    """Why the first generated case was no case: the exception its sides raise (a word
    no reading models, an operation defined on ints only), or nothing to add; and the
    word no reading models, if that was it."""
    if not drawn:
        return "", ""
    try:
        with time_limit(WHY_SECONDS):
            oracle_module.gap(law, drawn[0], instance)
    except (Exception, TimeLimit) as exc:
        return (f" (at the first, evaluating the sides raised {type(exc).__name__}: "
                f"{one_line(exc)})", getattr(exc, "word", ""))
    return "", ""


WHY_SECONDS = 5.0


def search(law: Law, instance: Mapping[str, Any] = {}, max_examples: int = DEFAULT_CASES,
           seed: int = 0) -> Search:
    """Look for inputs where the sides differ; hypothesis shrinks what it finds."""
    t0 = time.perf_counter()
    vars_ = law.vars_for(instance)
    compared = 0
    found: list[list[Any]] = []
    jit_raised: list[str] = []
    hung: list[str] = []
    drawn: list[list[Any]] = []
    oracle = _Watched(hung, drawn)

    @settings(max_examples=max_examples, database=None, deadline=None, derandomize=True,
              suppress_health_check=list(HealthCheck), report_multiple_bugs=False,
              phases=[Phase.explicit, Phase.generate, Phase.shrink])
    @given(st.tuples(*[strategy(v) for v in vars_]))
    def probe(values):
        nonlocal compared
        values = list(values)
        try:
            # outside the preconditions: not a case (hypothesis draws another in its
            # place, so a law with a narrow domain is still compared on max_examples
            # points; assume's own exception is none of those caught below)
            assume(oracle.preconditions_hold(law, values, instance, jit_raises=True))
            found_gap = oracle.gap(law, values, instance)
        except (ZeroDivisionError, ValueError, OverflowError, TypeError) as exc:
            if raised_in_jit(exc):  # Triton gives ±∞ or NaN there; Python raised
                jit_raised.append(f"{type(exc).__name__}: {exc}")
            return  # undefined there (TypeError: a complex value)
        # a branch went by rounding there: the point decides nothing; draw another
        assume(not found_gap.undecided)
        compared += 1
        if found_gap.differs:
            found.append(values)
            raise _Found()

    try:
        probe()
    except Unsatisfiable:
        pass  # no generated case met the preconditions: compared is 0
    except _Found:
        values = oracle.shrink(law, found[-1], instance)
        return Search(Verdict.REFUTED, compared, values, seconds=time.perf_counter() - t0)
    except Flaky:
        # hypothesis re-ran a point and the oracle decided it differently (a point near
        # the precision cap can be decided on one run and not the next): a difference
        # seen once is still a candidate, and every refutation is replayed independently
        # before it is shown; without one, nothing was decided
        if found:
            values = oracle.shrink(law, found[-1], instance)
            return Search(Verdict.REFUTED, compared, values, seconds=time.perf_counter() - t0)
        return Search(Verdict.UNKNOWN, compared, seconds=time.perf_counter() - t0,
                      reason="the oracle decided a generated point differently when it "
                             "was run again")
    if len(hung) >= MAX_HUNG:
        return Search(Verdict.UNKNOWN, compared, seconds=time.perf_counter() - t0,
                      reason=f"the search stopped after {MAX_HUNG} generated cases that did "
                             f"not finish ({compared} compared before): the function "
                             f"{hung[0]}")
    if compared == 0:
        if hung:
            return Search(Verdict.UNKNOWN, 0, reason=f"the function {hung[0]}",
                          seconds=time.perf_counter() - t0)
        why, word = _why_none(law, drawn, instance)
        return Search(Verdict.UNKNOWN, 0, reason="no generated case met the preconditions"
                      + why, seconds=time.perf_counter() - t0, unmodelled=word)
    if jit_raised:
        return Search(Verdict.UNKNOWN, compared, seconds=time.perf_counter() - t0,
                      reason=f"{len(jit_raised)} generated case(s) raised inside a "
                             f"@triton.jit function ({jit_raised[0]}), where Triton computes "
                             "±∞ or NaN instead: the oracle cannot evaluate those points")
    return Search(Verdict.TESTED, compared, seconds=time.perf_counter() - t0,
                  reason=f"{len(hung)} generated case(s) decided nothing: the function "
                         f"{hung[0]}" if hung else "")
