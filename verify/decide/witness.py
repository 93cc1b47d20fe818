"""The independent check of a proof: run the original function where the proof speaks.

z3 proves a claim about an *encoding* of the function; an encoding can be wrong in ways
nobody foresaw. Before ``proved`` is reported, ``check`` evaluates the law's original
sides (not the encoding) on points of the declared domain:

- small integers and halves, medium values (7 to 100, where a branch that opens above
  a threshold shows) and a few large ones (where a stand-in for ±∞ or an
  overflow-prone form would show), drawn deterministically;
- the boundary of every branch condition the z3 run met (Python ``if`` forks, the
  conditions of ``where``/``max``/``min``/``abs``): a model of ``t₁ = t₂`` for each
  comparison ``t₁ ⋚ t₂``, inside the domain and the stated assumptions;
- a point on each path a path-by-path proof split the claim into (its conditions,
  inside the domain and the stated assumptions), when the caller gives the paths;
- every region the proof left out: a model of the negation of each stated assumption.
  A disagreement there is expected (that is why the assumption is stated) and is only
  recorded.

Each point is evaluated exactly with ``fractions.Fraction`` when both sides are
rational there, else with the mpmath oracle (two precisions, its noise rule, NaN
against a number is a difference). A disagreement at a point of the domain that meets
every stated assumption is a *confirmed* counterexample to the proof: the caller turns
the verdict into ``error``. Points where the function raises (x/0, a log of a negative
in ``math``) are undefined there and decide nothing.

What it does not cover: it is a finite sample, so it can miss a wrong encoding whose
error avoids every point drawn; it never upgrades anything to a proof.
"""
from __future__ import annotations

import random
import time
from fractions import Fraction
from typing import Any, Mapping

import mpmath
import z3

from laws.core import Law
from verify.decide import oracle, pyrun
from verify.decide.query import Query
from verify.engine import domains
from verify.engine.shapes import component_names, flatten, shape_like

GRID_POINTS = 24          # small integers and halves
BINADE_POINTS = 32        # doubles from subnormals to ±1e150, run by plain Python
BOUNDARY_QUERIES = 12     # branch conditions whose boundary is solved for
EXCLUDED_QUERIES = 6      # assumptions whose negation is solved for
PATH_QUERIES = 32         # paths of a path-by-path proof, one point each
QUERY_MS = 200            # one z3 model query
TIME_BUDGET = 3.0         # seconds for evaluating points (the queries stop earlier)
PLAIN_BUDGET = 2.0        # further seconds for the plain-Python runner

_LARGE = [2 ** 40, -(2 ** 40), Fraction(3, 2) * 2 ** 60, -(2 ** 62) - 1]
# between the two: a branch that only opens above a threshold (x > 5, x > 50) and
# changes the value by a unit, which at 2⁴⁰ is within the oracle's double-noise rule
_MEDIUM = [7, -7, 10, -10, 100, -100, Fraction(13, 2), -12]


def _allowed(domain: str) -> list[Any]:
    return domains.get(domain).grid()


def _grid(vars_, seed: int = 0) -> list[list[Any]]:
    doms = [d for v in vars_ for d in v.component_domains()]
    rng = random.Random(seed)
    rows = [[_allowed(d)[0] for d in doms], [_allowed(d)[1] for d in doms]]
    for _ in range(GRID_POINTS - 2):
        rows.append([rng.choice(_allowed(d)) for d in doms])
    for mid in _MEDIUM:
        rows.append([mid if d == "real" and k == 0 else
                     rng.choice(_MEDIUM) if d == "real" else rng.choice(_allowed(d))
                     for k, d in enumerate(doms)])
    for big in _LARGE:
        rows.append([big if d == "real" else rng.choice(_allowed(d)) for d in doms])
    return [_shaped(vars_, r) for r in rows]


def _binade_grid(vars_, seed: int = 1) -> list[list[Any]]:
    """Doubles over every binade each domain allows (subnormals to ±10¹⁵⁰): each
    magnitude in turn at each component, the others drawn from the same values."""
    doms = [d for v in vars_ for d in v.component_domains()]
    cands = [domains.get(d).binades() for d in doms]
    rng = random.Random(seed)
    rows = []
    for i in range(BINADE_POINTS):
        rows.append([c[(i + 3 * k) % len(c)] if k == i % len(doms) else rng.choice(c)
                     for k, c in enumerate(cands)])
    return [_shaped(vars_, r) for r in rows]


def _doubles(vars_, values: list[Any]) -> list[Any]:
    """The point at the nearest doubles (integer components stay integers)."""
    out = []
    for v, val in zip(vars_, values):
        comps = [x if isinstance(x, bool) or domains.get(d).integer else
                 Fraction(float(x)) for x, d in zip(flatten(val), v.component_domains())]
        out.append(shape_like(v, comps))
    return out


def _shaped(vars_, flat: list[Any]) -> list[Any]:
    out, k = [], 0
    for v in vars_:
        size = len(v.component_domains())
        out.append(shape_like(v, flat[k:k + size]))
        k += size
    return out


# ----------------------------------------------------------------------------- conditions
def _comparisons(ctx, terms: list) -> list[z3.BoolRef]:
    """Atomic comparisons among the forked conditions and the If conditions."""
    found: dict[int, z3.BoolRef] = {}
    seen: set[int] = set()
    stack = list(ctx.branch_conditions) + [t for t in terms if z3.is_expr(t)]
    cmp_kinds = (z3.Z3_OP_LE, z3.Z3_OP_LT, z3.Z3_OP_GE, z3.Z3_OP_GT, z3.Z3_OP_EQ,
                 z3.Z3_OP_DISTINCT)
    while stack:
        t = stack.pop()
        if t.get_id() in seen or not z3.is_app(t):
            continue
        seen.add(t.get_id())
        k = t.decl().kind()
        if k in cmp_kinds and t.num_args() == 2 and z3.is_arith(t.arg(0)):
            found.setdefault(t.get_id(), t)
        stack.extend(t.children())
    return list(found.values())


def _model_point(ctx, vars_, facts: list, extra: z3.BoolRef) -> list[Any] | None:
    query = Query([*facts, extra], QUERY_MS)
    if query.check() != z3.sat:
        return None
    flat = []
    for v, doms in ((v, v.component_domains()) for v in vars_):
        for name, dom in zip(component_names(v), doms):
            q = query.number(ctx.variables[name])
            if q is None:
                return None
            flat.append(int(q) if domains.get(dom).integer else q)
    return _shaped(vars_, flat)


# ----------------------------------------------------------------------------- evaluation
def _compare(law: Law, values, instance) -> tuple[str, bool, dict | None]:
    """("agree" | "differ" | "undefined", exact, detail). A point where the exact replay
    raises is undefined; an exact difference still goes through the oracle, which
    discards it when a branch went by rounding (a float computed inside the function)."""
    try:
        exact = oracle.exact_sides(law, values, instance)
        if exact is not None and all(a == b for a, b in zip(*exact)):
            return "agree", True, None
        g = oracle.gap(law, values, instance)
    except (ZeroDivisionError, ValueError, OverflowError, TypeError, AssertionError):
        return "undefined", False, None
    if g.undecided:
        return "undefined", False, None
    if g.differs:
        return "differ", g.exact, {"lhs": oracle.plain(g.lhs), "rhs": oracle.plain(g.rhs)}
    return "agree", g.exact, None


def _meets(ctx, vars_, base: list, conditions: list, values) -> bool:
    """Whether the point meets every stated assumption (z3 decides, with the encoding's
    facts for any fresh symbol in them); unknown counts as not met."""
    if not conditions:
        return True
    at = [ctx.variables[name] == z3.RealVal(Fraction(x)) if z3.is_real(ctx.variables[name])
          else ctx.variables[name] == int(x)
          for v, val in zip(vars_, values)
          for name, x in zip(component_names(v), flatten(val))]
    return Query([*base, *at, z3.Not(z3.And(*conditions))], 1000).check() == z3.unsat


# ----------------------------------------------------------------------------- the check
def check(law: Law, instance: Mapping[str, Any], ctx, vars_, facts: list,
          conditions: list, terms: list, regions: list = ()) -> dict:
    """Run the original sides on points of the domain; see the module docstring.
    ``facts``: the proof's facts (domain, preconditions, encoding, assumptions);
    ``conditions``: the stated assumptions among them; ``terms``: the encoded sides;
    ``regions``: the conditions of the paths a proof was split into."""
    t0 = time.perf_counter()
    cond_ids = {c.get_id() for c in conditions}
    base = [f for f in facts if f.get_id() not in cond_ids]
    points: list[tuple[str, list[Any]]] = [("grid", p) for p in _grid(vars_)]
    for cmp in _comparisons(ctx, terms)[:BOUNDARY_QUERIES]:
        p = _model_point(ctx, vars_, facts, cmp.arg(0) == cmp.arg(1))
        if p is not None:
            points.append(("boundary", p))
    for region in list(regions)[:PATH_QUERIES]:
        p = _model_point(ctx, vars_, facts, region)
        if p is not None:
            points.append(("path", p))
    for cond in conditions[:EXCLUDED_QUERIES]:
        p = _model_point(ctx, vars_, base, z3.Not(cond))
        if p is not None:
            points.append(("excluded", p))
    out = {"points": 0, "exact": True, "disagreement": None, "boundary": 0,
           "path": 0, "excluded": 0, "undefined": 0, "excluded_disagreements": 0}
    for kind, values in points:
        if time.perf_counter() - t0 > TIME_BUDGET:
            break
        if not oracle.preconditions_hold(law, values, instance):
            continue
        with mpmath.workprec(oracle.PREC):
            seen, exact, detail = _compare(law, values, instance)
        if seen == "undefined":
            out["undefined"] += 1
            continue
        out["points"] += 1
        if kind != "grid":
            out[kind] += 1
        out["exact"] = out["exact"] and exact
        if seen != "differ":
            continue
        if kind == "excluded" or not _meets(ctx, vars_, base, conditions, values):
            out["excluded_disagreements"] += 1
            continue
        out["disagreement"] = dict(
            detail, values=values, exact=exact, kind=kind,
            bindings={v.name: oracle.plain(x) for v, x in zip(vars_, values)})
        break
    if out["disagreement"] is None:
        _plain(law, instance, ctx, vars_, base, conditions, points, out, t0)
    out["seconds"] = round(time.perf_counter() - t0, 4)
    return out


def _plain(law: Law, instance, ctx, vars_, base, conditions, points, out, t0) -> None:
    """The plain-Python runner (``verify.decide.pyrun``; Triton's interpreter for Triton
    code, all points in one launch) at every point above, moved to the nearest doubles,
    and at the binade grid. A certain difference at a point of the
    domain that meets the stated assumptions is a disagreement; a difference only an
    opaque float run sees (a library call, float64 lanes) is one when the oracle sees it
    too, and otherwise a *conflict*: the two runners see different functions, so the
    proof is not reported."""
    runs = [(k, _doubles(vars_, p)) for k, p in points if k != "excluded"]
    runs += [("binade", p) for p in _binade_grid(vars_)]
    py = {"points": 0, "undecided": 0, "exact": 0}
    out["python"] = py
    started = time.perf_counter()
    pyrun.prefetch(law, [values for _, values in runs], instance)
    # a first launch also imports torch and Triton's interpreter: not the points' time
    deadline = t0 + TIME_BUDGET + PLAIN_BUDGET + (time.perf_counter() - started)
    for kind, values in runs:
        if time.perf_counter() > deadline:
            break
        if not oracle.preconditions_hold(law, values, instance) or \
                pyrun.pre_holds(law, values, instance) is not True:
            continue
        seen = pyrun.judge(law, values, instance)
        if seen.status == "undecided":
            py["undecided"] += 1
            continue
        py["points"] += 1
        py["exact"] += bool(seen.sides and seen.sides.exact)
        if seen.status == "agree":
            continue
        if seen.status == "gross":
            with mpmath.workprec(oracle.PREC):
                again, _, _ = _compare(law, values, instance)
            if again != "differ":
                # a NaN or ∞ only the float run has is the format's limit (overflow,
                # underflow into log 0); finite sides that differ grossly are not
                if pyrun.finite_sides(seen.sides) and out.get("conflict") is None and \
                        _meets(ctx, vars_, base, conditions, values):
                    out["conflict"] = _detail(vars_, values, seen, kind)
                else:
                    py["undecided"] += 1
                continue
        if not _meets(ctx, vars_, base, conditions, values):
            out["excluded_disagreements"] += 1
            continue
        out["disagreement"] = _detail(vars_, values, seen, kind)
        return


def _detail(vars_, values, seen, kind: str) -> dict:
    sides = seen.sides
    def show(xs):
        return (oracle.plain(pyrun.plain_value(xs[0]) if len(xs) == 1
                                        else [pyrun.plain_value(x) for x in xs]))
    return {"lhs": show(sides.lhs), "rhs": show(sides.rhs), "values": values,
            "exact": sides.exact, "kind": f"{sides.runner} ({kind})", "runner": sides.runner,
            "bindings": {v.name: oracle.plain(x) for v, x in zip(vars_, values)}}


