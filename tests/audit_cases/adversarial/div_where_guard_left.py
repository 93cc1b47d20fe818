# expect: kind=binary associative=proved|tested|unknown commutative=refuted|unknown identity=refuted|unknown idempotent=proved|tested|unknown separable=proved|tested|unknown additively_separable=proved|tested|unknown
# The left projection, with the division's discarded lane NaN where b = 0.
import triton
import triton.language as tl


@triton.jit
def f(a, b):
    return tl.where(b != 0, a * b / b, a)


WITNESS_MODE = "float64"
WITNESS = {
    "commutative": (1, 2),
    "identity": [(0, 1), (1, 2), ("-inf", 1), ("inf", 1)],
}
