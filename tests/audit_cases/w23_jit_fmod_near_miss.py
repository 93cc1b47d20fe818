# expect: kind=binary commutative=proved associative=proved idempotent=proved
# The near miss of w23_jit_fmod_remainder: a nonnegative dividend, where fmod and
# Python's % agree, so f = max on the device too.
import triton
import triton.language as tl


@triton.jit
def f(a, b):
    return tl.maximum(a, b) + tl.minimum(tl.abs(a - b) % 2.0, 0.0)
