"""Chunked cumulative sum as scan kernels write it: one program per row, the row cut
into chunks of CHUNK lanes; each chunk is scanned with tl.cumsum in float32, the running
total of the chunks before it (the carry) is added, and the carry grows by the chunk's
sum. The result is stored in x's dtype. Planted bugs are flags of the wrapper."""
import torch
import triton
import triton.language as tl

from verify.cases import rows
from verify.certification.binding import bind


@triton.jit
def cumsum_kernel(x_ptr, y_ptr, n_cols, CHUNK: tl.constexpr, COL_LIMIT_SHIFT: tl.constexpr,
                  CARRY_LAST: tl.constexpr, ACC_IN_INPUT: tl.constexpr):
    row = tl.program_id(0)
    lanes = tl.arange(0, CHUNK)
    if ACC_IN_INPUT:
        carry = tl.sum(tl.zeros([CHUNK], dtype=x_ptr.dtype.element_ty), axis=0)
    else:
        carry = tl.sum(tl.zeros([CHUNK], dtype=tl.float32), axis=0)
    for start in range(0, n_cols, CHUNK):
        cols = start + lanes
        x = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols + COL_LIMIT_SHIFT,
                    other=0.0)
        if not ACC_IN_INPUT:
            x = x.to(tl.float32)
        local = tl.cumsum(x, axis=0)
        y = local + carry
        if not CARRY_LAST:
            y = tl.where(start + CHUNK < n_cols, y, local)
        tl.store(y_ptr + row * n_cols + cols, y.to(y_ptr.dtype.element_ty), mask=cols < n_cols)
        carry = carry + tl.sum(x, axis=0)


def cumsum(x, chunk=32, col_limit_shift=0, carry_last=True, acc_in_input=False):
    """Inclusive prefix sums along the last dim of a 2-D tensor, in x's dtype."""
    assert x.dim() == 2 and x.is_contiguous()
    y = torch.empty_like(x)
    cumsum_kernel[(x.shape[0],)](x, y, x.shape[1], CHUNK=chunk, COL_LIMIT_SHIFT=col_limit_shift,
                                 CARRY_LAST=carry_last, ACC_IN_INPUT=acc_in_input)
    return y


PLANTED = {
    "carry dropped for the last chunk": lambda x: cumsum(x, carry_last=False),
    "mask drops the last column": lambda x: cumsum(x, col_limit_shift=-1),
    "accumulation in the input format": lambda x: cumsum(x, acc_in_input=True),
}


def binding(fn=cumsum):
    return bind(fn, reference="cumsum", dtypes=("float32", "float16"), block=32,
                inputs=rows(n=[1, 7, 32, 33, 100, 300],
                            classes=("random", "length-1", "huge-dynamic-range",
                                     "cancellation", "large-offset", "negative-zero")))


KERNEL = binding()
