"""Independent replay of a reported counterexample: rebuild its values from the JSON
bindings and evaluate both sides afresh with mpmath at 200 bits, outside the checker's
own oracle."""
from fractions import Fraction

import mpmath

from laws.core import BOUNDED
from verify.decide import oracle
from verify.engine.mpwords import make_mpmath
from verify.engine.shapes import flatten, shape_like

MP = make_mpmath()


def parse(x):
    if isinstance(x, list):
        return [parse(v) for v in x]
    if isinstance(x, str):
        return Fraction(x) if "/" in x else mpmath.mpf(x)
    return x


def replays(law, cx) -> bool:
    """Rebuild the counterexample's values, check the domain and preconditions, and
    evaluate both sides afresh with mpmath at 200 bits: do they differ (or break the
    bound)?"""
    inst = cx.get("instance", {})
    vars_ = law.vars_for(inst)
    values = [shape_like(v, flatten(parse(cx["bindings"][v.name]))) for v in vars_]
    assert oracle.preconditions_hold(law, values, inst)
    with mpmath.workprec(200):
        vals = oracle.to_mp(values)
        lhs = [mpmath.mpf(x) for x in flatten(MP.rebind(law.lhs)(*vals, **inst))]
        rhs = [mpmath.mpf(x) for x in flatten(MP.rebind(law.rhs)(*vals, **inst))]
        gaps = [abs(a - b) for a, b in zip(lhs, rhs)]
        if law.exactness == BOUNDED:
            bound = flatten(MP.rebind(law.error_bound)(*vals, **inst))
            bound = bound * len(gaps) if len(bound) == 1 else bound
            return any(g > b for g, b in zip(gaps, bound))
        scale = max([abs(x) for x in lhs + rhs] + [mpmath.mpf(1)])
        return max(gaps) > scale * mpmath.mpf(2) ** -100

