# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown identity=refuted|unknown idempotent=refuted|unknown
# ⌈max(a, b)⌉: integer-valued, so no element gives back a = 1/2.
import math


def f(a, b):
    return math.ceil(max(a, b))


WITNESS = {
    "identity": [(0, "1/2"), (1, "1/2")],
    "idempotent": ("1/2",),
}
