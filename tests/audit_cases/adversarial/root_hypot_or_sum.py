# expect: kind=binary associative=refuted|unknown commutative=proved|tested|unknown identity=refuted|unknown idempotent=refuted|unknown
# √(a² + b²) where a and b agree in sign, a + b otherwise: f(f(3, 4), −5) = 0 but
# f(3, f(4, −5)) = 2.
import math


def f(a, b):
    if a * b >= 0:
        return math.sqrt(a * a + b * b)
    return a + b


WITNESS = {
    "associative": (3, 4, -5),
    "identity": [(0, -1), (1, 0), ("inf", 1), ("-inf", 1)],
    "idempotent": (1,),
}
