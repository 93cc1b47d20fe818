# expect: kind=binary commutative=unknown associative=unknown idempotent=refuted
# A float assigned to a name inside a @triton.jit function is a float32 constant
# (0.100000001…); on float64 lanes a − a + c is that value, not the double 0.1, so the
# test is false and Triton computes a − b where the readings, taking c as the double,
# compute a + b.
import triton
import triton.language as tl


@triton.jit
def f(a, b):
    c = 0.1
    return tl.where(a - a + c == 0.1, a + b, a - b)
