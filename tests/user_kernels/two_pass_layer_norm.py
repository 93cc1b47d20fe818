"""Layer norm forward as the Triton tutorial and Apex-style kernels write it: one
program per row, the row streamed in blocks of BLOCK lanes; pass 1 accumulates per-lane
sums for the mean, pass 2 per-lane sums of (x − mean)² for the variance, then
y = (x − mean)·rstd·w + b with rstd = 1/√(var + eps). Mean and rstd are stored too."""
import torch
import triton
import triton.language as tl

from verify.cases import rows
from verify.certification.binding import bind


@triton.jit
def layer_norm_kernel(x_ptr, y_ptr, w_ptr, b_ptr, mean_ptr, rstd_ptr, n_cols, eps,
                      BLOCK: tl.constexpr, COL_LIMIT_SHIFT: tl.constexpr,
                      ACC: tl.constexpr, SCALE: tl.constexpr):
    row = tl.program_id(0)
    x_row = x_ptr + row * n_cols
    limit = n_cols + COL_LIMIT_SHIFT
    acc = tl.zeros([BLOCK], dtype=ACC)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        acc += tl.load(x_row + cols, mask=cols < limit, other=0.0).to(ACC)
    mean = tl.sum(acc, axis=0) / n_cols
    acc = tl.zeros([BLOCK], dtype=ACC)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_row + cols, mask=cols < limit, other=0.0).to(ACC)
        d = tl.where(cols < limit, x - mean, 0.0)
        acc += d * d
    var = tl.sum(acc, axis=0) / n_cols
    rstd = 1 / tl.sqrt(var.to(tl.float32) + eps)
    tl.store(mean_ptr + row, mean)
    tl.store(rstd_ptr + row, rstd)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        inside = cols < n_cols
        x = tl.load(x_row + cols, mask=inside, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + cols, mask=inside, other=0.0).to(tl.float32)
        b = tl.load(b_ptr + cols, mask=inside, other=0.0).to(tl.float32)
        y = ((x - mean) * rstd * w + b) * SCALE
        tl.store(y_ptr + row * n_cols + cols, y.to(y_ptr.dtype.element_ty), mask=inside)


def layer_norm(x, weight, bias, eps=1e-5, col_limit_shift=0, acc=tl.float32, scale=1.0):
    """(y in x's dtype, mean, rstd in float32) over the last dim of a 2-D tensor."""
    assert x.dim() == 2 and x.is_contiguous()
    y = torch.empty_like(x)
    mean = torch.empty(x.shape[0], dtype=torch.float32, device=x.device)
    rstd = torch.empty_like(mean)
    block = min(64, triton.next_power_of_2(x.shape[1]))
    layer_norm_kernel[(x.shape[0],)](x, y, weight, bias, mean, rstd, x.shape[1], eps,
                                     BLOCK=block, COL_LIMIT_SHIFT=col_limit_shift,
                                     ACC=acc, SCALE=scale)
    return y, mean, rstd


PLANTED = {
    "mask drops the last column": lambda x, w, b, eps: layer_norm(x, w, b, eps, col_limit_shift=-1),
    "fp16 accumulation": lambda x, w, b, eps: layer_norm(x, w, b, eps, acc=tl.float16),
    "output scaled by 1 + 2^-10":
        lambda x, w, b, eps: layer_norm(x, w, b, eps, scale=1 + 2.0 ** -10),
}


def binding(fn=layer_norm):
    return bind(fn, reference="layer_norm", eps=1e-5,
                inputs=rows(n=[1, 7, 64, 129, 300],
                            classes=("random", "length-1", "ties", "large-offset",
                                     "cancellation", "huge-dynamic-range")),
                dtypes=("float32", "float16"), block=64)


KERNEL = binding()
