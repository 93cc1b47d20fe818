# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown identity=proved|tested|unknown identity.element="-inf" idempotent=proved|tested|unknown
import triton
import triton.language as tl


@triton.jit
def f(a, b):
    return tl.where(a > b, a, tl.where(a < b, b, a))
