"""Structured pruning: a hidden unit whose outgoing weights are all zero is removed whole,
and the smaller dense layer computes the same (separability: the layer is a sum of
per-unit terms; sparsity: one term is zero). And the unit pruned for zero incoming
weights, whose bias still fires."""
from ..core import FAILS, Law, Property, Var

H = 3  # hidden units; unit 2 is pruned


def _relu(v):
    return max(v, 0)


def _vars():
    return (Var("x", (1, 2)), Var("W1", (2, H)), Var("b", (H,), tuple_state=False),
            Var("W2", (H, 2)))


def mlp(x, W1, b, W2, units=range(H)):
    """y = Σ_{j ∈ units} relu(x·W1[:, j] + b_j)·W2[j, :] (a two-layer MLP written as the
    sum over its hidden units)."""
    hidden = {j: _relu(sum(x[0][i] * W1[i][j] for i in range(2)) + b[j]) for j in units}
    return [sum(hidden[j] * W2[j][c] for j in units) for c in range(2)]


DROP_UNITS = Law(
    id="structured_pruning.drop_units", property=Property.SPARSITY,
    secondary=Property.SEPARABILITY,
    statement="W2[j, :] = 0 ⇒ relu(xW1 + b)W2 = relu(xW1' + b')W2' with unit j's column "
              "of W1, entry of b and row of W2 removed",
    licenses="remove whole neurons, heads or channels with zero (or negligible) outgoing "
             "weights and run a smaller dense layer at full hardware efficiency, unlike "
             "unstructured zeros (structured pruning in torch.nn.utils.prune.ln_structured, "
             "NVIDIA's 2:4 and channel pruning, LLM-Pruner)",
    vars=_vars(), pre=lambda x, W1, b, W2: [W2[2][c] == 0 for c in range(2)],
    lhs=lambda x, W1, b, W2: mlp(x, W1, b, W2),
    rhs=lambda x, W1, b, W2: mlp(x, W1, b, W2, units=range(2)),
    bounded_by="x ∈ ℝ^{1×2}, 3 hidden units (one removed), 2 outputs",
    float_check=False,
    doc="The layer separates into a sum of per-unit terms relu(x·W1[:, j] + b_j)·W2[j, :] "
        "(separability); a unit whose outgoing row is zero contributes exactly 0 "
        "(sparsity), so the term, and with it the unit's column, bias and row, can be "
        "dropped. Proved by z3 over ℝ. The book's exercise pairs these two properties. "
        "Does not cover pruning weights that are small but not zero (the error is then "
        "relu(·)·|W2[j, :]|, bounded but not zero), nor fine-tuning after pruning.")

ZERO_INCOMING = Law(
    id="structured_pruning.zero_incoming", property=Property.SPARSITY, expect=FAILS,
    statement="W1[:, j] = 0 ⇒ the unit j can be removed (its incoming weights are zero)",
    licenses="nothing: a unit with zero incoming weights still outputs relu(b_j), a "
             "constant its outgoing weights carry into every output",
    vars=_vars(), pre=lambda x, W1, b, W2: [W1[i][2] == 0 for i in range(2)],
    lhs=lambda x, W1, b, W2: mlp(x, W1, b, W2),
    rhs=lambda x, W1, b, W2: mlp(x, W1, b, W2, units=range(2)),
    teaches="structured_pruning.drop_units", float_check=False,
    doc="Removing it is exact only if b_j ≤ 0 (or its constant is folded into the next "
        "layer's bias, which is a rewrite, not a removal).")

LAWS = [DROP_UNITS, ZERO_INCOMING]
