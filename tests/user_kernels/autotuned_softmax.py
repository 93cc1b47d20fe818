"""Row softmax as autotuned kernels are written: ``@triton.autotune`` over the warp
count, ``@triton.heuristics`` choosing BLOCK (the next power of two ≥ n), the whole row
in one block. ``kernel=`` takes the decorated object as it is; the binding peels it."""
import torch
import triton
import triton.language as tl

from verify.cases import rows
from verify.certification.binding import bind


@triton.autotune(configs=[triton.Config({}, num_warps=1), triton.Config({}, num_warps=2)],
                 key=["n_cols"])
@triton.heuristics({"BLOCK": lambda args: triton.next_power_of_2(args["n_cols"])})
@triton.jit
def softmax_kernel(out_ptr, in_ptr, n_cols, BLOCK: tl.constexpr, SCALE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(in_ptr + row * n_cols + cols, mask=cols < n_cols,
                other=-float("inf")).to(tl.float32)
    e = tl.exp(x - tl.max(x, axis=0))
    y = e / tl.sum(e, axis=0) * SCALE
    tl.store(out_ptr + row * n_cols + cols, y.to(out_ptr.dtype.element_ty), mask=cols < n_cols)


def softmax(x, scale=1.0):
    y = torch.empty_like(x)
    softmax_kernel[(x.shape[0],)](y, x, x.shape[1], SCALE=scale)
    return y


PLANTED = {"output scaled by 1 + 2^-10": lambda x: softmax(x, scale=1 + 2.0 ** -10)}


def binding(fn=softmax):
    return bind(fn, reference="softmax", outputs=("softmax",), masked_rows="nan",
                inputs=rows(n=[1, 7, 17, 100]), kernel=softmax_kernel)


KERNEL = binding()
