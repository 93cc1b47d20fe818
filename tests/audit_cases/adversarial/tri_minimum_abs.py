# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown identity=refuted|unknown idempotent=refuted|unknown
import triton
import triton.language as tl


@triton.jit
def f(a, b):
    return tl.minimum(tl.abs(a), tl.abs(b))


WITNESS = {
    "identity": [("inf", -1), (0, 1), ("-inf", -1)],
    "idempotent": (-1,),
}
