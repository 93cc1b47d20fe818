"""Cross-entropy with label smoothing as fused loss kernels compute it: the whole row
in one block, lse = max + log Σ exp(x − max), loss = lse − (1 − ε)·x[target] − ε·mean(x)
in float32. The catalog's cross_entropy has no smoothing, so the binding brings its
own reference (``custom``, with the option ``smoothing``) and ``complete=`` draws the
targets."""
import torch
import triton
import triton.language as tl

from verify.cases import rows
from verify.certification.binding import bind
from verify.certification.references import custom


@triton.jit
def smoothed_kernel(x_ptr, target_ptr, loss_ptr, n_cols, smoothing, BLOCK: tl.constexpr,
                    TARGET_SHIFT: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    inside = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=inside, other=-float("inf")).to(tl.float32)
    m = tl.max(x, axis=0)
    lse = m + tl.log(tl.sum(tl.exp(x - m), axis=0))
    target = tl.load(target_ptr + row) + TARGET_SHIFT
    picked = tl.sum(tl.where(cols == target, x, 0.0), axis=0)
    mean = tl.sum(tl.where(inside, x, 0.0), axis=0) / n_cols
    tl.store(loss_ptr + row, lse - (1 - smoothing) * picked - smoothing * mean)


def smoothed_cross_entropy(x, target, smoothing=0.1, target_shift=0):
    """Per-row loss (float32) of logits ``x`` (rows × classes) and int64 ``target``."""
    loss = torch.empty(x.shape[0], dtype=torch.float32, device=x.device)
    smoothed_kernel[(x.shape[0],)](x, target, loss, x.shape[1], smoothing,
                                   BLOCK=triton.next_power_of_2(x.shape[1]),
                                   TARGET_SHIFT=target_shift)
    return loss


def reference(x, target, smoothing=0.1):
    hit = torch.arange(x.shape[-1]) == target.unsqueeze(-1)
    picked = torch.where(hit, x, 0.0).sum(-1)
    return {"loss": torch.logsumexp(x, -1) - (1 - smoothing) * picked
            - smoothing * x.mean(-1)}


def targets(inputs, rng):
    n_rows, n_cols = inputs["x"].shape
    return {"target": torch.as_tensor(rng.integers(0, n_cols, n_rows))}


SMOOTHED = custom(reference, inputs=("x", "target"), outputs=("loss",),
                  out_formats={"loss": "float32"}, complete=targets, smoothing=0.1)

PLANTED = {"target off by one": lambda x, t, smoothing: smoothed_cross_entropy(
    x, t, smoothing, target_shift=1)}


def binding(fn=smoothed_cross_entropy):
    return bind(fn, reference=SMOOTHED, inputs=rows(n=[1, 7, 17, 100]))


KERNEL = binding()
