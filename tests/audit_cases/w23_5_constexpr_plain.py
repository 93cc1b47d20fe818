# expect: kind=binary commutative=proved associative=proved
# The same constexpr global in plain Python: C * 3 is Python's 0.1 * 3, equal to the
# folded 0.1 * 3, so f = a + b.
import triton.language as tl

C = tl.constexpr(0.1)


def f(a, b):
    return a + b if C * 3 == 0.1 * 3 else a - b
