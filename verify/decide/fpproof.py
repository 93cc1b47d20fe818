"""Exactness in a float format, proved with z3's IEEE floating-point theory.

The law's sides run on z3 floating-point terms of the format (round to nearest even),
over finite non-NaN inputs in the variables' domains. ``unsat`` for "the sides differ
as values" proves the law exact in that format; a model is converted to that format's
floats and replayed with torch before it is believed. Each name keeps its library's NaN
semantics: ``tl.maximum``/``torch.maximum``/``np.maximum`` (and minimum) return NaN when
either argument is NaN and order −0 below +0, as torch does (Triton's default
``propagate_nan=NONE`` leaves NaN unspecified; torch's propagation is what the float
verdicts replay with); ``np.fmax``/``fmin`` ignore a NaN argument; Python's builtin
``max(a, b)``/``min(a, b)`` return ``a`` unless ``b`` compares greater (smaller), so
``max(NaN, 1)`` is NaN and ``max(1, NaN)`` is 1. Overflow to ±∞ and ∞ − ∞ = NaN are
IEEE's, so a law that overflows in the format is not exact there.
Functions with exp/log, integer variables or Python branches on values are outside
this prover (the answer is ``None`` and the tested verdict stands).
"""
from __future__ import annotations

import contextlib
import struct
from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np
import torch
import z3

from laws.core import Law
from verify.decide.query import Query
from verify.engine import domains as kinds
from verify.engine.interp import Interpretation, Namespace, Unsupported, variadic
from verify.engine.shapes import component_names, flatten, shape_like
from verify.engine.vocabulary import register, run_directly
from verify.results import Verdict

SORTS = {"float16": (5, 11), "bfloat16": (8, 8), "float32": (8, 24), "float64": (11, 53)}
REAL_DOMAINS = {d for d in kinds.NAMES if not kinds.get(d).integer}
TIMEOUT_MS = 800
MAX_INPUTS = 10           # scalar inputs; larger laws bit-blast too slowly to be worth it
METHOD = "z3 IEEE floating-point proof (round to nearest even, finite non-NaN inputs)"


def _interpretation(sort: z3.FPSortRef) -> Interpretation:
    def lit(x):
        return x if isinstance(x, z3.ExprRef) else z3.FPVal(float(x), sort)

    nan = z3.fpNaN(sort)

    def maximum(a, b):  # torch.maximum: NaN propagates, max(−0, +0) = +0
        a, b = lit(a), lit(b)
        return z3.If(z3.Or(z3.fpIsNaN(a), z3.fpIsNaN(b)), nan,
                     z3.If(z3.fpGT(a, b), a, z3.If(z3.fpGT(b, a), b,
                                                   z3.If(z3.fpIsNegative(a), b, a))))

    def minimum(a, b):  # torch.minimum: NaN propagates, min(−0, +0) = −0
        a, b = lit(a), lit(b)
        return z3.If(z3.Or(z3.fpIsNaN(a), z3.fpIsNaN(b)), nan,
                     z3.If(z3.fpLT(a, b), a, z3.If(z3.fpLT(b, a), b,
                                                   z3.If(z3.fpIsNegative(a), a, b))))

    def fmax(a, b):  # numpy.fmax: a NaN argument is ignored
        a, b = lit(a), lit(b)
        return z3.If(z3.fpIsNaN(a), b, z3.If(z3.fpIsNaN(b), a, maximum(a, b)))

    def fmin(a, b):
        a, b = lit(a), lit(b)
        return z3.If(z3.fpIsNaN(a), b, z3.If(z3.fpIsNaN(b), a, minimum(a, b)))

    def py_max(a, b):  # Python's max: the first unless the second compares greater
        a, b = lit(a), lit(b)
        return z3.If(z3.fpGT(b, a), b, a)

    def py_min(a, b):
        a, b = lit(a), lit(b)
        return z3.If(z3.fpLT(b, a), b, a)

    def where(c, a, b):
        if isinstance(c, bool):
            return a if c else b
        return z3.If(c, lit(a), lit(b))

    def absolute(x):
        return z3.fpAbs(lit(x))

    def sqrt(x):
        return z3.fpSqrt(z3.RNE(), lit(x))

    def unsupported(name):
        def f(*_a, **_k):
            raise Unsupported(f"{name} has no floating-point encoding here")
        f.unsupported = f"{name} has no floating-point encoding here"
        return f

    names = dict(maximum=maximum, minimum=minimum, where=where, abs=absolute, sqrt=sqrt,
                 exp=unsupported("exp"), log=unsupported("log"),
                 fma=lambda a, b, c: z3.fpFMA(z3.RNE(), lit(a), lit(b), lit(c)))
    return Interpretation(
        "z3-fp", Namespace("tl", **names), Namespace("math", fabs=absolute, **names),
        {"max": variadic(py_max, max), "min": variadic(py_min, min), "abs": absolute},
        np=Namespace("np", fallback=np, fmax=fmax, fmin=fmin, **names),
        torch=Namespace("torch", fmax=fmax, fmin=fmin, **names),
        literal=lambda x: z3.FPVal(x, sort))


register("z3-fp", lambda: _interpretation(z3.FPSort(*SORTS["float64"])),
         lambda: (z3.FPVal(7.0, z3.FPSort(*SORTS["float64"])), run_directly),
         "z3 IEEE floating-point terms of one format (exactness proofs in that format)")


@contextlib.contextmanager
def _value_equality():
    """``==`` on floating-point terms means IEEE equality (−0 = +0, NaN ≠ NaN) while a
    law runs, as it does on real floats; z3's own ``==`` is bitwise."""
    eq, ne = z3.FPRef.__eq__, z3.FPRef.__ne__
    z3.FPRef.__eq__ = lambda a, b: z3.fpEQ(a, b)
    z3.FPRef.__ne__ = lambda a, b: z3.Not(z3.fpEQ(a, b))
    try:
        yield
    finally:
        z3.FPRef.__eq__, z3.FPRef.__ne__ = eq, ne


def _ieee_bits(value: z3.ExprRef, fmt: str) -> int:
    """The IEEE bit pattern of a model's floating-point numeral, read from its sign,
    biased exponent and significand fields (``simplify(fpToIEEEBV(v))`` on a model value
    corrupts memory now and then in z3 5.4, and NaN has no bit pattern there)."""
    ebits, sbits = SORTS[fmt]
    top = ebits + sbits - 1
    if value.isNaN():
        return ((1 << ebits) - 1) << (sbits - 1) | 1 << (sbits - 2)
    sign = int(bool(value.isNegative())) << top
    if value.isInf():
        return sign | ((1 << ebits) - 1) << (sbits - 1)
    if value.isZero():
        return sign
    return (sign | value.exponent_as_long(True) << (sbits - 1)
            | value.significand_as_long())


def _to_float(value: z3.ExprRef, fmt: str) -> float:
    bits = _ieee_bits(value, fmt)
    if fmt == "float64":
        return struct.unpack("<d", struct.pack("<Q", bits))[0]
    if fmt == "float32":
        return struct.unpack("<f", struct.pack("<I", bits))[0]
    halfword = np.array([bits], dtype=np.uint16)
    if fmt == "float16":
        return float(halfword.view(np.float16)[0])
    return float(torch.from_numpy(halfword.view(np.int16)).view(torch.bfloat16)[0])


@dataclass(frozen=True)
class FloatProof:
    """The prover's answer in one format: ``PROVED``; ``REFUTED`` with ``values`` (law-
    shaped floats of the format, not yet replayed); ``UNKNOWN`` on a timeout."""
    status: Verdict
    values: list[Any] | None = None


def prove_exact(law: Law, fmt: str, instance: Mapping[str, Any] = {},
                timeout_ms: int = TIMEOUT_MS) -> FloatProof | None:
    """Whether ``law`` is exact in ``fmt`` (see ``FloatProof``), or ``None`` when the law
    is outside this prover."""
    vars_ = law.vars_for(instance)
    domains = [d for v in vars_ for d in v.component_domains()]
    if len(domains) > MAX_INPUTS or any(d not in REAL_DOMAINS for d in domains):
        return None
    sort = z3.FPSort(*SORTS[fmt])
    interp = _interpretation(sort)
    facts, symbols, values = [], [], []
    for v in vars_:
        comps = []
        for label, dom in zip(component_names(v), v.component_domains()):
            x = z3.FP(label, sort)
            facts += kinds.get(dom).fp_facts(x, sort)
            comps.append(x)
            symbols.append(x)
        values.append(shape_like(v, comps))
    try:
        with _value_equality():
            lhs = flatten(interp.rebind(law.lhs)(*values, **instance))
            rhs = flatten(interp.rebind(law.rhs)(*values, **instance))
            pre = flatten(interp.rebind(law.pre)(*values, **instance)) if law.pre else []
            differ = []
            for a, b in zip(lhs, rhs):
                if not (z3.is_fp(a) and z3.is_fp(b)):
                    return None
                differ.append(z3.Not(z3.Or(z3.fpEQ(a, b),
                                           z3.And(z3.fpIsNaN(a), z3.fpIsNaN(b)))))
    except (Unsupported, z3.Z3Exception, TypeError):
        return None
    if any(p is False for p in pre):
        return None
    query = Query([*facts, *[p for p in pre if isinstance(p, z3.BoolRef)], z3.Or(*differ)],
                  timeout_ms)
    answer = query.check()
    if answer == z3.unsat:
        return FloatProof(Verdict.PROVED)
    if answer == z3.sat:
        flat = [_to_float(query.value(x), fmt) for x in symbols]
        out, k = [], 0
        for v in vars_:
            size = len(v.component_domains())
            out.append(shape_like(v, flat[k:k + size]))
            k += size
        return FloatProof(Verdict.REFUTED, out)
    return FloatProof(Verdict.UNKNOWN)
