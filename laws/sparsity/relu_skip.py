"""Activation sparsity: after a ReLU, rows of the next weight whose activation is not
positive need not be read."""
import triton.language as tl

from ..core import Law, Property, Var


def dense_relu_matvec(*rows, n, m):
    """yⱼ = Σᵢ relu(xᵢ)·W_ij over every row; row i is (xᵢ, W_i0, …, W_i,m−1)."""
    return [sum(tl.maximum(r[0], 0.0) * r[1 + j] for r in rows) for j in range(m)]


def skipping_matvec(*rows, n, m):
    """Only rows with xᵢ > 0 are read (a data-dependent branch per row)."""
    y = [0.0] * m
    for r in rows:
        if r[0] > 0:
            y = [y[j] + r[0] * r[1 + j] for j in range(m)]
    return y


def _vars(n, m):
    """Row i: the activation xᵢ and the weight row it multiplies."""
    return tuple(Var(f"r{i}", (1 + m,), labels=("x",) + tuple(f"W{j}" for j in range(m)))
                 for i in range(n))


SKIP = Law(
    id="relu_skip.skip", property=Property.SPARSITY,
    statement="Σᵢ relu(xᵢ)·W_ij = Σ_{i: xᵢ > 0} xᵢ·W_ij",
    licenses="skip loading and multiplying the weight rows of non-positive activations "
             "(often most of them after a ReLU): activation-sparse inference in "
             "PowerInfer and Deja Vu-style sparse MLPs",
    vars=_vars,
    lhs=dense_relu_matvec, rhs=skipping_matvec,
    instances=({"n": 3, "m": 2}, {"n": 4, "m": 1}),
    bounded_by="n = 3 activations with 2 outputs, n = 4 with 1 output (z3 follows every "
               "sign pattern: 2ⁿ branches)",
    float_check=False,
    doc="relu(x) = max(x, 0) is 0 exactly where x ≤ 0, so those terms vanish. Proved by "
        "z3 over ℝ, following each of the 2ⁿ sign patterns of x. No float verdict: the "
        "skip branches on data, which the batched float interpretation cannot follow "
        "(in floats the identity also needs finite W: 0·∞ is NaN). Does not cover "
        "other activations (GELU, SiLU are never exactly 0, so nothing can be skipped "
        "without changing the result) or predicted sparsity (a predictor that guesses "
        "which rows are zero is an approximation).")

LAWS = [SKIP]
