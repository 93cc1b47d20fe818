# expect: kind=binary commutative=proved associative=proved identity.element=0
# A tl.constexpr global computes as the Python number it holds: C * 3 is Python's
# 0.1 * 3, the double the compiler folded 0.1 * 3 to, so the test is true and f = a + b.
import triton
import triton.language as tl

C = tl.constexpr(0.1)


@triton.jit
def f(a, b):
    return tl.where(C * 3 == 0.1 * 3, a + b, a - b)
