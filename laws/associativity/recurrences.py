"""Linear recurrences hₜ = aₜ·hₜ₋₁ + bₜ as a monoid of affine maps: the scan behind
S4/Mamba and parallel RNNs."""
import numpy as np

from ..core import Law, Property, Var
from ..monoid import Induction, Monoid
from . import combines


def _compose(p, q):
    return combines.linear_recurrence(p[0], p[1], q[0], q[1])


def _sequential(steps):
    h = 0.0
    for a, b in steps:
        h = a * h + b
    return h


LINEAR_RECURRENCE = Monoid(
    family="linear_recurrence", combine=_compose, identity=(1.0, 0.0),
    state=Var("p", (2,), labels=("a", "b")), datum=Var("x", (2,), labels=("a", "b")),
    lift=lambda x: x, lower=lambda p: p[1], spec=_sequential,
    statement="(a, b) ⊕ (a', b') = (a·a', a'·b + b'): first h ↦ a·h + b, then a'·h + b'",
    kernels=("linear_scan", "selective_scan"), references=("blelloch1990", "gu2023"),
    induction=Induction(
        summary=Var("σ", (2,), labels=("P", "h")), empty=(1.0, 0.0),
        update=lambda s, x: (s[0] * x[0], x[0] * s[1] + x[1]), finish=lambda s: s[1],
        alpha=lambda s: s, about="the sequential loop h ← a·h + b from h = 0 (with P = Πa)"),
    licenses="a recurrence evaluated by a parallel scan in O(log n) depth (Mamba's "
             "selective scan, S5, linear RNNs, parallel IIR filters)",
    doc="Composition of affine maps of the line. Not commutative. The fold from h₀ = 0 "
        "gives hₙ. Does not cover float error growth when |a| > 1.")


def _matrix(p):
    m = np.empty((2, 2), dtype=object)
    m[0, 0], m[0, 1], m[1, 0], m[1, 1] = p[0], p[1], 0.0, 1.0
    return m


def _affine(A1, b1, A2, b2):
    """Apply (A1, b1) then (A2, b2): h ↦ A2(A1 h + b1) + b2."""
    return A2 @ A1, A2 @ b1 + b2


_MAT = Var("A", (2, 2))
_VEC = Var("b", (2, 1))  # a column


def _named(var, name):
    return Var(name, var.shape, var.domain, var.tuple_state)


AFFINE_MATRIX_FORM = Law(
    id="affine_recurrence.matrix_form", property=Property.ASSOCIATIVITY,
    statement="(a, b) ⊕ (a', b') corresponds to [[a', b'], [0, 1]]·[[a, b], [0, 1]]",
    licenses="the scalar recurrence combine is a matrix product, so any scan of "
             "matrices (and its associativity) applies",
    vars=(Var("p", (2,)), Var("q", (2,))),
    lhs=lambda p, q: _matrix(_compose(p, q)), rhs=lambda p, q: _matrix(q) @ _matrix(p),
    combine=_compose, kernels=("linear_scan",),
    doc="Affine maps of the line as 2×2 homogeneous matrices. Exact.")

AFFINE_ASSOCIATIVE = Law(
    id="affine_recurrence.associative", property=Property.ASSOCIATIVITY,
    statement="((A₁,b₁) ⊕ (A₂,b₂)) ⊕ (A₃,b₃) = (A₁,b₁) ⊕ ((A₂,b₂) ⊕ (A₃,b₃)), "
              "(A,b) ⊕ (A',b') = (A'A, A'b + b')",
    licenses="vector state recurrences hₜ = Aₜhₜ₋₁ + bₜ scanned in parallel (S5, "
             "linear recurrent units with dense transitions)",
    vars=(_named(_MAT, "A1"), _named(_VEC, "b1"), _named(_MAT, "A2"), _named(_VEC, "b2"),
          _named(_MAT, "A3"), _named(_VEC, "b3")),
    lhs=lambda A1, b1, A2, b2, A3, b3: _affine(*_affine(A1, b1, A2, b2), A3, b3),
    rhs=lambda A1, b1, A2, b2, A3, b3: _affine(A1, b1, *_affine(A2, b2, A3, b3)),
    bounded_by="2×2 state matrices", references=("blelloch1990",),
    doc="Composition of affine maps with dense 2×2 matrices, proved at that size "
        "(matrix product is associative in general; the proof here is for 2×2).")

LAWS = [LINEAR_RECURRENCE, AFFINE_MATRIX_FORM, AFFINE_ASSOCIATIVE]
