# expect: kind=binary associative=proved commutative=proved idempotent=proved
# tl.maximum with propagate_nan=tl.PropagateNan.ALL: NaN where an operand is NaN, the
# larger operand otherwise, which is how every interpretation already reads tl.maximum
# (f(1, 2) = 2, f(nan, 2) = nan on the device). Audited, not ended with exit 2.
import triton
import triton.language as tl


@triton.jit
def f(a, b):
    return tl.maximum(a, b, propagate_nan=tl.PropagateNan.ALL)
