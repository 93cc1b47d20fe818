# expect: kind=binary commutative=refuted|unknown identity=refuted|unknown idempotent=refuted|unknown
# a + b·(∞ − ∞): NaN unless b = 0. A finite stand-in for ∞ makes ∞ − ∞ = 0 and f the
# left projection (idempotent); really f(1, 1) is NaN. f(1, 0) = 1 but f(0, 1) is NaN.
import math


def f(a, b):
    if b == 0:
        return a
    return a + b * (math.inf - math.inf)


WITNESS = {
    "commutative": (1, 0),
    "identity": [(0, 1), (1, 1), ("-inf", 1), ("inf", 1)],
    "idempotent": (1,),
}
