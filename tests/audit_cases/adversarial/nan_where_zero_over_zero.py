# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown identity=refuted|unknown idempotent=refuted|unknown separable=proved|tested|unknown additively_separable=proved|tested|unknown
# The constant 1, with a 0/0 lane on the diagonal that tl.where discards.
import triton
import triton.language as tl


@triton.jit
def f(a, b):
    return tl.where(a == b, 1.0, (a - b) / (a - b))


WITNESS_MODE = "float64"
WITNESS = {
    "identity": [(1, 2), (0, 2), ("inf", 2), ("-inf", 2)],
    "idempotent": (2,),
}
