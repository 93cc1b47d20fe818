"""Does the audited combine have an identity element, and which?

Candidates: a real element z3 solves for from ``f(e, a) = a = f(a, e)`` at sample
points, then 0, 1, −1, −∞, +∞ (0, 1, ±∞ per component for tuple states). A candidate
that fails at a check point (replayed at two precisions) is dropped; the first one
proved (or else tested) is reported. "No identity" (refuted) only when z3 shows no real
element fits the sample points and the infinite candidates fail too. Sample points,
check points and finite candidates lie in the declared domain
(``verify.engine.domains``): a point outside it is no evidence. A function no reading
follows (type tests, written state: ``verify.engine.faithful``) gets no z3 solve and no
candidate dropped by a reading; its candidates are decided by plain Python, and "no
identity" is never concluded.

Does not cover: tuple elements mixing ±∞ with other values when z3 finds none with
finite components (the verdict is then unknown).
"""
from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import z3

from laws.core import Property
from laws import templates as T
from verify.auditing.properties import Prop, from_equation, identity_prop, make_law
from verify.auditing.report import entry, judge, skipped
from verify.auditing.signature import PROBE_SECONDS, SCALAR, Shape
from verify.auditing.trace import show
from verify.decide import oracle, pyrun
from verify.decide.query import Query
from verify.decide.limits import TimeLimit, one_line, time_limit
from verify.decide.policy import Policy
from verify.engine import domains
from verify.engine.faithful import refusal
from verify.engine.shapes import flatten
from verify.engine.z3interp import Z3Context, _as_expr, evaluate

PROVED, TESTED, UNKNOWN, REFUTED = "proved", "tested", "unknown", "refuted"
NEG_INF, POS_INF = float("-inf"), float("inf")


def _samples(s: Shape) -> list[Any]:
    """Points at which the identity equations are instantiated (integers where the
    domain has them: the exp encoding needs integer coefficients), in the domain."""
    if s.kind == "scalar":
        return _in_domain(s, [[1], [2], [-3], [5]], _SAMPLE_SPARE)
    base = [[1, 2, -3, 5, 7, -2], [2, -1, 4, 3, -5, 6], [-3, 5, 2, -1, 2, 9],
            [5, 3, 1, -4, 1, 2]]
    return _in_domain(s, [[b[i % len(b)] for i in range(s.size)] for b in base],
                      _SAMPLE_SPARE)


def _check_points(s: Shape) -> list[Any]:
    pts = [0, 1, -1, 2, Fraction(1, 2), -3]
    if s.kind == "scalar":
        return _in_domain(s, [[p] for p in pts], _CHECK_SPARE)
    return _in_domain(s, [[pts[(i + j) % len(pts)] for i in range(s.size)]
                          for j in range(6)], _CHECK_SPARE)


# values that replace a point's components outside the declared domain, the first one
# in the domain and not yet used for that component (1000 reaches past a clip at 255)
_SAMPLE_SPARE = [1000, 3, 7, 0, Fraction(1, 2), Fraction(1, 4), Fraction(3, 4)]
_CHECK_SPARE = [1000, 3, 5, Fraction(1, 4), Fraction(3, 4), 7, 1, 0]


def _in_domain(s: Shape, rows: list[list[Any]], spare: list[Any]) -> list[Any]:
    """``rows`` (one value per component) with each component outside its declared
    domain replaced from ``spare``: searches and evidence stay in the domain."""
    doms = [domains.get(d) for d in s.var("a").component_domains()]
    used: list[list[Any]] = [[] for _ in doms]
    out = []
    for row in rows:
        point = []
        for i, (x, dom) in enumerate(zip(row, doms)):
            if not dom.contains(x):
                x = next((y for y in spare + dom.grid() if dom.contains(y)
                          and y not in used[i]), dom.grid()[0])
            used[i].append(x)
            point.append(x)
        out.append(point[0] if s.kind == "scalar" else tuple(point))
    return out


def _candidate_elements(s: Shape) -> list[Any]:
    """0, 1, −1 (where the domain holds them: −1 is the identity of ``a & b``) and ±∞;
    per component of a tuple state 0, 1 and ±∞."""
    doms = [domains.get(d) for d in s.var("e").component_domains()]
    if s.kind == "scalar":
        return [c for c in (0, 1, -1, NEG_INF, POS_INF) if _allowed(doms[0], c)]
    base = [0, 1, NEG_INF, POS_INF]  # per component of a tuple (−1 would add 5ᵏ − 4ᵏ)
    per = [[c for c in base if _allowed(d, c)] for d in doms]
    if s.size > 4:
        return [tuple([c] * s.size) for c in base if all(c in p for p in per)]
    return [tuple(c) for c in itertools.product(*per)]


def _allowed(dom: domains.Domain, c: Any) -> bool:
    """A finite element must lie in the domain; ±∞ (the identity of max and min)
    stands outside every domain."""
    return c in (NEG_INF, POS_INF) or dom.contains(c)


def _mismatch(g, e, a) -> bool:
    """f(e, a) = a = f(a, e) fails at ``a`` (confirmed at two precisions and by plain
    Python, which reads a folded constant as the double it is), evaluated as written (no
    domain guard: f(∞, a) = nan is a mismatch). A point where f raises (a zero
    denominator) decides nothing."""
    shape = _shape_of_value(a)
    law = make_law(identity_prop(shape, e), g, guarded=False)
    try:
        with time_limit(PROBE_SECONDS):
            both = oracle.gap(law, [a])
            if both.differs and pyrun.confirms(law, [a])[0]:
                return True
            # one side raised (fsum([−∞, a, ∞])): the other may still fail on its own
            return both.undefined and any(
                _differs(make_law(from_equation(_one_side(e, right), (shape,), element=e),
                                  g, guarded=False), a) for right in (False, True))
    except (Exception, TimeLimit):  # undefined at this point: no evidence either way
        return False


def _differs(law, a) -> bool:
    return oracle.gap(law, [a]).differs and pyrun.confirms(law, [a])[0]


def _one_side(e: Any, right: bool) -> T.Equation:
    """f(a, e) = a (``right``) or f(e, a) = a alone."""
    def lhs(F, a):
        return F(a, e) if right else F(e, a)

    def rhs(F, a):
        return a
    shown = f"f(a, {show(e)}) = a" if right else f"f({show(e)}, a) = a"
    return T.Equation("identity", Property.ASSOCIATIVITY, shown, T.IDENTITY_LICENSES,
                      ("a",), lhs, rhs)


def _shape_of_value(a) -> Shape:
    return Shape("tuple", len(a)) if isinstance(a, tuple) else SCALAR


def _z3_solve(g, s: Shape, policy: Policy) -> tuple[str, Any, str]:
    """Solve f(e, a) = a = f(a, e) for a real e at the sample points.
    ('unsat', None, why) proves that no real e exists; ('sat', e, '') gives a candidate;
    ('unknown', None, why) otherwise."""
    ctx = Z3Context()
    try:
        with time_limit(policy.prove_seconds):
            answer, query, e = _z3_identity_query(ctx, g, s, policy.timeout_ms)
    except (Exception, TimeLimit) as exc:  # a construct z3 cannot follow, or a timeout
        return UNKNOWN, None, f"z3 could not solve for e ({one_line(exc)})"
    if answer == z3.unsat:
        if ctx.infinity_facts():
            # ±∞ literals are modeled as finite symbols: unsat of that model says
            # nothing about the function as written.
            return UNKNOWN, None, "the function uses ±∞ literals, which the z3 model of e " \
                                  "cannot represent faithfully"
        return "unsat", None, ""
    if answer != z3.sat:
        return UNKNOWN, None, f"z3: {query.reason_unknown()}"
    comps = []
    for v in flatten(e):
        val = query.value(v)
        if not z3.is_rational_value(val):
            return "sat", None, ""
        comps.append(_nice(Fraction(val.numerator_as_long(), val.denominator_as_long())))
    if any(c is None for c in comps):
        return "sat", None, ""
    return "sat", (tuple(comps) if s.kind != "scalar" else comps[0]), ""


def _z3_identity_query(ctx: Z3Context, g, s: Shape, timeout_ms: int):
    e = ctx.make(s.var("e"))
    fn = ctx.interp.rebind(g)
    eqs = []
    for a in _samples(s):
        a_z = _z3_const(a)
        left = flatten(evaluate(ctx, lambda a_z=a_z: fn(e, a_z)))
        right = flatten(evaluate(ctx, lambda a_z=a_z: fn(a_z, e)))
        target = flatten(a_z)
        for u, v in zip(left + right, target + target, strict=False):
            u, v = _as_expr(u, ctx), _as_expr(v, ctx)  # a NaN side equals no number
            eqs.append(z3.Not(ctx.nan.differ(u, v, u != v)) if z3.is_arith(u) else u == v)
    query = Query(ctx.side + ctx.exp_facts() + ctx.infinity_facts() + eqs, timeout_ms)
    return query.check(), query, e


def _z3_const(a):
    if isinstance(a, tuple):
        return tuple(_z3_const(x) for x in a)
    return z3.RealVal(a) if isinstance(a, Fraction) else a


def _nice(q: Fraction):
    """A rational as a Python number the interpretations read exactly (int or a float
    equal to it), else None."""
    if q.denominator == 1:
        return int(q)
    f = float(q)
    return f if Fraction(f) == q else None


def audit_identity(g, s: Shape, policy: Policy, no_prover: str | None,
                   no_floats: str | None) -> dict:
    # a function that tests types or writes state computes one thing in Python and
    # another in every reading: none of them may drop a candidate or rule e out
    refused = refusal(g)
    unreadable = f"{refused}, which no reading follows faithfully" if refused else None
    solve, solved, why = (UNKNOWN, None, no_prover or unreadable) \
        if no_prover or refused else _z3_solve(g, s, policy)
    candidates = _candidate_elements(s)
    if solved is not None and solved not in candidates:
        candidates.insert(0, solved)
    failures: dict[str, Any] = {}
    judged: dict[str, str] = {}
    best = None
    for e in candidates:
        bad = None if refused else next(
            (a for a in _check_points(s) if _mismatch(g, e, a)), None)
        if bad is not None:
            failures[show(e)] = bad
            continue
        prop = identity_prop(s, e)
        law = make_law(prop, g, no_prover=no_prover)
        res = judge(law, policy)
        judged[show(e)] = res["verdict"]
        if res["verdict"] == PROVED:
            best = (prop, law, res)
            break
        if res["verdict"] == TESTED and best is None:
            best = (prop, law, res)
    if best is not None:
        prop, law, res = best
        found = entry(prop, law, res, g, policy, no_floats)
        found["reals"]["element"] = oracle.plain(prop.element)
        return found
    prop = Prop("identity", Property.ASSOCIATIVITY, "f(e, a) = a = f(a, e) for some e",
                T.IDENTITY_LICENSES, ("a",), (s,), None, None)
    tried = ", ".join(f"{k} (fails at a = {show(v)})" for k, v in failures.items())
    def ruled_out(e) -> bool:
        return show(e) in failures or judged.get(show(e)) == REFUTED
    infinite_excluded = all(ruled_out(e) for e in candidates
                            if any(c in (NEG_INF, POS_INF) for c in flatten([e])))
    # a finite candidate no reading rules out, though z3 finds no e: the readings and
    # plain Python see different functions (a folded constant), so nothing is concluded
    standing = [show(e) for e in candidates if not ruled_out(e)]
    if solve == "unsat" and s.kind == "scalar" and standing and infinite_excluded:
        verdict = UNKNOWN
        reason = ("z3 shows no real e satisfies f(e, a) = a = f(a, e) at the sample "
                  f"points, but plain Python does not rule out {', '.join(standing)} ("
                  + ", ".join(f"{k}: {v}" for k, v in judged.items()) + ")")
    elif solve == "unsat" and s.kind == "scalar" and infinite_excluded:
        verdict = REFUTED
        reason = (f"no identity: z3 shows no real e satisfies f(e, a) = a = f(a, e) at "
                  f"a ∈ {{{', '.join(show(a) for a in _samples(s))}}}, and e = −∞, +∞ "
                  f"fail: {tried}")
    else:
        verdict = UNKNOWN
        verdicts = ", ".join(f"{k}: {v}" for k, v in judged.items())
        undecided = [show(e) for e in candidates if not ruled_out(e)]
        if solve == "unsat" and s.kind == "scalar":
            reason = ("no finite identity (z3: unsat at the sample points); "
                      f"{', '.join(undecided) or 'no candidate'} not decided "
                      f"({verdicts or tried or 'none judged'})")
        elif solve == "unsat":
            reason = ("no identity with finite components (z3: unsat at the sample "
                      "points), and none among the candidates with infinite components; "
                      "elements mixing ±∞ with other values were not excluded")
        elif refused:
            reason = (f"no candidate was proved or tested ({unreadable}); plain Python "
                      "judged " + verdicts)
        else:
            reason = (f"no candidate was proved or tested; tried {tried or 'none'}"
                      + (f"; judged {verdicts}" if verdicts else "")
                      + (f"; {why}" if why else ""))
    return {"statement": prop.statement, "family": prop.family.value,
            "reals": {"verdict": verdict, "counterexample": None, "element": None,
                      "method": "z3 solve for e at sample points + mpmath replay of the "
                                "candidates 0, 1, −1, −∞, +∞",
                      "assumptions": [], "reason": reason, "cases": None},
            "float32": skipped("no identity element to check"),
            "float64": skipped("no identity element to check"),
            "licenses": None}

