# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown identity=refuted|unknown idempotent=refuted|unknown separable=refuted|unknown additively_separable=proved|tested|unknown
# ⌊a⌋ + ⌊b⌋: an integer plus an integer floors to itself, so it regroups.
import math


def f(a, b):
    return math.floor(a) + math.floor(b)


WITNESS = {
    "identity": [(0, "1/2"), (1, 0)],
    "idempotent": ("1/2",),
    "separable": (1, 2, 1, 2),
}
