"""Per-row cross-entropy loss lse(x) − x[target] as fused loss kernels compute it: the
whole row in one block, max, Σ exp(x − max), log, minus the target's logit, the loss
stored in float32. No catalog reference has a target index, so the binding brings its
own (``custom``) and ``complete=`` draws the targets."""
import torch
import triton
import triton.language as tl

from verify.cases import rows
from verify.certification.binding import bind
from verify.certification.references import custom


@triton.jit
def cross_entropy_kernel(x_ptr, target_ptr, loss_ptr, n_cols, BLOCK: tl.constexpr,
                         TARGET_SHIFT: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols,
                other=-float("inf")).to(tl.float32)
    m = tl.max(x, axis=0)
    lse = m + tl.log(tl.sum(tl.exp(x - m), axis=0))
    target = tl.load(target_ptr + row) + TARGET_SHIFT
    picked = tl.sum(tl.where(cols == target, x, 0.0), axis=0)
    tl.store(loss_ptr + row, lse - picked)


def cross_entropy(x, target, target_shift=0):
    """Per-row loss (float32) of logits ``x`` (rows × classes) and int64 ``target``."""
    loss = torch.empty(x.shape[0], dtype=torch.float32, device=x.device)
    cross_entropy_kernel[(x.shape[0],)](x, target, loss, x.shape[1],
                                        BLOCK=triton.next_power_of_2(x.shape[1]),
                                        TARGET_SHIFT=target_shift)
    return loss


def reference(x, target):
    hit = torch.arange(x.shape[-1]) == target.unsqueeze(-1)
    return {"loss": torch.logsumexp(x, -1) - torch.where(hit, x, 0.0).sum(-1)}


def targets(inputs, rng):
    n_rows, n_cols = inputs["x"].shape
    return {"target": torch.as_tensor(rng.integers(0, n_cols, n_rows))}


CROSS_ENTROPY = custom(reference, inputs=("x", "target"), outputs=("loss",),
                       out_formats={"loss": "float32"}, complete=targets)

PLANTED = {"target off by one": lambda x, t: cross_entropy(x, t, target_shift=1)}


def binding(fn=cross_entropy):
    return bind(fn, reference=CROSS_ENTROPY, inputs=rows(n=[1, 7, 17, 100]))


KERNEL = binding()
