"""Premultiplying two weights: a chain of linear maps applied as one."""
from ..core import Law, Property, Var

_SHAPES = ({"m": 1, "d": 2, "h": 2, "k": 2}, {"m": 2, "d": 2, "h": 3, "k": 2},
           {"m": 1, "d": 3, "h": 1, "k": 3})


def _vars(m, d, h, k):
    return (Var("x", (m, d)), Var("W1", (d, h)), Var("W2", (h, k)))


PREMULTIPLY = Law(
    id="matmul_reassociation.premultiply", property=Property.SEPARABILITY,
    secondary=Property.ASSOCIATIVITY,
    statement="(xW₁)W₂ = x(W₁W₂) for x ∈ ℝ^{m×d}, W₁ ∈ ℝ^{d×h}, W₂ ∈ ℝ^{h×k}",
    licenses="fold two consecutive linear maps into one precomputed weight, or split one "
             "into a thin chain, whichever costs fewer flops (m·h·(d+k) versus m·d·k): "
             "merging a LoRA adapter's BA into the base weight (PEFT merge_and_unload), "
             "absorbing the key up-projection into the query projection in DeepSeek-V2's "
             "multi-head latent attention",
    vars=_vars,
    lhs=lambda x, W1, W2, **_: (x @ W1) @ W2,
    rhs=lambda x, W1, W2, **_: x @ (W1 @ W2),
    instances=_SHAPES,
    bounded_by="symbolic shapes (m, d, h, k) ∈ {(1,2,2,2), (2,2,3,2), (1,3,1,3)}, every "
               "entry a free real",
    references=("hu2021",),
    doc="Associativity of the matrix product, proved by z3 over ℝ at the listed symbolic "
        "shapes (not for every shape; the (1,3,1,3) instance is a rank-1 bottleneck). "
        "Does not cover a nonlinearity between the two maps (then nothing can be "
        "premultiplied), nor float rounding: the sums are grouped differently (see the "
        "float verdicts).")

LAWS = [PREMULTIPLY]
