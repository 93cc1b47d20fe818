# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown identity=proved|tested|unknown identity.element=0 idempotent=refuted|unknown
# √a·√a where a ≥ 0, a elsewhere, plus b: a + b; the sqrt lane is NaN where a < 0.
import triton
import triton.language as tl


@triton.jit
def f(a, b):
    return tl.where(a >= 0, tl.sqrt(a) * tl.sqrt(a), a) + b


WITNESS = {
    "idempotent": (1,),
}
