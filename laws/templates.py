"""Property templates: each equation written once, instantiated for any combine.

An ``Equation`` is a law with its function left open: both sides take the function
first (``lhs(F, a, b, c) = F(F(a, b), c)``). ``instantiate`` closes it over one combine
and gives a ``Law``; ``Monoid.laws()`` (laws/core.py), the auditor (properties of a
user's function) and the exercises (a law set whose combine the learner writes) all
build their laws from the equations here, the way a typeclass law set is a value
reused by every instance.

>>> from laws.core import Var
>>> law = instantiate(ASSOCIATIVE, max, (Var("a"), Var("b"), Var("c")), id="max.assoc")
>>> law.lhs(1, 3, 2) == law.rhs(1, 3, 2) == 3
True

Does not cover: domains and preconditions (the caller gives the variables and ``pre``),
or how a law is decided (verify.decide).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from laws.core import Law, Property, Var, fold


@dataclass(frozen=True)
class Equation:
    """``lhs(F, *vars) = rhs(F, *vars)``: a property of an open function ``F``."""

    name: str                      # "associative", the law id's second part
    property: Property             # the property it belongs to
    statement: str                 # in function notation: f(f(a, b), c) = f(a, f(b, c))
    licenses: str                  # the optimization it licenses, in general terms
    var_names: tuple[str, ...]     # the variables, in the order the sides take them
    lhs: Callable[..., Any]
    rhs: Callable[..., Any]
    infix: str = ""                # in operator notation, for combines: (a ⊕ b) ⊕ c = …


def instantiate(eq: Equation, fn: Callable, vars: tuple[Var, ...] | Callable, /, *,
                id: str, statement: str | None = None, licenses: str | None = None,
                **fields: Any) -> Law:
    """The equation as a law about ``fn`` (a combine, or any function the equation
    takes). Both sides close over plain functions
    (the equation's sides and the combine), so the checker's rebinding reaches every
    function they call. Other ``Law`` fields (``pre``, ``instances``, ``doc`` …) pass
    through."""
    left, right = eq.lhs, eq.rhs

    def lhs(*values, **instance):
        return left(fn, *values, **instance)

    def rhs(*values, **instance):
        return right(fn, *values, **instance)

    fields.setdefault("property", eq.property)
    return Law(id=id, statement=statement or eq.statement,
               licenses=licenses or eq.licenses, vars=vars, lhs=lhs, rhs=rhs, **fields)


# --------------------------------------------------------------------------- helpers
def _mul(u, v):
    if isinstance(u, (tuple, list)):
        return [a * b for a, b in zip(u, v, strict=True)]
    return u * v


def _add(u, v):
    if isinstance(u, (tuple, list)):
        return [a + b for a, b in zip(u, v, strict=True)]
    return u + v


def _scale(s, v):
    if isinstance(v, (tuple, list)):
        return [s * a for a in v]
    return s * v


def swap01(x):
    """The transposition of the first two positions."""
    return [x[1], x[0]] + list(x[2:])


def cycle(x):
    """The cyclic shift by one: shift(x)ᵢ = x₍ᵢ₊₁₎ mod n."""
    return list(x[1:]) + [x[0]]


# --------------------------------------------------------------------------- combines
def _assoc_lhs(F, a, b, c):
    return F(F(a, b), c)


def _assoc_rhs(F, a, b, c):
    return F(a, F(b, c))


def _comm_lhs(F, a, b):
    return F(a, b)


def _comm_rhs(F, a, b):
    return F(b, a)


def _idem_lhs(F, a):
    return F(a, a)


def _idem_rhs(F, a):
    return a


ASSOCIATIVE = Equation(
    "associative", Property.ASSOCIATIVITY, "f(f(a, b), c) = f(a, f(b, c))",
    "chunking and parallel reduction or scan: reduce chunks independently and combine "
    "the partial results in any grouping (tl.reduce, tl.associative_scan, split-K, "
    "streaming over tiles)", ("a", "b", "c"), _assoc_lhs, _assoc_rhs,
    infix="(a ⊕ b) ⊕ c = a ⊕ (b ⊕ c)")
COMMUTATIVE = Equation(
    "commutative", Property.SYMMETRY, "f(a, b) = f(b, a)",
    "any order: tree reductions across lanes, atomics, merging chunks as they finish",
    ("a", "b"), _comm_lhs, _comm_rhs, infix="a ⊕ b = b ⊕ a")
IDEMPOTENT = Equation(
    "idempotent", Property.REDUNDANCY, "f(a, a) = a",
    "overlapping chunks may be combined twice (halo re-reads, overlapping windows)",
    ("a",), _idem_lhs, _idem_rhs, infix="a ⊕ a = a")
IDENTITY_LICENSES = ("padding and empty chunks: masked lanes and the fold's start may "
                     "hold the identity")


def identity(e: Any, shown: str) -> Equation:
    """Left and right identity of the element ``e`` (``shown`` is how it is printed)."""
    def lhs(F, a):
        return (F(e, a), F(a, e))

    def rhs(F, a):
        return (a, a)

    return Equation("identity", Property.ASSOCIATIVITY,
                    f"f(e, a) = a = f(a, e) with e = {shown}", IDENTITY_LICENSES, ("a",),
                    lhs, rhs, infix=f"e ⊕ a = a = a ⊕ e with e = {shown}")


def homomorphism(lift: Callable, lower: Callable, spec: Callable,
                 indexed: bool = False) -> Equation:
    """``lower(lift(x₁) ⊕ … ⊕ lift(xₙ)) = spec(x₁, …, xₙ)``: the fold of the lifted data
    computes the specification. The sides take the data (any number) and, when called
    by the catalog, the size ``n`` as a keyword."""
    def lhs(F, *xs, **_):
        return lower(fold(F, [lift(x, i) if indexed else lift(x)
                              for i, x in enumerate(xs)]))

    def rhs(F, *xs, **_):
        return spec(list(xs))

    return Equation("homomorphism", Property.ASSOCIATIVITY,
                    "lower(lift(x₁) ⊕ … ⊕ lift(xₙ)) = spec(x₁, …, xₙ)",
                    "streaming and chunked evaluation compute the specification",
                    (), lhs, rhs, infix="lower(lift(x₁) ⊕ … ⊕ lift(xₙ)) = spec(x₁, …, xₙ)")


# --------------------------------------------------------------------------- two arguments
def _sep_lhs(F, x, x2, y, y2):
    return _mul(F(x, y), F(x2, y2))


def _sep_rhs(F, x, x2, y, y2):
    return _mul(F(x, y2), F(x2, y))


def _addsep_lhs(F, x, x2, y, y2):
    return _add(F(x, y), F(x2, y2))


def _addsep_rhs(F, x, x2, y, y2):
    return _add(F(x, y2), F(x2, y))


SEPARABLE = Equation(
    "separable", Property.SEPARABILITY,
    "f(x, y)·f(x′, y′) = f(x, y′)·f(x′, y)  (rank 1: f = g(x)·h(y))",
    "factorization: the table [f(xᵢ, yⱼ)] has rank 1, f = g(x)·h(y); keep g and h "
    "(m + n numbers, not m·n) and factor Σⱼ f(x, yⱼ)·vⱼ = g(x)·Σⱼ h(yⱼ)·vⱼ",
    ("x", "x2", "y", "y2"), _sep_lhs, _sep_rhs)
ADDITIVELY_SEPARABLE = Equation(
    "additively_separable", Property.SEPARABILITY,
    "f(x, y) + f(x′, y′) = f(x, y′) + f(x′, y)  (f = g(x) + h(y))",
    "f = g(x) + h(y): broadcast instead of materializing the table; max and softmax "
    "over y decompose (maxⱼ f(x, yⱼ) = g(x) + maxⱼ h(yⱼ))",
    ("x", "x2", "y", "y2"), _addsep_lhs, _addsep_rhs)
SYMMETRIC = Equation(
    "symmetric", Property.SYMMETRY, "f(x, y) = f(y, x)",
    "a symmetric pairwise table: compute one triangle and mirror it",
    ("x", "y"), _comm_lhs, _comm_rhs)


# --------------------------------------------------------------------------- one scalar
def _additive_lhs(F, x, y):
    return F(x + y)


def _additive_rhs(F, x, y):
    return _add(F(x), F(y))


def _monotone_lhs(F, x, y):
    return F(max(x, y))


def _monotone_rhs(F, x, y):
    return max(F(x), F(y))


def _exp_rhs(F, x, y):
    return F(x) * F(y)


def _twice(F, x):
    return F(F(x))


def _once(F, x):
    return F(x)


ADDITIVE = Equation(
    "additive", Property.SEPARABILITY, "f(x + y) = f(x) + f(y)",
    "f distributes over sums: apply f once after a reduction instead of to every term",
    ("x", "y"), _additive_lhs, _additive_rhs)
MONOTONE = Equation(
    "monotone", Property.SPARSITY, "f(max(x, y)) = max(f(x), f(y))  (f is nondecreasing)",
    "max, argmax and top-k commute with f: select on the inputs and apply f to the "
    "winners only (argmax of softmax = argmax of logits)",
    ("x", "y"), _monotone_lhs, _monotone_rhs)
EXPONENTIAL = Equation(
    "exponential", Property.SEPARABILITY, "f(x + y) = f(x)·f(y)",
    "f(x + y) = f(x)·f(y): a kernel f(q + k) factors into f(q)·f(k) (the exp of "
    "softmax splits into row and column factors)",
    ("x", "y"), _additive_lhs, _exp_rhs)
IDEMPOTENT_MAP = Equation(
    "idempotent", Property.REDUNDANCY, "f(f(x)) = f(x)",
    "applying f twice is applying it once: duplicated or fused applications (clamps, "
    "projections) can be deduplicated",
    ("x",), _twice, _once)


# --------------------------------------------------------------------------- vectors
def _shift_lhs(F, x):
    return F(cycle(x))


def _shift_rhs(F, x):
    return cycle(F(x))


def _linear_lhs(F, s, x, y):
    return F([s * a + b for a, b in zip(x, y, strict=True)])


def _linear_rhs(F, s, x, y):
    return _add(_scale(s, F(x)), F(y))


PERMUTATION_INVARIANT_LICENSES = (
    "order does not matter: process the data in any order or layout (sharding, "
    "atomics, sorting first)")
PERMUTATION_EQUIVARIANT_LICENSES = (
    "reordering commutes with f: permute, shard or sort the data, apply f, undo the "
    "permutation (token-parallel layouts, MoE dispatch)")
SHIFT_EQUIVARIANT = Equation(
    "shift_equivariant", Property.SYMMETRY,
    "f(shift(x)) = shift(f(x)), shift(x)ᵢ = x₍ᵢ₊₁₎ mod n",
    "shifting commutes with f: one kernel slides over every position (convolution, FFT "
    "evaluation)", ("x",), _shift_lhs, _shift_rhs)
LINEAR = Equation(
    "linear", Property.SEPARABILITY, "f(s·x + y) = s·f(x) + f(y)",
    "superposition: f(s·x + y) = s·f(x) + f(y); apply f to chunk sums, batch it as a "
    "matrix product, factor it", ("s", "x", "y"), _linear_lhs, _linear_rhs)
LOCALITY_LICENSES = ("tiling with a halo: an output tile needs only its input tile plus "
                     "r neighbours on each side (stencils, sliding-window attention)")


def permutation_invariant(perm: Callable, label: str) -> Equation:
    """``f(σx) = f(x)`` for one permutation σ (a generator of the group)."""
    def lhs(F, x):
        return F(perm(x))

    return Equation(f"permutation_invariant_{label}", Property.SYMMETRY,
                    f"f(σx) = f(x) for σ = {label}", PERMUTATION_INVARIANT_LICENSES,
                    ("x",), lhs, _once)


def permutation_equivariant(perm: Callable, label: str) -> Equation:
    """``f(σx) = σf(x)`` for one permutation σ."""
    def lhs(F, x):
        return F(perm(x))

    def rhs(F, x):
        return perm(F(x))

    return Equation(f"permutation_equivariant_{label}", Property.SYMMETRY,
                    f"f(σx) = σf(x) for σ = {label}", PERMUTATION_EQUIVARIANT_LICENSES,
                    ("x",), lhs, rhs)


def independent(i: int, j: int, scalar_out: bool) -> Equation:
    """Output ``i`` (the result, when scalar) does not change when ``x[j]`` alone does."""
    def replaced(x, y):
        z = list(x)
        z[j] = y
        return z

    if scalar_out:
        def lhs(F, x, y):
            return F(list(x))

        def rhs(F, x, y):
            return F(replaced(x, y))
    else:
        def lhs(F, x, y):
            return F(list(x))[i]

        def rhs(F, x, y):
            return F(replaced(x, y))[i]
    return Equation(f"independent_{i}_{j}", Property.LOCALITY,
                    f"output {i} does not change when x[{j}] does", LOCALITY_LICENSES,
                    ("x", "y"), lhs, rhs)
