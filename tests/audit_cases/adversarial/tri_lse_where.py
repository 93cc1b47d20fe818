# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown identity=proved|tested|unknown identity.element="-inf" idempotent=refuted|unknown
# Stable log-sum-exp as a where: at a = −∞ the discarded lane is −∞ + ∞ = NaN.
import triton
import triton.language as tl


@triton.jit
def f(a, b):
    return tl.where(a > b, a + tl.log(1 + tl.exp(b - a)), b + tl.log(1 + tl.exp(a - b)))


WITNESS = {
    "idempotent": (0,),
}
