"""LoRA: a low-rank update applied as two thin matrix products instead of a merged
weight, what it saves, and the update applied in the wrong order."""
from ..core import FAILS, Law, Property, Var

_SHAPES = ({"m": 1, "d": 2, "k": 2, "r": 1}, {"m": 2, "d": 2, "k": 3, "r": 1},
           {"m": 1, "d": 3, "k": 2, "r": 2}, {"m": 2, "d": 3, "k": 3, "r": 2})


def _lora_vars(m, d, k, r):
    return (Var("x", (m, d)), Var("W", (d, k)), Var("B", (d, r)), Var("A", (r, k)))


def merged(x, W, B, A):
    """The merged layer: one product with the updated weight."""
    return x @ (W + B @ A)


def factored(x, W, B, A):
    """The LoRA forward pass: base product plus the adapter through the rank-r bottleneck."""
    return x @ W + (x @ B) @ A


FACTORED_PRODUCT = Law(
    id="lora.factored_product", property=Property.SEPARABILITY,
    statement="x(W + BA) = xW + (xB)A for x ∈ ℝ^{m×d}, W ∈ ℝ^{d×k}, B ∈ ℝ^{d×r}, A ∈ ℝ^{r×k}",
    licenses="keep the rank-r adapter factored and apply it as two thin products (m·r·(d+k) "
             "extra flops instead of re-materializing a d×k weight per adapter): LoRA "
             "fine-tuning in Hugging Face PEFT, multi-adapter serving in S-LoRA and vLLM",
    vars=_lora_vars,
    lhs=lambda x, W, B, A, **_: merged(x, W, B, A),
    rhs=lambda x, W, B, A, **_: factored(x, W, B, A),
    instances=_SHAPES,
    bounded_by="symbolic shapes (m, d, k, r) ∈ {(1,2,2,1), (2,2,3,1), (1,3,2,2), (2,3,3,2)}, "
               "every entry a free real",
    references=("hu2021",), kernels=("lora",),
    doc="x(W + BA) = xW + (xB)A: distributivity of the matrix product over the sum, then "
        "associativity (x(BA) = (xB)A). Proved by z3 over ℝ at the four symbolic shapes "
        "listed (each entry of x, W, B, A a free real); not proved for every shape, nor "
        "in the free noncommutative ring (that it follows there from the two ring axioms "
        "named is the argument in words, not machine-checked). Does not cover float "
        "rounding: the two sides sum in different orders (see the float verdicts), nor "
        "the LoRA scaling α/r (a scalar folded into B or A).")


def _count_vars():
    return (Var("d", (), "natural"), Var("k", (), "natural"), Var("r", (), "natural"))


def _count_pre(d, k, r):
    return [d >= 1, k >= 1, r >= 1, 2 * r < min(d, k)]


PARAMETER_COUNT = Law(
    id="lora.parameter_count", property=Property.SEPARABILITY,
    statement="d, k, r ∈ ℕ, 1 ≤ r, 2r < min(d, k) ⇒ r(d + k) < dk and "
              "r(d + k)·min(d, k) ≤ 2r·dk",
    licenses="training and storing r(d+k) adapter parameters per d×k weight instead of dk "
             "(LoRA's memory saving; PEFT reports this count as trainable parameters)",
    vars=_count_vars(),
    lhs=lambda d, k, r: (r * (d + k) < d * k, r * (d + k) * min(d, k) <= 2 * r * d * k),
    rhs=lambda d, k, r: (True, True),
    pre=_count_pre, float_check=False,
    references=("hu2021",), kernels=("lora",),
    doc="The factors B (d×r) and A (r×k) hold r(d+k) numbers. When 2r < min(d, k) that is "
        "strictly fewer than the dk of the full update, and the fraction kept, "
        "r(d+k)/(dk) = r/d + r/k, is at most 2r/min(d, k). Proved over the integers for "
        "every d, k, r (unbounded). The exact threshold is r < dk/(d+k); the sufficient "
        "condition 2r < min(d, k) is the one stated. Does not cover optimizer state or "
        "activation memory, nor the cost of the base weight (frozen, shared).")


def wrong_order(x, W, B, A):
    """The adapter's factors multiplied in the wrong order (A first, then B)."""
    return x @ W + (x @ A) @ B


WRONG_ORDER = Law(
    id="lora.wrong_order", property=Property.SEPARABILITY, expect=FAILS,
    statement="x(W + BA) = xW + (xA)B (square shapes d = k = r = 2, so both are defined)",
    licenses="nothing: matrix products do not commute, so the adapter's factors cannot be "
             "applied in either order",
    vars=(Var("x", (1, 2)), Var("W", (2, 2)), Var("B", (2, 2)), Var("A", (2, 2))),
    lhs=lambda x, W, B, A: merged(x, W, B, A),
    rhs=lambda x, W, B, A: wrong_order(x, W, B, A),
    teaches="lora.factored_product", references=("hu2021",),
    doc="x(W + BA) ≠ xW + (xA)B in general: x(BA) = (xB)A, but (xA)B = x(AB) and AB ≠ BA. "
        "Square shapes are used so that the wrong order is even defined; for d ≠ r it is a "
        "shape error.")

LAWS = [FACTORED_PRODUCT, PARAMETER_COUNT, WRONG_ORDER]
