# expect: kind=binary associative=refuted|unknown commutative=refuted|unknown identity=refuted|unknown idempotent=refuted|unknown separable=refuted|unknown additively_separable=proved|tested|unknown
# √(a²) + b = |a| + b.
import math


def f(a, b):
    return math.sqrt(a * a) + b


WITNESS = {
    "associative": (1, -2, 0),
    "commutative": (-1, 1),
    "identity": [(0, -1), (1, 0), ("inf", 0), ("-inf", 0)],
    "idempotent": (1,),
    "separable": (1, 2, 0, 1),
}
