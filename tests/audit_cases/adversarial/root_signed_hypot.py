# expect: kind=binary associative=proved|tested|unknown commutative=refuted|unknown identity=refuted|unknown idempotent=refuted|unknown
# sign(a)·√(a² + b²): associative (the sign of a survives, the squares add), not
# commutative: f(1, −1) = √2, f(−1, 1) = −√2. 0 is only a right identity.
import math


def f(a, b):
    r = math.sqrt(a * a + b * b)
    return r if a >= 0 else -r


WITNESS = {
    "commutative": (1, -1),
    "identity": [(0, -1), (1, 0), ("-inf", 1), ("inf", 1)],
    "idempotent": (1,),
}
