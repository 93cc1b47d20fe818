"""Linear forms of an exponent: a z3 term as a sum of coefficient × symbol plus a constant,
one form per branch of the ``If``s inside it (the exp encoding needs exponents of this
shape; anything else is refused)."""
from __future__ import annotations

from fractions import Fraction

import z3

from verify.engine.interp import Unsupported


def linear_cases(t: z3.ExprRef):
    """[(conditions, {id: (base, coeff)}, const)] with If pushed to the top."""
    if z3.is_rational_value(t) or z3.is_int_value(t):
        value = t.as_fraction() if z3.is_rational_value(t) else t.as_long()
        return [([], {}, Fraction(str(value)))]
    if z3.is_const(t) and t.decl().kind() == z3.Z3_OP_UNINTERPRETED:
        return [([], {t.get_id(): (t, Fraction(1))}, Fraction(0))]
    k = t.decl().kind() if z3.is_app(t) else None
    if k == z3.Z3_OP_ITE:
        c, a, b = t.children()
        return ([([c] + cs, co, k0) for cs, co, k0 in linear_cases(a)]
                + [([z3.Not(c)] + cs, co, k0) for cs, co, k0 in linear_cases(b)])
    if k == z3.Z3_OP_TO_REAL:
        return linear_cases(t.arg(0))
    if k == z3.Z3_OP_ADD:
        out = [([], {}, Fraction(0))]
        for child in t.children():
            out = [(c1 + c2, _add(co1, co2), k1 + k2)
                   for c1, co1, k1 in out for c2, co2, k2 in linear_cases(child)]
        return out
    if k == z3.Z3_OP_SUB:
        first, *rest = t.children()
        out = linear_cases(first)
        for child in rest:
            out = [(c1 + c2, _add(co1, _scale(co2, -1)), k1 - k2)
                   for c1, co1, k1 in out for c2, co2, k2 in linear_cases(child)]
        return out
    if k == z3.Z3_OP_UMINUS:
        return [(c, _scale(co, -1), -k0) for c, co, k0 in linear_cases(t.arg(0))]
    if k == z3.Z3_OP_MUL:
        factor = Fraction(1)
        symbolic = []
        for child in t.children():
            if z3.is_rational_value(child) or z3.is_int_value(child):
                factor *= Fraction(str(child.as_fraction() if z3.is_rational_value(child)
                                       else child.as_long()))
            else:
                symbolic.append(child)
        if len(symbolic) == 1:
            return [(c, _scale(co, factor), k0 * factor) for c, co, k0 in linear_cases(symbolic[0])]
        if not symbolic:
            return [([], {}, factor)]
    if k == z3.Z3_OP_DIV:
        num, den = t.children()
        if z3.is_rational_value(den):
            d = Fraction(str(den.as_fraction()))
            if d != 0:
                return [(c, _scale(co, 1 / d), k0 / d) for c, co, k0 in linear_cases(num)]
    raise Unsupported(f"exp of a non-linear exponent: {t}")


def _add(a, b):
    out = dict(a)
    for key, (base, c) in b.items():
        if key in out:
            out[key] = (base, out[key][1] + c)
        else:
            out[key] = (base, c)
    return {k: v for k, v in out.items() if v[1] != 0}


def _scale(a, s):
    return {k: (base, c * s) for k, (base, c) in a.items() if c * s != 0}
