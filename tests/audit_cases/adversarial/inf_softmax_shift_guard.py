# expect: kind=binary associative=proved commutative=proved identity=proved|tested|unknown identity.element=["-inf",0] idempotent=refuted|unknown
# state: 2
# The online-softmax merge with the catalog's guard for an all-masked state (the
# shift is 0 when both maxima are −∞): the same function on real states.
import math


def combine(a, b):
    m = max(a[0], b[0])
    shift = m if m != -math.inf else 0.0
    return m, a[1] * math.exp(a[0] - shift) + b[1] * math.exp(b[0] - shift)


WITNESS = {
    "idempotent": ((0, 1),),
}
