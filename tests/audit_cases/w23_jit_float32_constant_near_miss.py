# expect: kind=binary commutative=proved associative=proved identity.element=0
# The near miss of w23_jit_float32_constant: c is compared with 0.1 in float32 (the
# literal takes the constant's type), so the test is true on the device as in the
# readings, and f = a + b.
import triton
import triton.language as tl


@triton.jit
def f(a, b):
    c = 0.1
    return tl.where(c == 0.1, a + b, a - b)
