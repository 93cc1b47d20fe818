"""Data parallelism: the gradient of the batch's mean loss is the mean of equal shards'
gradients (what an all-reduce of gradients computes), and shards of unequal size
averaged as if equal."""
from ..core import FAILS, Law, Property, Var

N = 4  # examples in the batch, two features each, a linear model


def _vars():
    return (Var("w", (2,), tuple_state=False),) + tuple(
        Var(f"e{i}", (3,), labels=("x0", "x1", "y")) for i in range(N))


def gradient(w, examples):
    """∇_w of (1/|B|)·Σ (w·x − y)² over the examples given: (2/|B|)·Σ (w·x − y)·x."""
    n = len(examples)
    g = [0, 0]
    for e in examples:
        r = w[0] * e[0] + w[1] * e[1] - e[2]
        g = [g[0] + 2 * r * e[0] / n, g[1] + 2 * r * e[1] / n]
    return g


def averaged(w, *examples, split=2):
    """Each device's gradient on its shard, then the mean over the two devices (the
    all-reduce divided by the number of devices)."""
    g0, g1 = gradient(w, examples[:split]), gradient(w, examples[split:])
    return [(g0[j] + g1[j]) / 2 for j in range(2)]


GRADIENT_AVERAGE = Law(
    id="data_parallel.gradient_average", property=Property.ASSOCIATIVITY,
    statement="∇ (1/N)Σ_{i<N} ℓ_i = ½(∇ (2/N)Σ_{i<N/2} ℓ_i + ∇ (2/N)Σ_{i≥N/2} ℓ_i) for "
              "two shards of equal size",
    licenses="train on P devices, each on its own shard of the batch, averaging gradients "
             "with one all-reduce per step: PyTorch DistributedDataParallel, Horovod, "
             "every data-parallel trainer",
    vars=_vars(), lhs=lambda w, *e: gradient(w, e), rhs=averaged,
    bounded_by="a batch of 4 examples in 2 shards of 2, a linear model with 2 weights and "
               "squared loss",
    float_check=False,
    doc="The batch's mean loss is a sum, and the gradient is linear: the mean of equal "
        "shards' mean gradients is the batch's mean gradient. Proved by z3 over ℝ for a "
        "linear model with squared loss (every weight, feature and target a free real). "
        "The argument does not use the model's form, only that the loss is a mean over "
        "examples; batch normalization breaks it (its statistics are per shard). Does "
        "not cover float rounding of the all-reduce (see ring_allreduce.sum).")

UNEQUAL_SHARDS = Law(
    id="data_parallel.unequal_shards", property=Property.ASSOCIATIVITY, expect=FAILS,
    statement="shards of 1 and 3 examples, their mean gradients averaged with equal "
              "weights = the batch's mean gradient",
    licenses="nothing: shards of different sizes need their gradients weighted by size "
             "(or summed, then divided by the global batch size)",
    vars=_vars(), lhs=lambda w, *e: gradient(w, e),
    rhs=lambda w, *e: averaged(w, *e, split=1), teaches="data_parallel.gradient_average",
    float_check=False,
    doc="The same mistake as the mean of means: the single example's gradient gets weight "
        "½ instead of ¼ (a last, smaller batch on one device, averaged as if full).")

LAWS = [GRADIENT_AVERAGE, UNEQUAL_SHARDS]
