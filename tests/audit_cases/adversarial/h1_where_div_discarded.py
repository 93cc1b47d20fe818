# expect: kind=binary associative=refuted|unknown commutative=refuted|unknown identity=refuted|unknown idempotent=refuted|unknown separable=refuted|unknown additively_separable=proved|tested|unknown
# tl.where computes both lanes: a·b/b is NaN where b = 0 and is discarded there. A
# denominator assumed nonzero on every lane makes f the left projection; really
# f(0, 0) = 1, so f(f(0, 0), 0) = 2 and f(0, f(0, 0)) = 0.
import triton
import triton.language as tl


@triton.jit
def f(a, b):
    return tl.where(b == 0, a + 1, a * b / b)


WITNESS_MODE = "float64"  # the discarded lane divides by zero, as on the GPU
WITNESS = {
    "associative": (0, 0, 0),
    "commutative": (1, 2),
    "identity": [(0, 1), (1, 2), ("-inf", 1), ("inf", 1)],
    "idempotent": (0,),
    "separable": (1, 2, 0, 1),
}
