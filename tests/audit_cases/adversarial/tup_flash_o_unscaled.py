# expect: kind=binary associative=refuted|unknown commutative=refuted|unknown identity=proved|tested|unknown identity.element=["-inf",0,0] idempotent=refuted|unknown
# state: 3
# FlashAttention's state with the right operand's output left unscaled (l is right).
# The empty state (−∞, 0, 0) is still an identity: merged either way with a real state,
# the real state's factor is e⁰ = 1.
import math


def combine(a, b):
    m = max(a[0], b[0])
    sa, sb = math.exp(a[0] - m), math.exp(b[0] - m)
    return m, a[1] * sa + b[1] * sb, a[2] * sa + b[2]


WITNESS = {
    "associative": ((1, 1, 0), (0, 1, 1), (1, 1, 0)),
    "commutative": ((0, 1, 1), (1, 1, 0)),
    "idempotent": ((0, 1, 1),),
}
