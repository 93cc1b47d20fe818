"""The properties an audit looks for, as laws about the audited function.

A ``Prop`` is an equation between two templates that receive the function first
(``lhs(F, *vars) = rhs(F, *vars)``); ``make_law`` binds it to the audited function and
guards its domain (inputs where both sides are defined and real). Which properties are
built depends on the signature's kind.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable

import mpmath
import numpy as np
import torch
import z3

from laws.core import Law, Property, Var
from verify.auditing.signature import SCALAR, Shape, Signature
from verify.auditing.trace import show
from verify.engine.shapes import flatten


class _Guard:
    """The domain of an audited law: inputs where both sides are defined and real.

    Used as the law's precondition. Under z3 it adds nothing (the prover records its own
    assumptions: nonzero denominators, log and sqrt arguments); under mpmath it excludes
    inputs where a side raises (division by zero) or is NaN or complex (log of a
    negative number); under torch it masks rows whose float64 sides are not finite.
    It is an object, not a function, so the interpretations pass it through unchanged.
    """

    def __call__(self, lhs, rhs, values):
        comps = flatten(list(values))
        if any(z3.is_expr(c) for c in comps):
            return []
        if any(isinstance(c, torch.Tensor) for c in comps):
            try:
                outs = flatten(lhs(*values)) + flatten(rhs(*values))
            except Exception:  # the float check reports its own failure
                return []
            mask = None
            for o in outs:
                if isinstance(o, torch.Tensor) and o.is_floating_point():
                    m = torch.isfinite(o)
                    mask = m if mask is None else mask & m
            return [mask] if mask is not None else []
        try:
            outs = flatten(lhs(*values)) + flatten(rhs(*values))
        except Exception:  # undefined here (x/0, comparisons of complex values, ...)
            return [False]
        return [all(_real(o) for o in outs)]


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


GUARD = _Guard()


class _Evaluate:
    """Evaluate a law side. Under mpmath the working precision is raised by the number
    of binades the inputs span (and their distance from 1): the oracle compares 113 and
    177 bits, and ``log(exp(a))`` at a = 10⁻¹⁵⁰ loses a entirely at both, which would
    read as a stable gap. Other interpretations evaluate unchanged. An object, not a
    function, so the interpretations pass it through."""

    def __call__(self, template, g, values):
        comps = flatten(list(values))
        if any(z3.is_expr(c) or isinstance(c, torch.Tensor) for c in comps):
            return template(g, *values)
        mags = [1]
        for c in comps:
            if isinstance(c, mpmath.mpf) and c and mpmath.isfinite(c):
                mags.append(int(mpmath.mag(c)))
            elif isinstance(c, (int, Fraction)) and c:
                mags.append(int(mpmath.mag(mpmath.mpf(c))))
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


def make_law(prop: Prop, g: Callable, guarded: bool = True) -> Law:
    """The property as a law about ``g``: both sides call the very function audited."""
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
               lhs=lhs, rhs=rhs, pre=law_pre, bounded_by=prop.bounded)


LICENSES = {
    "associative": "chunking and parallel reduction or scan: reduce chunks independently "
                   "and combine the partial results in any grouping (tl.reduce, "
                   "tl.associative_scan, split-K, streaming over tiles)",
    "commutative": "any order: tree reductions across lanes, atomics, merging chunks as "
                   "they finish",
    "identity": "padding and empty chunks: masked lanes and the fold's start may hold "
                "the identity",
    "idempotent": "overlapping chunks may be combined twice (halo re-reads, overlapping "
                  "windows)",
    "separable": "factorization: the table [f(xᵢ, yⱼ)] has rank 1, f = g(x)·h(y); keep g "
                 "and h (m + n numbers, not m·n) and factor Σⱼ f(x, yⱼ)·vⱼ = "
                 "g(x)·Σⱼ h(yⱼ)·vⱼ",
    "additively_separable": "f = g(x) + h(y): broadcast instead of materializing the "
                            "table; max and softmax over y decompose "
                            "(maxⱼ f(x, yⱼ) = g(x) + maxⱼ h(yⱼ))",
    "symmetric": "a symmetric pairwise table: compute one triangle and mirror it",
    "permutation_invariant": "order does not matter: process the data in any order or "
                             "layout (sharding, atomics, sorting first)",
    "permutation_equivariant": "reordering commutes with f: permute, shard or sort the "
                               "data, apply f, undo the permutation (token-parallel "
                               "layouts, MoE dispatch)",
    "shift_equivariant": "shifting commutes with f: one kernel slides over every "
                         "position (convolution, FFT evaluation)",
    "locality": "tiling with a halo: an output tile needs only its input tile plus r "
                "neighbours on each side (stencils, sliding-window attention)",
    "linear": "superposition: f(s·x + y) = s·f(x) + f(y); apply f to chunk sums, batch it "
              "as a matrix product, factor it",
    "monotone": "max, argmax and top-k commute with f: select on the inputs and apply f "
                "to the winners only (argmax of softmax = argmax of logits)",
    "additive": "f distributes over sums: apply f once after a reduction instead of to "
                "every term",
    "exponential": "f(x + y) = f(x)·f(y): a kernel f(q + k) factors into f(q)·f(k) "
                   "(the exp of softmax splits into row and column factors)",
    "idempotent_map": "applying f twice is applying it once: duplicated or fused "
                      "applications (clamps, projections) can be deduplicated",
}


def _swap01(x):
    return [x[1], x[0]] + list(x[2:])


def _cycle(x):
    return list(x[1:]) + [x[0]]


def _mul(u, v):
    if isinstance(u, (tuple, list)):
        return [a * b for a, b in zip(u, v, strict=False)]
    return u * v


def _add(u, v):
    if isinstance(u, (tuple, list)):
        return [a + b for a, b in zip(u, v, strict=False)]
    return u + v


def binary_props(sig: Signature) -> list[Prop]:
    s = sig.params[0]
    three = (s, s, s)
    props = [
        Prop("associative", Property.ASSOCIATIVITY, "f(f(a, b), c) = f(a, f(b, c))",
             LICENSES["associative"], ("a", "b", "c"), three,
             lambda F, a, b, c: F(F(a, b), c), lambda F, a, b, c: F(a, F(b, c))),
        Prop("commutative", Property.SYMMETRY, "f(a, b) = f(b, a)", LICENSES["commutative"],
             ("a", "b"), (s, s), lambda F, a, b: F(a, b), lambda F, a, b: F(b, a)),
        Prop("idempotent", Property.REDUNDANCY, "f(a, a) = a", LICENSES["idempotent"],
             ("a",), (s,), lambda F, a: F(a, a), lambda F, a: a),
    ]
    if s.kind == "scalar":
        props += two_argument_props(sig, symmetric=False)
    return props


def identity_prop(s: Shape, e: Any) -> Prop:
    return Prop("identity", Property.ASSOCIATIVITY,
                f"f(e, a) = a = f(a, e) with e = {show(e)}", LICENSES["identity"],
                ("a",), (s,), lambda F, a: (F(e, a), F(a, e)), lambda F, a: (a, a),
                element=e)


def two_argument_props(sig: Signature, symmetric: bool = True) -> list[Prop]:
    sx, sy = sig.params
    four = (sx, sx, sy, sy)
    props = [
        Prop("separable", Property.SEPARABILITY,
             "f(x, y)·f(x′, y′) = f(x, y′)·f(x′, y)  (rank 1: f = g(x)·h(y))",
             LICENSES["separable"], ("x", "x2", "y", "y2"), four,
             lambda F, x, x2, y, y2: _mul(F(x, y), F(x2, y2)),
             lambda F, x, x2, y, y2: _mul(F(x, y2), F(x2, y))),
        Prop("additively_separable", Property.SEPARABILITY,
             "f(x, y) + f(x′, y′) = f(x, y′) + f(x′, y)  (f = g(x) + h(y))",
             LICENSES["additively_separable"], ("x", "x2", "y", "y2"), four,
             lambda F, x, x2, y, y2: _add(F(x, y), F(x2, y2)),
             lambda F, x, x2, y, y2: _add(F(x, y2), F(x2, y))),
    ]
    if symmetric and sx == sy:
        props.append(Prop("symmetric", Property.SYMMETRY, "f(x, y) = f(y, x)",
                          LICENSES["symmetric"], ("x", "y"), (sx, sy),
                          lambda F, x, y: F(x, y), lambda F, x, y: F(y, x)))
    return props


def unary_props(sig: Signature) -> list[Prop]:
    out = [
        Prop("additive", Property.SEPARABILITY, "f(x + y) = f(x) + f(y)",
             LICENSES["additive"], ("x", "y"), (SCALAR, SCALAR),
             lambda F, x, y: F(x + y), lambda F, x, y: _add(F(x), F(y))),
    ]
    if sig.result.kind == "scalar":
        out += [
            Prop("monotone", Property.SPARSITY,
                 "f(max(x, y)) = max(f(x), f(y))  (f is nondecreasing)",
                 LICENSES["monotone"], ("x", "y"), (SCALAR, SCALAR),
                 lambda F, x, y: F(max(x, y)), lambda F, x, y: max(F(x), F(y))),
            Prop("exponential", Property.SEPARABILITY, "f(x + y) = f(x)·f(y)",
                 LICENSES["exponential"], ("x", "y"), (SCALAR, SCALAR),
                 lambda F, x, y: F(x + y), lambda F, x, y: F(x) * F(y)),
            Prop("idempotent", Property.REDUNDANCY, "f(f(x)) = f(x)",
                 LICENSES["idempotent_map"], ("x",), (SCALAR,),
                 lambda F, x: F(F(x)), lambda F, x: F(x)),
        ]
    return out


def vector_props(sig: Signature) -> list[Prop]:
    n = sig.params[0].size
    vec = sig.params[0]
    bound = f"n = {n}"
    out = []
    if n >= 2:
        out.append(Prop("permutation_invariant", Property.SYMMETRY,
                        "f(σx) = f(x) for σ = swap(0, 1) and σ = cycle (these generate "
                        "every permutation)", LICENSES["permutation_invariant"], ("x",),
                        (vec,), None, None, bounded=bound))
        if sig.result.kind != "scalar" and sig.result.size == n:
            out.append(Prop("permutation_equivariant", Property.SYMMETRY,
                            "f(σx) = σf(x) for σ = swap(0, 1) and σ = cycle",
                            LICENSES["permutation_equivariant"], ("x",), (vec,), None, None,
                            bounded=bound))
            out.append(Prop("shift_equivariant", Property.SYMMETRY,
                            "f(shift(x)) = shift(f(x)), shift(x)ᵢ = x₍ᵢ₊₁₎ mod n",
                            LICENSES["shift_equivariant"], ("x",), (vec,),
                            lambda F, x: F(_cycle(x)), lambda F, x: _cycle(F(x)),
                            bounded=bound))
    out.append(Prop("linear", Property.SEPARABILITY, "f(s·x + y) = s·f(x) + f(y)",
                    LICENSES["linear"], ("s", "x", "y"), (SCALAR, vec, vec),
                    lambda F, s, x, y: F([s * a + b for a, b in zip(x, y, strict=False)]),
                    lambda F, s, x, y: _add(_scale(s, F(x)), F(y)), bounded=bound))
    return out


def _scale(s, v):
    if isinstance(v, (tuple, list)):
        return [s * a for a in v]
    return s * v


def _permuted_input(perm):
    return lambda F, x: F(perm(x))


def _permuted_output(perm):
    return lambda F, x: perm(F(x))


def _unchanged(F, x):
    return F(x)


def generator_props(prop: Prop) -> list[Prop]:
    """A permutation property as one law per generator (fewer symbolic paths each)."""
    out = []
    for label, perm in (("swap", _swap01), ("cycle", _cycle)):
        if prop.name == "permutation_invariant":
            lt = _permuted_input(perm)
            rt = _unchanged
        else:
            lt = _permuted_input(perm)
            rt = _permuted_output(perm)
        out.append(Prop(f"{prop.name}_{label}", prop.family,
                        prop.statement.split(" for ")[0] + f" for σ = {label}",
                        prop.licenses, prop.var_names, prop.shapes, lt, rt, prop.bounded))
        if prop.shapes[0].size == 2:
            break  # swap and cycle coincide
    return out

