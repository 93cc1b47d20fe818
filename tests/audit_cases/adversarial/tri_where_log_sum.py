# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown identity=proved|tested|unknown identity.element=0 idempotent=refuted|unknown
# log(exp(s)) = s on its lane, s on the other: a + b.
import triton
import triton.language as tl


@triton.jit
def f(a, b):
    s = a + b
    return tl.where(s > 0, tl.log(tl.exp(s)), s)


WITNESS = {
    "idempotent": (1,),
}
