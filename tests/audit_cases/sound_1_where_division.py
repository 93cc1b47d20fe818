# expect: kind=binary commutative=refuted
# Triton evaluates a / b in both lanes; only the lane b ≠ 0 is used.
import triton
import triton.language as tl


@triton.jit
def f(a, b):
    return tl.where(b != 0, a / b, a)
