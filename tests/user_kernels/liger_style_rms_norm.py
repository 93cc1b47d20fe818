"""An RMSNorm wrapper shaped like Liger-Kernel's forward, which returns
``(y, x, rstd, BLOCK, num_warps)`` for its backward: the binding says which returned
value is which output (``outputs={"y": 0, "rstd": 2}``). The kernel comes from a
sibling file, imported without a sys.path line."""
import torch
import triton

from rms_norm import rms_norm_kernel
from verify.cases import rows
from verify.certification.binding import bind


def rms_norm_forward(x, weight, eps=1e-6, col_limit_shift=0):
    y = torch.empty_like(x)
    rstd = torch.empty(x.shape[0], dtype=torch.float32, device=x.device)
    block = triton.next_power_of_2(x.shape[1])
    rms_norm_kernel[(x.shape[0],)](x, weight, y, rstd, x.shape[1], eps, BLOCK=block,
                                   COL_LIMIT_SHIFT=col_limit_shift,
                                   ACC=triton.language.float32, SCALE=1.0)
    return y, x, rstd, block, 4


PLANTED = {"mask drops the last column":
           lambda x, w, eps: rms_norm_forward(x, w, eps, col_limit_shift=-1)}


def binding(fn=rms_norm_forward):
    return bind(fn, reference="rms_norm", outputs={"y": 0, "rstd": 2},
                inputs=rows(n=[1, 7, 64, 129]))


KERNEL = binding()
