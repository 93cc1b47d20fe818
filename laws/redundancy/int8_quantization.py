"""Symmetric per-channel int8 quantization: the rounding error of each weight, the
matmul error it implies, and the scale rounded instead of the value."""
from ..core import BOUNDED, FAILS, Law, Property, Var

QMAX = 127


def scales(W):
    """Per output channel (column) c: s_c = max_i |W_ic| / 127."""
    rows, cols = W.shape
    return [max(abs(W[i][c]) for i in range(rows)) / QMAX for c in range(cols)]


def rounding_pre(W, Q):
    """Q is W/s rounded to the nearest integer (any tie rule): |W_ic/s_c − Q_ic| ≤ 1/2,
    on channels that are not all zero (s_c > 0)."""
    s = scales(W)
    rows, cols = W.shape
    return ([s[c] > 0 for c in range(cols)]
            + [abs(W[i][c] / s[c] - Q[i][c]) <= 0.5 for i in range(rows) for c in range(cols)])


def dequantize(W, Q):
    s = scales(W)
    rows, cols = W.shape
    return [[s[c] * Q[i][c] for c in range(cols)] for i in range(rows)]


def _entries(M):
    rows, cols = M.shape
    return [M[i][c] for i in range(rows) for c in range(cols)]


def _rounding_lhs(W, Q):
    return [list(row) for row in W], _entries(Q)


def _rounding_rhs(W, Q):
    rows, cols = W.shape
    return dequantize(W, Q), [0] * (rows * cols)


def _rounding_bound(W, Q):
    s = scales(W)
    rows, cols = W.shape
    return [s[c] / 2 for i in range(rows) for c in range(cols)] + [QMAX] * (rows * cols)


ROUNDING = Law(
    id="int8_quantization.rounding", property=Property.REDUNDANCY, exactness=BOUNDED,
    statement="s_c = max_i |W_ic|/127, q = round(W/s) ⇒ |W_ic − s_c·q_ic| ≤ s_c/2 and "
              "|q_ic| ≤ 127",
    licenses="store weights as int8 plus one scale per output channel (4× less memory "
             "and traffic than fp32, 2× less than fp16) with a known per-element error: "
             "int8 weight quantization in TensorRT, PyTorch's quantized linear layers, "
             "LLM.int8() and bitsandbytes",
    vars=(Var("W", (2, 2)), Var("Q", (2, 2), "integer")),
    lhs=_rounding_lhs, rhs=_rounding_rhs, error_bound=_rounding_bound, pre=rounding_pre,
    bounded_by="a 2×2 weight (two channels of two entries)",
    references=("jacob2018",), kernels=("int8_matmul",),
    doc="Round to nearest is modeled without a round() function: Q is an integer "
        "variable with the precondition |W/s − Q| ≤ 1/2 (every round-to-nearest, any tie "
        "rule, satisfies it). Two claims per element, proved by z3 over ℝ and ℤ for a "
        "2×2 weight with per-column scales: the dequantized value s·Q is within s/2 of W, "
        "and Q fits in int8 (|Q| ≤ 127, since |W/s| ≤ 127 and Q is an integer within 1/2 "
        "of it). Does not cover all-zero channels (s = 0: any scale works, the values "
        "are 0), asymmetric (zero-point) quantization, or the float error of computing "
        "s and W/s.")


def _matmul_vars():
    return (Var("x", (1, 2)), Var("W", (2, 2)), Var("Q", (2, 2), "integer"))


def _matmul_pre(x, W, Q):
    """Round to nearest in the division-free form the rounding law proves:
    |W_ic − s_c·Q_ic| ≤ s_c/2 with s_c > 0 (equivalent to |W_ic/s_c − Q_ic| ≤ 1/2)."""
    s = scales(W)
    rows, cols = W.shape
    return ([s[c] > 0 for c in range(cols)]
            + [abs(W[i][c] - s[c] * Q[i][c]) <= s[c] / 2
               for i in range(rows) for c in range(cols)])


def _quantized_matmul(x, W, Q):
    s = scales(W)
    rows, cols = W.shape
    # x·(s ⊙ Q): the int8 product Σ_i x_i·Q_ic scaled once per output channel.
    return [[s[c] * sum(x[0][i] * Q[i][c] for i in range(rows)) for c in range(cols)]]


def _matmul_bound(x, W, Q):
    s = scales(W)
    rows, cols = W.shape
    return [sum(abs(x[0][i]) for i in range(rows)) * s[c] / 2 for c in range(cols)]


MATMUL_BOUND = Law(
    id="int8_quantization.matmul_bound", property=Property.REDUNDANCY, exactness=BOUNDED,
    statement="|(xW)_c − s_c·(xQ)_c| ≤ (Σ_i |x_i|)·s_c/2 for every output channel c",
    licenses="run the matmul on int8 weights and rescale each output channel once, with a "
             "worst-case error known before running it (weight-only int8 GEMMs in "
             "TensorRT-LLM and bitsandbytes, the int8_matmul kernel here)",
    vars=_matmul_vars(), pre=_matmul_pre,
    lhs=lambda x, W, Q: x @ W, rhs=_quantized_matmul, error_bound=_matmul_bound,
    bounded_by="x ∈ ℝ^{1×2}, a 2×2 weight (two channels)",
    references=("jacob2018",), kernels=("int8_matmul",),
    doc="The rounding law summed: (xW)_c − s_c(xQ)_c = Σ_i x_i (W_ic − s_c Q_ic), each "
        "term at most |x_i|·s_c/2. The precondition is the rounding law's conclusion "
        "|W − s·Q| ≤ s/2 (equivalent to round to nearest, since s > 0). Proved by z3 over "
        "ℝ and ℤ for x ∈ ℝ^{1×2} and a 2×2 weight with per-column scales (z3 does not "
        "finish with 3 inputs: the sum of products with absolute values is nonlinear). "
        "Does not "
        "cover quantized activations (x also rounded: add the symmetric term), the "
        "float error of the accumulation (the kernel's certificate adds it), or the "
        "probabilistic level (√(Σ x_i²)·s_c/√12 for independent rounding errors).")


def _scale_vars():
    return (Var("W", (2, 2)), Var("sigma", (2,), "integer", tuple_state=False))


def _scale_pre(W, sigma):
    """σ_c is s_c rounded to the nearest integer."""
    s = scales(W)
    return ([s[c] > 0 for c in range(2)]
            + [abs(s[c] - sigma[c]) <= 0.5 for c in range(2)])


def _round_scale_rhs(W, sigma):
    s = scales(W)
    return [[sigma[c] * (W[i][c] / s[c]) for c in range(2)] for i in range(2)]


ROUND_SCALE = Law(
    id="int8_quantization.round_scale", property=Property.REDUNDANCY, expect=FAILS,
    exactness=BOUNDED,
    statement="|W_ic − round(s_c)·(W_ic/s_c)| ≤ s_c/2 (the scale rounded, the values not)",
    licenses="nothing: rounding the scale instead of the value scales every weight by "
             "round(s)/s, an error proportional to |W| rather than bounded by s/2",
    vars=_scale_vars(), pre=_scale_pre,
    lhs=lambda W, sigma: [list(row) for row in W], rhs=_round_scale_rhs,
    error_bound=lambda W, sigma: [s / 2 for s in scales(W)] * 2,
    teaches="int8_quantization.rounding", references=("jacob2018",),
    doc="With σ = round(s), W − σ·W/s = W·(1 − σ/s): for the largest weight of a channel "
        "(|W| = 127s) the error is 127·|s − σ| (up to 63.5), which exceeds the bound s/2 "
        "whenever |s − σ| > s/254; a scale below 1/2 rounds to σ = 0 and loses every "
        "weight. Only scales within s/254 of an integer stay inside the bound.")

LAWS = [ROUNDING, MATMUL_BOUND, ROUND_SCALE]
