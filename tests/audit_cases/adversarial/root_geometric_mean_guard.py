# expect: kind=binary associative=refuted|unknown commutative=proved|tested|unknown identity=refuted|unknown idempotent=proved|tested|unknown
# √(a·b) for positive a, b; min elsewhere. f(f(1, 4), 16) = √32, f(1, f(4, 16)) = √8.
import math


def f(a, b):
    if a > 0 and b > 0:
        return math.sqrt(a * b)
    return min(a, b)


WITNESS = {
    "associative": (1, 4, 16),
    "identity": [(1, 4), (0, 1), ("inf", 1), ("-inf", 1)],
}
