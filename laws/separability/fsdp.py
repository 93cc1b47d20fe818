"""Sharded data parallelism (FSDP/ZeRO): each device owns a shard of the parameters; a
step all-gathers them, computes the local gradient, reduce-scatters the gradients and
updates its own shard. The gathered result is the single-device SGD step. And the shard
updated with the local gradient alone."""
from ..core import FAILS, Law, Property, Var
from ..associativity.data_parallel import gradient


def _vars():
    return (Var("w", (2,), tuple_state=False), Var("lr", (), "positive")) + tuple(
        Var(f"e{i}", (3,), labels=("x0", "x1", "y")) for i in range(4))


def single_device(w, lr, *examples):
    """One SGD step on the whole batch: w − lr·∇L(w)."""
    g = gradient(w, examples)
    return [w[j] - lr * g[j] for j in range(2)]


def sharded(w, lr, *examples, reduce=True):
    """Device d owns parameter w[d] and examples 2d, 2d+1. All-gather gives both devices
    the full w; each computes its local gradient; reduce-scatter hands device d the mean
    over devices of component d; device d updates w[d]; an all-gather (at the next step)
    reassembles w. ``reduce=False``: each device updates with its local gradient only."""
    full = [w[0], w[1]]                                    # all-gather of the shards
    local = [gradient(full, examples[2 * d:2 * d + 2]) for d in range(2)]
    shard_grad = [(local[0][d] + local[1][d]) / 2 if reduce else local[d][d]
                  for d in range(2)]                       # reduce-scatter
    return [full[d] - lr * shard_grad[d] for d in range(2)]


SHARDED_STEP = Law(
    id="fsdp.sharded_step", property=Property.SEPARABILITY,
    secondary=Property.ASSOCIATIVITY,
    statement="all-gather(w) → local ∇ → reduce-scatter → update own shard = "
              "w − lr·∇L(w) on one device",
    licenses="hold 1/P of the parameters, gradients and optimizer state per device and "
             "still take the single-device step: PyTorch FSDP, DeepSpeed ZeRO-3",
    vars=_vars(), lhs=sharded, rhs=single_device,
    bounded_by="2 devices, 2 parameters (one per device), 4 examples (two per device), "
               "a linear model with squared loss, plain SGD",
    float_check=False,
    doc="The update is separable by coordinate (SGD updates each parameter from its own "
        "gradient component), so device d needs only component d of the averaged "
        "gradient: reduce-scatter gives exactly that. The averaging itself is the data-"
        "parallel law. Proved by z3 over ℝ for plain SGD. Adam and other element-wise "
        "optimizers separate the same way; a global gradient-norm clip needs one more "
        "all-reduce (of the squared norms) and is not covered. Does not cover float "
        "rounding or communication overlap.")

LOCAL_GRADIENT = Law(
    id="fsdp.local_gradient", property=Property.SEPARABILITY, expect=FAILS,
    statement="each device updates its shard with its own local gradient (no "
              "reduce-scatter) = the single-device step",
    licenses="nothing: the shard owner's data is not the batch; skipping the "
             "reduce-scatter trains each parameter on a different subset",
    vars=_vars(), lhs=lambda w, lr, *e: sharded(w, lr, *e, reduce=False),
    rhs=single_device, teaches="fsdp.sharded_step", float_check=False,
    doc="Device d's gradient component from its two examples differs from the batch "
        "mean whenever the two shards' gradients differ.")

LAWS = [SHARDED_STEP, LOCAL_GRADIENT]
