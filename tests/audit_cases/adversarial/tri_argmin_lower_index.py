# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown identity=proved|tested|unknown idempotent=proved|tested|unknown
# state: 2
import triton
import triton.language as tl


@triton.jit
def argmin(a_v, a_i, b_v, b_i):
    take_b = (b_v < a_v) | ((b_v == a_v) & (b_i < a_i))
    return tl.where(take_b, b_v, a_v), tl.where(take_b, b_i, a_i)
