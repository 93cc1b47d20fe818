"""The properties an audit looks for, as laws about the audited function.

A ``Prop`` is an equation between two templates that receive the function first
(``lhs(F, *vars) = rhs(F, *vars)``); ``make_law`` binds it to the audited function and
guards its domain (inputs where both sides are defined and real). Which properties are
built depends on the signature's kind.
"""
from __future__ import annotations

import weakref
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable

import mpmath
import numpy as np
import torch
import z3

from laws import templates as T
from laws.core import SEARCH, Z3, Law, Property, Var
from verify.auditing.signature import SCALAR, Shape, Signature
from verify.auditing.trace import show
from verify.decide.jit_raise import raised_in_jit
from verify.decide.limits import PointTimeLimit, time_limit
from verify.engine.shapes import flatten


class _Guard:
    """The domain of an audited law: inputs where both sides are defined and real.

    Used as the law's precondition. Under z3 it adds nothing (the prover records its own
    assumptions: nonzero denominators, log and sqrt arguments); under mpmath it excludes
    inputs where a side raises (division by zero) or is complex (log of a negative
    number), as Python's ``math`` would raise there; a NaN side stays in the domain (NaN
    against a number is a counterexample, two NaN sides agree); under torch it masks
    rows where both sides are non-finite at the same component.
    It is an object, not a function, so the interpretations pass it through unchanged.
    """

    def __call__(self, lhs, rhs, values):
        comps = flatten(list(values))
        if any(z3.is_expr(c) for c in comps):
            return []
        if any(isinstance(c, torch.Tensor) for c in comps):
            try:
                return _both_finite_or_one(flatten(lhs(*values)), flatten(rhs(*values)))
            except Exception:  # the float check reports its own failure
                return []
        try:
            outs = flatten(lhs(*values)) + flatten(rhs(*values))
        except Exception as exc:  # undefined here (x/0, comparisons of complex values, ...)
            if raised_in_jit(exc):
                raise  # Triton does not raise there: not a point outside the domain
            return [False]
        return [all(_real(o) or _nan(o) for o in outs)]


def _real(x: Any) -> bool:
    """A real number or ±∞ (mpmath does not overflow: an infinity is meant, as in the
    −∞ of a lifted top-k state); not NaN, not complex."""
    if isinstance(x, (bool, np.bool_, int, Fraction)):
        return True
    if isinstance(x, mpmath.mpf):
        return not mpmath.isnan(x)
    if isinstance(x, float):
        return x == x
    return False


def _both_finite_or_one(lhs: list, rhs: list) -> list:
    """The rows to compare in a float format: all but those where both sides are
    non-finite at the same component (undefined there, or the same overflow on both
    sides). A row where only one side overflowed or became NaN stays: that is a float
    counterexample, not a point outside the domain."""
    mask = None
    for a, b in zip(lhs, rhs):
        if isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor) \
                and a.is_floating_point() and b.is_floating_point():
            m = torch.isfinite(a) | torch.isfinite(b)
            mask = m if mask is None else mask & m
    return [mask] if mask is not None else []


def _nan(x: Any) -> bool:
    return (isinstance(x, mpmath.mpf) and mpmath.isnan(x)) or (isinstance(x, float)
                                                               and x != x)


GUARD = _Guard()


POINT_SECONDS = 5.0  # one side at one point: past it, the function may loop forever there
AFTER_A_HANG_SECONDS = 0.5  # the limit once a function has been seen not to finish


class _Evaluate:
    """Evaluate a law side. Under mpmath the working precision is raised by the number
    of binades the inputs span (and their distance from 1): the oracle compares 113 and
    177 bits, and ``log(exp(a))`` at a = 10⁻¹⁵⁰ loses a entirely at both, which would
    read as a stable gap. Other interpretations evaluate unchanged. A side on numbers
    that runs past ``POINT_SECONDS`` (``while x > b: x -= 1.0`` at x = 10²⁰, where
    x − 1 is x) raises ``PointTimeLimit``, naming the point: that point decides nothing
    (the searcher draws another, up to ``search.MAX_HUNG`` of them; other stages end
    with ``unknown``) instead of using up a stage's whole time. Once a function has not
    finished somewhere, its later evaluations get ``AFTER_A_HANG_SECONDS`` (a normal one
    takes milliseconds). An object, not a function, so the interpretations pass it
    through."""

    def __init__(self) -> None:
        self._hung: weakref.WeakSet = weakref.WeakSet()  # functions seen not to finish

    def __call__(self, template, g, values):
        comps = flatten(list(values))
        if any(z3.is_expr(c) or isinstance(c, torch.Tensor) for c in comps):
            return template(g, *values)
        seconds = AFTER_A_HANG_SECONDS if g in self._hung else POINT_SECONDS

        def message() -> str:
            self._hung.add(g)
            return (f"did not finish one evaluation of the function in {seconds:g} s "
                    f"(at {', '.join(show(c) for c in comps)}): it may loop forever there")
        with time_limit(seconds, message, PointTimeLimit):
            return self._numeric(template, g, values, comps)

    @staticmethod
    def _numeric(template, g, values, comps):
        mags = [1]
        for c in comps:
            if isinstance(c, mpmath.mpf) and c and mpmath.isfinite(c):
                mags.append(int(mpmath.mag(c)))
            elif isinstance(c, (int, Fraction)) and c:
                q = Fraction(c)  # mpmath makes no mpf from a Fraction
                mags.append(int(mpmath.mag(q.numerator)) - int(mpmath.mag(q.denominator)))
        span = max(mags) - min(mags)
        if span <= 16:
            return template(g, *values)
        with mpmath.workprec(mpmath.mp.prec + span + 32):
            return template(g, *values)


EVALUATE = _Evaluate()

# --------------------------------------------------------------------------- properties
@dataclass
class Prop:
    """One property of the audited function, as an equation between two templates that
    receive the function first: ``lhs(F, *vars) = rhs(F, *vars)``."""

    name: str
    family: Property
    statement: str
    licenses: str
    var_names: tuple[str, ...]
    shapes: tuple[Shape, ...]
    lhs: Callable
    rhs: Callable
    bounded: str | None = None     # fixed length: proved means proved-bounded
    floats: bool = True
    element: Any = None            # identity element under test
    vars: tuple[Var, ...] | None = None   # explicit variables (with domains)
    pre: Callable | None = None    # extra preconditions: pre(*vars) -> conditions


def make_law(prop: Prop, g: Callable, guarded: bool = True, no_prover: str | None = None
             ) -> Law:
    """The property as a law about ``g``: both sides call the very function audited.
    With ``no_prover`` (why z3 cannot follow the function) the law is searched only."""
    lt, rt, extra = prop.lhs, prop.rhs, prop.pre

    def lhs(*vs):
        return EVALUATE(lt, g, vs)

    def rhs(*vs):
        return EVALUATE(rt, g, vs)

    def pre(*vs):
        return GUARD(lhs, rhs, vs)

    def pre_with_extra(*vs):
        return list(extra(*vs)) + GUARD(lhs, rhs, vs)

    law_pre = None
    if guarded:
        law_pre = pre if extra is None else pre_with_extra
    return Law(id=f"audit.{prop.name}", property=prop.family, statement=prop.statement,
               licenses=prop.licenses,
               vars=prop.vars or tuple(s.var(n) for n, s in zip(prop.var_names, prop.shapes,
                                                                 strict=True)),
               lhs=lhs, rhs=rhs, pre=law_pre, bounded_by=prop.bounded,
               method=SEARCH if no_prover else Z3, reason=no_prover)


def from_equation(eq: T.Equation, shapes: tuple[Shape, ...], **fields: Any) -> Prop:
    """A property of the audited function from a template of laws/templates.py."""
    return Prop(eq.name, eq.property, eq.statement, eq.licenses, eq.var_names, shapes,
                eq.lhs, eq.rhs, **fields)


def binary_props(sig: Signature) -> list[Prop]:
    s = sig.params[0]
    props = [from_equation(T.ASSOCIATIVE, (s, s, s)), from_equation(T.COMMUTATIVE, (s, s)),
             from_equation(T.IDEMPOTENT, (s,))]
    if s.kind == "scalar":
        props += two_argument_props(sig, symmetric=False)
    return props


def identity_prop(s: Shape, e: Any) -> Prop:
    return from_equation(T.identity(e, show(e)), (s,), element=e)


def two_argument_props(sig: Signature, symmetric: bool = True) -> list[Prop]:
    sx, sy = sig.params
    four = (sx, sx, sy, sy)
    props = [from_equation(T.SEPARABLE, four), from_equation(T.ADDITIVELY_SEPARABLE, four)]
    if symmetric and sx == sy:
        props.append(from_equation(T.SYMMETRIC, (sx, sy)))
    return props


def unary_props(sig: Signature) -> list[Prop]:
    out = [from_equation(T.ADDITIVE, (SCALAR, SCALAR))]
    if sig.result.kind == "scalar":
        out += [from_equation(T.MONOTONE, (SCALAR, SCALAR)),
                from_equation(T.EXPONENTIAL, (SCALAR, SCALAR)),
                from_equation(T.IDEMPOTENT_MAP, (SCALAR,))]
    return out


def vector_props(sig: Signature) -> list[Prop]:
    """The properties of a vector function at its audited length. The permutation
    properties have no sides of their own: ``generator_props`` gives one law per
    generator."""
    n = sig.params[0].size
    vec = sig.params[0]
    bound = f"n = {n}"
    out = []
    if n >= 2:
        out.append(Prop("permutation_invariant", Property.SYMMETRY,
                        "f(σx) = f(x) for σ = swap(0, 1) and σ = cycle (these generate "
                        "every permutation)", T.PERMUTATION_INVARIANT_LICENSES, ("x",),
                        (vec,), None, None, bounded=bound))
        if sig.result.kind != "scalar" and sig.result.size == n:
            out.append(Prop("permutation_equivariant", Property.SYMMETRY,
                            "f(σx) = σf(x) for σ = swap(0, 1) and σ = cycle",
                            T.PERMUTATION_EQUIVARIANT_LICENSES, ("x",), (vec,), None, None,
                            bounded=bound))
            out.append(from_equation(T.SHIFT_EQUIVARIANT, (vec,), bounded=bound))
    out.append(from_equation(T.LINEAR, (SCALAR, vec, vec), bounded=bound))
    return out


def generator_props(prop: Prop) -> list[Prop]:
    """A permutation property as one law per generator (fewer symbolic paths each)."""
    template = (T.permutation_invariant if prop.name == "permutation_invariant"
                else T.permutation_equivariant)
    out = []
    for label, perm in (("swap", T.swap01), ("cycle", T.cycle)):
        out.append(from_equation(template(perm, label), prop.shapes, bounded=prop.bounded))
        if prop.shapes[0].size == 2:
            break  # swap and cycle coincide
    return out
