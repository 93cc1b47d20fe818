# expect: kind=binary associative=proved commutative=proved idempotent=proved
# The tl.reduce calling convention with tl.where on tuple components.
import triton
import triton.language as tl


@triton.jit
def argmax_combine(a_v, a_i, b_v, b_i):
    take_b = (b_v > a_v) | ((b_v == a_v) & (b_i < a_i))
    return tl.where(take_b, b_v, a_v), tl.where(take_b, b_i, a_i)
