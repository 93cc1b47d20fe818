# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown identity=proved|tested|unknown identity.element=0 idempotent=refuted|unknown
# b == b holds for every real b (it is the NaN test of kernels).
import triton
import triton.language as tl


@triton.jit
def f(a, b):
    return tl.where(b == b, a + b, a)


WITNESS = {
    "idempotent": (1,),
}
