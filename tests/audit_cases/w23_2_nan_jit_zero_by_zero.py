# expect: kind=binary commutative=proved associative=refuted idempotent=refuted
# In a @triton.jit function 0/0 is NaN (Python would raise): q is 1 where ab ≠ 0 and
# NaN where ab = 0, so f(a, b) = a + b off the axes and 0 on them. f(f(1, 1), −1) = 1
# but f(1, f(1, −1)) = f(1, 0) = 0, through the 0/0.
import triton
import triton.language as tl


@triton.jit
def f(a, b):
    q = (a * b) / (a * b)
    return tl.where(q == q, a + b, 0.0)
