# expect: kind=binary commutative=refuted identity.element=0
# A tl.constexpr global is the double it holds (0.1000000000000000055…), as a literal
# is: f(a, b) = a − b at a = that double, so f is not commutative there.
import triton
import triton.language as tl

C = tl.constexpr(0.1)


@triton.jit
def f(a, b):
    return tl.where(a == C, a - b, a + b)
