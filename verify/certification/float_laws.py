"""Float laws with derived bounds: "holds within its derived bound, worst ρ seen = …".

A law ``lhs ≡ rhs`` that holds exactly over ℝ rarely holds bit-exactly in a float
format (float addition is not associative). What does hold, when the law is true over
ℝ: each side evaluated in the format is within its own error radius of the common exact
value, so

    |lhs_float − rhs_float| ≤ radius_lhs + radius_rhs,   i.e.   ρ ≤ 1 with
    ρ = |lhs_float − rhs_float| / (radius_lhs + radius_rhs).

Each side runs twice on the same inputs (exactly representable in the format): in the
format through the torch interpretation of ``verify.engine.interp`` (the law's own code,
rebound), and on balls through the radius interpretation (``radius.py``: running error
analysis, componentwise rigorous radius at the format's unit roundoff under the
backend's ulp model). Hypothesis searches for the worst ρ with ``hypothesis.target(ρ)``;
a ρ > 1 is a counterexample, replayed alone and reported with the bindings, both
sides and both radii.

Verdicts (``verify.results.Verdict`` values): ``tested`` (every example within its
bound; a test, not a proof), ``refuted`` (ρ > 1, replayed), ``unknown`` (the radius
interpretation cannot run a side — an operation with no derived bound, a Python branch
on a value — or the law is an approximation over ℝ, or no example met the
preconditions, or no example had a finite bound). Never a pass without evidence.

Not covered: laws whose sides differ over ℝ by design (``exactness="bounded"``); sides
over vectors or matrices that use numpy/torch reductions (no derived bound here:
``unknown``); examples where a value may overflow the format (no bound: counted as
``unbounded_examples``, not as passes).
"""
from __future__ import annotations

import math
from typing import Any, Callable, Mapping

import hypothesis
import hypothesis.strategies as st
import torch
from hypothesis import HealthCheck, Phase, settings

from laws import REGISTRY
from laws.core import BOUNDED, FAILS, FREE_MONOID, Law, Var
from verify.certification import radius
from impls.numerics import format_name
from verify.certification.bounds import ball_interpretation
from verify.decide.floats import seeds as float_seeds
from verify.certification.radius import Ball, Decision
from verify.engine.arraywords import make_torch
from verify.engine.interp import Unsupported
from verify.engine.shapes import component_names, flatten, shape_like
from verify.errors import BadInput
from verify.results import Result, Verdict, agrees

TORCH = make_torch()
RHO_CAP = 1e12          # hypothesis.target needs a finite score
# Failures of an interpretation that mean "cannot evaluate this side", not a crash.
CANNOT_BOUND = (Unsupported, NotImplementedError, TypeError)


class CannotRun(Exception):
    """A side cannot be evaluated in the format or on balls; the verdict is unknown."""


# --------------------------------------------------------------------------- interpretation
RADIUS = ball_interpretation()


# --------------------------------------------------------------------------- one example
def _component(value: float, dtype: torch.dtype) -> torch.Tensor:
    return torch.tensor([value], dtype=torch.float64).to(dtype)


def _arranged(vars_: tuple[Var, ...], comps: list[float], make: Callable) -> list[Any]:
    out, k = [], 0
    for v in vars_:
        size = len(v.component_domains())
        out.append(shape_like(v, [make(c) for c in comps[k:k + size]]))
        k += size
    return out


def _float_side(fn: Callable, vars_, comps, dtype, instance) -> list[torch.Tensor]:
    """The side in the format (torch interpretation), each component as float64."""
    with torch.no_grad():
        out = TORCH.rebind(fn)(*_arranged(vars_, comps, lambda c: _component(c, dtype)),
                               **instance)
    return [torch.as_tensor(c).to(dtype).to(torch.float64).reshape(1) for c in flatten(out)]


def _ball_side(fn: Callable, vars_, comps, instance) -> list[Ball]:
    """The side on balls under the active model; inputs exact (representable in the
    format)."""
    def exact(c: float) -> Ball:
        v = torch.tensor([c], dtype=torch.float64)
        return Ball(v, torch.zeros_like(v))
    parts = flatten(RADIUS.rebind(fn)(*_arranged(vars_, comps, exact), **instance))
    if any(isinstance(p, (Decision, bool)) for p in parts):
        raise TypeError("a side returns a comparison, not a value")
    return [radius.lift(p).reshape(1) for p in parts]


def _meets_pre(law: Law, vars_, comps, instance) -> bool:
    if law.pre is None:
        return True
    with torch.no_grad():
        conds = TORCH.rebind(law.pre)(
            *_arranged(vars_, comps, lambda c: _component(c, torch.float64)), **instance)
    return all(bool(torch.as_tensor(c).all()) for c in flatten(conds))


def _rho(lf: torch.Tensor, rf: torch.Tensor, lb: Ball, rb: Ball) -> float | None:
    """ρ of one component; None where the radii give no bound (overflow reachable)."""
    a, b = float(lf), float(rf)
    if a == b or (math.isnan(a) and math.isnan(b)):
        return 0.0
    denom = float(lb.r[0]) + float(rb.r[0])
    if not math.isfinite(denom):
        return None
    if not (math.isfinite(a) and math.isfinite(b)):
        return math.inf
    return abs(a - b) / denom if denom > 0 else math.inf


def evaluate_example(law: Law, comps: list[float], fmt: str, model: radius.Model,
                     instance: Mapping[str, Any]) -> dict:
    """Both sides of ``law`` at one example, in the format and on balls, and ρ.

    ``comps``: the scalar components of all variables, representable in ``fmt``.
    Raises ``CannotRun`` when a side cannot be evaluated in the format or on balls."""
    dtype = getattr(torch, fmt)
    vars_ = law.vars_for(instance)
    try:
        lf = _float_side(law.lhs, vars_, comps, dtype, instance)
        rf = _float_side(law.rhs, vars_, comps, dtype, instance)
    except (*CANNOT_BOUND, RuntimeError) as exc:
        raise CannotRun(f"a side cannot run in {fmt}: {type(exc).__name__}: {exc}") from exc
    try:
        with radius.using(model) as flags:
            lb = _ball_side(law.lhs, vars_, comps, instance)
            rb = _ball_side(law.rhs, vars_, comps, instance)
            raised = list(flags)
    except CANNOT_BOUND as exc:
        raise CannotRun(f"the radius interpretation cannot run a side: "
                        f"{type(exc).__name__}: {exc}") from exc
    if len(lf) != len(lb) or len(rf) != len(rb) or len(lf) != len(rf):
        raise CannotRun("the sides have different numbers of components")
    rhos = [_rho(a, b, la, ra) for a, b, la, ra in zip(lf, rf, lb, rb)]
    bounded = [r for r in rhos if r is not None]
    return {"rho": max(bounded) if len(bounded) == len(rhos) else None,
            "exact": all(float(a) == float(b) for a, b in zip(lf, rf)),
            "lhs": [float(x) for x in lf], "rhs": [float(x) for x in rf],
            "radius_lhs": [float(b.r[0]) for b in lb], "radius_rhs": [float(b.r[0]) for b in rb],
            "flags": raised}


# --------------------------------------------------------------------------- inputs
def _limit(fmt: str) -> float:
    """Largest |input|: the cube of it stays below the format's overflow threshold."""
    top = float(torch.finfo(getattr(torch, fmt)).max)
    return 2.0 ** math.floor(math.log2(top) / 3)


def _scalar(domain: str, fmt: str) -> st.SearchStrategy[float]:
    width = 16 if fmt == "float16" else (64 if fmt == "float64" else 32)
    big = _limit(fmt)
    floats = lambda lo, hi: st.floats(lo, hi, width=width, allow_nan=False,  # noqa: E731
                                      allow_infinity=False)
    by_domain = {
        "real": st.one_of(floats(-big, big), st.integers(-8, 8).map(float), floats(-1.0, 1.0)),
        "positive": floats(0.0, big).filter(lambda x: x > 0),
        "nonneg": floats(0.0, big),
        "integer": st.integers(-1000, 1000).map(float),
        "natural": st.integers(0, 1000).map(float),
        "unit": floats(0.0, 1.0),
        "small": st.integers(0, 3).map(float),
    }
    return by_domain[domain]


@st.composite
def examples(draw, vars_: tuple[Var, ...], fmt: str) -> list[float]:
    """Scalar components for ``vars_``, each representable in ``fmt``; in half of the
    draws every real component shares one large offset plus small noise (cancellation)."""
    domains = [d for v in vars_ for d in v.component_domains()]
    comps = [draw(_scalar(d, fmt)) for d in domains]
    if draw(st.booleans()):
        offset = draw(st.floats(-_limit(fmt), _limit(fmt), allow_nan=False))
        comps = [offset + draw(st.floats(-1.0, 1.0)) if d == "real" else c
                 for c, d in zip(comps, domains)]
    dtype = getattr(torch, fmt)
    return [float(torch.tensor(c, dtype=torch.float64).to(dtype)) for c in comps]


# --------------------------------------------------------------------------- the search
class FloatLawBound(Result):
    """A law's float verdict against its derived bound (see the module docstring)."""

    @property
    def verdict(self) -> Verdict:
        return Verdict(self._doc["verdict"])

    @property
    def worst_rho(self) -> float | None:
        return self._doc.get("worst_rho")

    def summary(self) -> str:
        return self._doc["statement"]


def _lookup(law_or_id: Law | str) -> Law:
    if isinstance(law_or_id, Law):
        return law_or_id
    if law_or_id not in REGISTRY:
        raise BadInput(f"unknown law {law_or_id!r} (see `verify list`)")
    return REGISTRY[law_or_id]


def _search(law: Law, fmt: str, model: radius.Model, instance: Mapping[str, Any],
            max_examples: int) -> dict:
    """Hypothesis search for the worst ρ (``target``); records the worst example, the
    first reason the radius interpretation gave up, and counts."""
    state = {"worst": None, "examples": 0, "unbounded": 0, "inexact": 0, "cannot": None,
             "flags": []}
    vars_ = law.vars_for(instance)

    @settings(max_examples=max_examples, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck), print_blob=False,
              phases=(Phase.explicit, Phase.generate, Phase.target))
    @hypothesis.given(examples(vars_, fmt))
    def probe(comps):
        if state["cannot"] is not None or not _meets_pre(law, vars_, comps, instance):
            return
        try:
            seen = evaluate_example(law, comps, fmt, model, instance)
        except CannotRun as exc:
            state["cannot"] = str(exc)
            return
        state["flags"] = sorted(set(state["flags"]) | set(seen["flags"]))
        if seen["rho"] is None:
            state["unbounded"] += 1
            return
        state["examples"] += 1
        state["inexact"] += not seen["exact"]
        hypothesis.target(min(seen["rho"], RHO_CAP), label="rho")
        if state["worst"] is None or seen["rho"] > state["worst"][1]["rho"]:
            state["worst"] = (list(comps), seen)

    # seeded with the catalog's float counterexample in this format and near-overflow
    # inputs (verify.decide.floats.seeds), tried before any generated example
    for comps in float_seeds(law, fmt, instance):
        probe = hypothesis.example(comps)(probe)
    probe()
    return state


def _bindings(law: Law, comps: list[float], instance) -> dict:
    names = [n for v in law.vars_for(instance) for n in component_names(v)]
    return dict(zip(names, comps))


def _replayed(law, comps, fmt, model, instance) -> dict | None:
    """The worst example evaluated again alone; None when it no longer exceeds."""
    seen = evaluate_example(law, comps, fmt, model, instance)
    if seen["rho"] is None or seen["rho"] <= 1:
        return None
    return {"bindings": _bindings(law, comps, instance), "rho": seen["rho"],
            "lhs": seen["lhs"], "rhs": seen["rhs"], "radius_lhs": seen["radius_lhs"],
            "radius_rhs": seen["radius_rhs"], "instance": dict(instance)}


def check_float_law(law_or_id: Law | str, fmt: str = "float32", max_examples: int = 200,
                    backend: str = "host", instance: Mapping[str, Any] | None = None
                    ) -> FloatLawBound:
    """Search ``law`` in ``fmt`` for the worst ρ against its derived bound.

    ``backend``: whose elementary-function ulps the radii assume ("host": torch on the
    CPU, which runs the format here). ``instance``: one of the law's size parameters
    (default: each of ``law.instances``, ``max_examples`` each)."""
    law = _lookup(law_or_id)
    fmt = format_name(fmt)
    model = radius.model_for(backend, fmt)
    doc = {"id": law.id, "format": fmt, "backend": backend, "expect": law.expect,
           "model": model.assumptions(), "worst_rho": None, "counterexample": None}
    if law.method == FREE_MONOID:
        return _unknown(doc, "a free-monoid law: its sides are algorithm shapes over an "
                             "abstract combine, not computations in a float format")
    if law.exactness == BOUNDED:
        return _unknown(doc, "the law is an approximation over ℝ (exactness 'bounded'); "
                             "its float bound would need the approximation's bound too")
    instances = [dict(instance)] if instance is not None else [dict(i) for i in law.instances]
    totals = {"examples": 0, "unbounded_examples": 0, "inexact_examples": 0}
    flags: list[str] = []
    for inst in instances:
        state = _search(law, fmt, model, inst, max_examples)
        if state["cannot"] is not None:
            return _unknown(doc, state["cannot"])
        totals["examples"] += state["examples"]
        totals["unbounded_examples"] += state["unbounded"]
        totals["inexact_examples"] += state["inexact"]
        flags = sorted(set(flags) | set(state["flags"]))
        if state["worst"] is not None:
            comps, seen = state["worst"]
            if doc["worst_rho"] is None or seen["rho"] > doc["worst_rho"]:
                doc["worst_rho"] = seen["rho"]
                doc["worst"] = {"bindings": _bindings(law, comps, inst), **{
                    k: seen[k] for k in ("lhs", "rhs", "radius_lhs", "radius_rhs")}}
            if seen["rho"] > 1 and doc["counterexample"] is None:
                doc["counterexample"] = _replayed(law, comps, fmt, model, inst)
    doc.update(totals, flags=flags)
    return FloatLawBound(_conclude(doc))


def _unknown(doc: dict, reason: str) -> FloatLawBound:
    doc.update(verdict=Verdict.UNKNOWN.value, ok=False, reason=reason,
               statement=f"{doc['id']} in {doc['format']}: unknown ({reason})")
    return FloatLawBound(doc)


def _conclude(doc: dict) -> dict:
    head = f"{doc['id']} in {doc['format']}"
    if doc["examples"] == 0:
        reason = ("no example had a finite bound (overflow reachable)"
                  if doc["unbounded_examples"] else "no example met the preconditions")
        return _unknown(doc, reason).to_json()
    rho = doc["worst_rho"]
    if rho is not None and rho > 1 and doc["counterexample"] is None:
        return _unknown(doc, f"ρ = {rho:.3g} in the search did not replay alone").to_json()
    if rho is not None and rho > 1:
        verdict = Verdict.REFUTED
        statement = (f"{head}: exceeds its derived bound, ρ = {rho:.3g} at "
                     f"{doc['counterexample']['bindings']}")
    else:
        verdict = Verdict.TESTED
        exactness = ("bit-exact in every example" if doc["inexact_examples"] == 0 else
                     f"not exact: the sides differ in {doc['inexact_examples']} of "
                     f"{doc['examples']} examples")
        statement = (f"{head}: holds within its derived bound, worst ρ seen = {rho:.3g} "
                     f"over {doc['examples']} examples ({exactness})")
        if doc["expect"] == FAILS:
            statement += ("; the law is expected to fail over ℝ, so this only says no "
                          "example exposed it")
    doc.update(verdict=verdict.value, ok=agrees(doc["expect"], verdict), statement=statement)
    return doc


def assert_float_law(law_or_id: Law | str, fmt: str = "float32", max_examples: int = 200,
                     backend: str = "host") -> FloatLawBound:
    """For a user's pytest suite: passes (returns the result) only when ``law`` held
    within its derived bound in every example; raises AssertionError with the replayed
    counterexample (bindings, both sides, both radii) when ρ > 1, or with the reason
    when the verdict is unknown — an unknown is never a pass."""
    result = check_float_law(law_or_id, fmt, max_examples, backend)
    if result.verdict is Verdict.TESTED:
        return result
    detail = result.get("counterexample") or result.get("reason")
    raise AssertionError(f"{result.summary()}\n{detail}")
