"""Tensor parallelism: a matmul split by columns (each device a slice of the outputs,
element-wise functions applied per slice) or by rows (each device a partial product,
summed by an all-reduce), and the nonlinearity applied before the row split's sum."""
from ..core import FAILS, Law, Property, Var


def _relu(v):
    return max(v, 0)


def _vars():
    return (Var("x", (1, 2)), Var("W", (2, 2)))


def column_full(x, W):
    y = x @ W
    return [_relu(y[0][c]) for c in range(2)]


def column_split(x, W):
    """Device c holds column c of W and computes relu of its own output slice; the
    slices are concatenated (an all-gather) — or kept split for the next row-split."""
    return [_relu(sum(x[0][i] * W[i][c] for i in range(2))) for c in range(2)]


def row_full(x, W):
    y = x @ W
    return [y[0][c] for c in range(2)]


def row_split(x, W, act=None):
    """Device i holds row i of W and input feature x_i; the partial products x_i·W_i
    are summed by an all-reduce. ``act``: a nonlinearity applied to each partial product
    before the sum (the near miss)."""
    parts = [[x[0][i] * W[i][c] for c in range(2)] for i in range(2)]
    if act is not None:
        parts = [[act(v) for v in part] for part in parts]
    return [parts[0][c] + parts[1][c] for c in range(2)]


COLUMN_SPLIT = Law(
    id="tensor_parallel.column_split", property=Property.SEPARABILITY,
    statement="relu(x[W₁ | W₂]) = [relu(xW₁) | relu(xW₂)]",
    licenses="split a layer's output features across devices, applying the element-wise "
             "activation on each device without communication (Megatron-LM's column-"
             "parallel linear, the first matmul of a tensor-parallel MLP)",
    vars=_vars(), lhs=column_full, rhs=column_split,
    bounded_by="x ∈ ℝ^{1×2}, W ∈ ℝ^{2×2} split into 2 column shards",
    float_check=False,
    doc="Each output column depends only on its own column of W, and an element-wise "
        "function acts on each output separately. Proved by z3 over ℝ. Does not cover "
        "functions that mix outputs (softmax over the features, a layer norm): those "
        "need the gather first.")

ROW_SPLIT = Law(
    id="tensor_parallel.row_split", property=Property.SEPARABILITY,
    statement="[x₁ | x₂]·[W₁; W₂] = x₁W₁ + x₂W₂ (partial products summed by an "
              "all-reduce)",
    licenses="split a layer's input features across devices; one all-reduce sums the "
             "partial products (Megatron-LM's row-parallel linear, the second matmul of "
             "a tensor-parallel MLP, fed directly by the column-parallel one)",
    vars=_vars(), lhs=row_full, rhs=row_split,
    bounded_by="x ∈ ℝ^{1×2}, W ∈ ℝ^{2×2} split into 2 row shards",
    doc="A matmul is a sum over the inner index, which splits into the devices' partial "
        "sums. Proved by z3 over ℝ. The float verdicts show that the sum's order (the "
        "all-reduce's) may change the bits.")

ACTIVATION_BEFORE_SUM = Law(
    id="tensor_parallel.activation_before_sum", property=Property.SEPARABILITY,
    expect=FAILS,
    statement="relu(x₁W₁) + relu(x₂W₂) = relu(x₁W₁ + x₂W₂) (the activation applied to "
              "the row split's partial products)",
    licenses="nothing: an element-wise nonlinearity does not distribute over the "
             "all-reduce's sum; that is why the first matmul of an MLP is split by "
             "columns, not rows",
    vars=_vars(), lhs=lambda x, W: [_relu(v) for v in row_full(x, W)],
    rhs=lambda x, W: row_split(x, W, act=_relu), teaches="tensor_parallel.row_split",
    float_check=False,
    doc="relu(a) + relu(b) ≠ relu(a + b) whenever a and b have opposite signs.")

LAWS = [COLUMN_SPLIT, ROW_SPLIT, ACTIVATION_BEFORE_SUM]
