# expect: kind=binary idempotent=proved idempotent.float32=inexact
# tl.maximum propagates NaN (as torch.maximum does).
import triton
import triton.language as tl


@triton.jit
def f(a, b):
    return tl.maximum(a + (a * b - a * b), b)
