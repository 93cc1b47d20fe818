# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown identity=proved|tested|unknown identity.element=1 idempotent=refuted|unknown
# exp(log(ab)) where ab > 0, ab elsewhere: the product.
import triton
import triton.language as tl


@triton.jit
def f(a, b):
    p = a * b
    return tl.where(p > 0, tl.exp(tl.log(p)), p)


WITNESS = {
    "idempotent": (2,),
}
