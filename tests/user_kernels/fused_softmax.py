"""Fused row softmax as the Triton tutorial describes it: one program per row, the whole
row in one block of BLOCK = next power of two ≥ n, masked lanes loaded as −∞; max,
exp(x − max), sum, divide. Planted bugs are flags of the wrapper."""
import torch
import triton
import triton.language as tl

from verify.cases import rows
from verify.certification.binding import bind


@triton.jit
def softmax_kernel(out_ptr, in_ptr, n_cols, BLOCK: tl.constexpr, SUBTRACT_MAX: tl.constexpr,
                   COL_LIMIT_SHIFT: tl.constexpr, ACC: tl.constexpr, SCALE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    inside = cols < n_cols + COL_LIMIT_SHIFT
    x = tl.load(in_ptr + row * n_cols + cols, mask=inside, other=-float("inf")).to(ACC)
    if SUBTRACT_MAX:
        x = x - tl.max(x, axis=0)
    numerator = tl.exp(x.to(tl.float32)).to(ACC)
    denominator = tl.sum(numerator, axis=0)
    y = numerator / denominator * SCALE
    tl.store(out_ptr + row * n_cols + cols, y.to(out_ptr.dtype.element_ty), mask=cols < n_cols)


def softmax(x, subtract_max=True, col_limit_shift=0, acc=tl.float32, scale=1.0):
    """Softmax over the last dim of a 2-D tensor, in x's dtype."""
    assert x.dim() == 2 and x.is_contiguous()
    y = torch.empty_like(x)
    softmax_kernel[(x.shape[0],)](y, x, x.shape[1], BLOCK=triton.next_power_of_2(x.shape[1]),
                                  SUBTRACT_MAX=subtract_max, COL_LIMIT_SHIFT=col_limit_shift,
                                  ACC=acc, SCALE=scale)
    return y


PLANTED = {
    "missing max subtraction": lambda x: softmax(x, subtract_max=False),
    "mask drops the last column": lambda x: softmax(x, col_limit_shift=-1),
    "fp16 accumulation": lambda x: softmax(x, acc=tl.float16),
    "output scaled by 1 + 2^-10": lambda x: softmax(x, scale=1.0 + 2.0 ** -10),
}


def binding(fn=softmax):
    return bind(fn, reference="softmax", outputs=("softmax",), masked_rows="nan",
                inputs=rows(n=[1, 7, 17, 100, 257],
                            classes=("random", "length-1", "ties", "huge-dynamic-range",
                                     "-inf-mask", "fully-masked-row", "large-offset")),
                dtypes=("float32", "float16"), kernel=softmax_kernel)


KERNEL = binding()
