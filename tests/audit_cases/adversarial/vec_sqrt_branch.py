# expect: kind=unary monotone=proved|tested|unknown idempotent=refuted|unknown additive=refuted|unknown exponential=refuted|unknown
# √x for x ≥ 0, x below: nondecreasing everywhere.
import math


def f(x):
    return math.sqrt(x) if x >= 0 else x


WITNESS = {
    "idempotent": (4,),
    "additive": (1, 1),
    "exponential": (1, 1),
}
