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
from verify.decide import oracle
from verify.decide.jit_raise import raised_in_jit
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


class _Found(Exception):
    pass


def search(law: Law, instance: Mapping[str, Any] = {}, max_examples: int = DEFAULT_CASES,
           seed: int = 0) -> Search:
    """Look for inputs where the sides differ; hypothesis shrinks what it finds."""
    t0 = time.perf_counter()
    vars_ = law.vars_for(instance)
    compared = 0
    found: list[list[Any]] = []
    jit_raised: list[str] = []

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
    if compared == 0:
        return Search(Verdict.UNKNOWN, 0, reason="no generated case met the preconditions",
                      seconds=time.perf_counter() - t0)
    if jit_raised:
        return Search(Verdict.UNKNOWN, compared, seconds=time.perf_counter() - t0,
                      reason=f"{len(jit_raised)} generated case(s) raised inside a "
                             f"@triton.jit function ({jit_raised[0]}), where Triton computes "
                             "±∞ or NaN instead: the oracle cannot evaluate those points")
    return Search(Verdict.TESTED, compared, seconds=time.perf_counter() - t0)
