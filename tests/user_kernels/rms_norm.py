"""RMSNorm forward as fused-kernel libraries write it: one program per row, the whole
row in one block (BLOCK = next power of two ≥ n), rstd = 1/√(mean(x²) + eps) in float32,
y = x·rstd·w cast to x's dtype; rstd is stored for the backward pass."""
import torch
import triton
import triton.language as tl

from verify.cases import rows
from verify.certification.binding import bind


@triton.jit
def rms_norm_kernel(x_ptr, w_ptr, y_ptr, rstd_ptr, n_cols, eps, BLOCK: tl.constexpr,
                    COL_LIMIT_SHIFT: tl.constexpr, ACC: tl.constexpr, SCALE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    inside = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols + COL_LIMIT_SHIFT,
                other=0.0).to(ACC)
    mean_square = tl.sum(x * x, axis=0) / n_cols
    rstd = tl.rsqrt(mean_square.to(tl.float32) + eps)
    w = tl.load(w_ptr + cols, mask=inside, other=0.0).to(tl.float32)
    y = x.to(tl.float32) * rstd * w * SCALE
    tl.store(rstd_ptr + row, rstd)
    tl.store(y_ptr + row * n_cols + cols, y.to(y_ptr.dtype.element_ty), mask=inside)


def rms_norm(x, weight, eps=1e-6, col_limit_shift=0, acc=tl.float32, scale=1.0):
    """(y in x's dtype, rstd in float32) over the last dim of a 2-D tensor."""
    assert x.dim() == 2 and x.is_contiguous() and weight.shape == (x.shape[1],)
    y = torch.empty_like(x)
    rstd = torch.empty(x.shape[0], dtype=torch.float32, device=x.device)
    rms_norm_kernel[(x.shape[0],)](x, weight, y, rstd, x.shape[1], eps,
                                   BLOCK=triton.next_power_of_2(x.shape[1]),
                                   COL_LIMIT_SHIFT=col_limit_shift, ACC=acc, SCALE=scale)
    return y, rstd


PLANTED = {
    "mask drops the last column": lambda x, w, eps: rms_norm(x, w, eps, col_limit_shift=-1),
    "fp16 accumulation": lambda x, w, eps: rms_norm(x, w, eps, acc=tl.float16),
    "output scaled by 1 + 2^-10": lambda x, w, eps: rms_norm(x, w, eps, scale=1 + 2.0 ** -10),
}


def binding(fn=rms_norm):
    return bind(fn, reference="rms_norm", eps=1e-6, dtypes=("float32", "float16"),
                inputs=rows(n=[1, 7, 64, 129, 300],
                            classes=("random", "length-1", "huge-dynamic-range",
                                     "large-offset", "negative-zero")))


KERNEL = binding()
