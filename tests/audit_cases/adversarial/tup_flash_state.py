# expect: kind=binary associative=proved commutative=proved identity=proved|tested|unknown idempotent=refuted|unknown
# state: 3
# FlashAttention's (m, l, o): both sums rescaled to the larger maximum.
import math


def combine(a, b):
    m = max(a[0], b[0])
    sa, sb = math.exp(a[0] - m), math.exp(b[0] - m)
    return m, a[1] * sa + b[1] * sb, a[2] * sa + b[2] * sb


WITNESS = {
    "idempotent": ((0, 1, 1),),
}
