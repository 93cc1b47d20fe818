# expect: kind=binary commutative=refuted associative=refuted
# min(a, b) − a with propagate_nan=tl.PropagateNan.ALL: not commutative, f(0, 1) = 0 but
# f(1, 0) = −1; not associative, f(f(0, 1), 2) = 0 but f(0, f(1, 2)) = −1.
import triton
import triton.language as tl


@triton.jit
def f(a, b):
    return tl.minimum(a, b, propagate_nan=tl.PropagateNan.ALL) - a
