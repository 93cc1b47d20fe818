# expect: kind=binary associative=proved commutative=proved identity=proved idempotent=proved
# A @triton.jit combine: audited through its Python source, tl.* rebound.
import triton
import triton.language as tl


@triton.jit
def pick_larger(a, b):
    return tl.where(a > b, a, b)
