# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown identity=proved|tested|unknown identity.element=1 idempotent=refuted|unknown separable=proved|tested|unknown additively_separable=refuted|unknown
# √(ab)·√(ab) where ab ≥ 0, ab elsewhere: the product everywhere (the sqrt lane is
# discarded where ab < 0).
import triton
import triton.language as tl


@triton.jit
def f(a, b):
    p = a * b
    return tl.where(p >= 0, tl.sqrt(p) * tl.sqrt(p), p)


WITNESS = {
    "idempotent": (2,),
    "additively_separable": (1, 2, 1, 2),
}
