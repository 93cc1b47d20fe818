"""z3 conditions as mathematics, for reports: ``a + b ≠ 0 ∧ (c > 0 ∨ c < −1)`` rather
than ``And(Not(a + b == 0), Or(c > 0, c < -1))``. Terms it does not know keep z3's own
text."""
from __future__ import annotations

import re

import z3

_INFIX = {z3.Z3_OP_EQ: "=", z3.Z3_OP_DISTINCT: "≠", z3.Z3_OP_LE: "≤", z3.Z3_OP_LT: "<",
          z3.Z3_OP_GE: "≥", z3.Z3_OP_GT: ">", z3.Z3_OP_ADD: "+", z3.Z3_OP_SUB: "−",
          z3.Z3_OP_MUL: "·", z3.Z3_OP_DIV: "/", z3.Z3_OP_AND: "∧", z3.Z3_OP_OR: "∨",
          z3.Z3_OP_IMPLIES: "⇒"}
_NEGATED = {z3.Z3_OP_EQ: "≠", z3.Z3_OP_LE: ">", z3.Z3_OP_LT: "≥", z3.Z3_OP_GE: "<",
            z3.Z3_OP_GT: "≤"}
_LOOSE = {z3.Z3_OP_ADD, z3.Z3_OP_SUB, z3.Z3_OP_AND, z3.Z3_OP_OR, z3.Z3_OP_IMPLIES}


def text(t: z3.ExprRef) -> str:
    """``t`` written as mathematics."""
    if not z3.is_app(t):
        return str(t)
    k = t.decl().kind()
    kids = t.children()
    if k == z3.Z3_OP_TRUE:
        return "true"
    if k == z3.Z3_OP_FALSE:
        return "false"
    if k == z3.Z3_OP_NOT and z3.is_app(kids[0]) and kids[0].decl().kind() in _NEGATED:
        a, b = kids[0].children()
        return f"{text(a)} {_NEGATED[kids[0].decl().kind()]} {text(b)}"
    if k == z3.Z3_OP_NOT:
        return f"¬{_wrap(kids[0])}"
    if k == z3.Z3_OP_UMINUS:
        return f"−{_wrap(kids[0])}"
    if k == z3.Z3_OP_TO_REAL:
        return text(kids[0])
    if k == z3.Z3_OP_ITE:
        return _choice(*kids)
    if k == z3.Z3_OP_POWER:
        return f"{_wrap(kids[0], tight=True)}^{_wrap(kids[1], tight=True)}"
    if k in _INFIX and kids:
        return f" {_INFIX[k]} ".join(_wrap(c) for c in kids)
    if z3.is_rational_value(t) and t.denominator_as_long() != 1:
        return f"{t.numerator_as_long()}/{t.denominator_as_long()}"
    out = str(t)
    return "−" + out[1:] if out.startswith("-") else out


_ATOM = re.compile(r"[\w.\[\]]+")
_ORDER = {z3.Z3_OP_GE: "max", z3.Z3_OP_GT: "max", z3.Z3_OP_LE: "min", z3.Z3_OP_LT: "min"}


def _choice(cond: z3.ExprRef, then: z3.ExprRef, other: z3.ExprRef) -> str:
    """``If(c, x, y)``: max(x, y) or min(x, y) where c compares x with y, else
    "x if c else y"."""
    if z3.is_app(cond) and cond.decl().kind() in _ORDER and cond.num_args() == 2:
        a, b = cond.children()
        name = _ORDER[cond.decl().kind()]
        if a.eq(other) and b.eq(then):  # If(y ≥ x, x, y) picks the smaller
            name = "min" if name == "max" else "max"
        if {a.get_id(), b.get_id()} == {then.get_id(), other.get_id()}:
            return f"{name}({text(then)}, {text(other)})"
    return f"({text(then)} if {text(cond)} else {text(other)})"


def _wrap(t: z3.ExprRef, tight: bool = False) -> str:
    """``t`` in parentheses where it would otherwise bind loosely (``tight``: any
    operation, as around a power's base and exponent)."""
    s = text(t)
    if tight:  # a name or a number stands bare; max(…), min(…) and (… if … else …) too
        ite = z3.is_app(t) and t.decl().kind() == z3.Z3_OP_ITE
        loose = not (ite or (z3.is_app(t) and t.num_args() == 0 and _ATOM.fullmatch(s)))
    else:
        loose = z3.is_app(t) and t.decl().kind() in _LOOSE and t.num_args() > 1
    return f"({s})" if loose else s
