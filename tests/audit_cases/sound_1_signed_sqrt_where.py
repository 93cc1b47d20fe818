# expect: kind=binary associative=refuted|unknown|tested idempotent=refuted|unknown|tested commutative=proved
# A signed square root: both roots are evaluated, only the selected one is used, so
# neither argument condition may shrink the domain (it used to collapse to s = 0).
import triton
import triton.language as tl


@triton.jit
def g(a, b):
    s = a + b
    return tl.where(s >= 0, tl.sqrt(s), -tl.sqrt(-s))
