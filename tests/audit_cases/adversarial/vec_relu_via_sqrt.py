# expect: kind=unary monotone=proved|tested|unknown idempotent=proved|tested|unknown additive=refuted|unknown exponential=refuted|unknown
# (x + √(x²))/2 = max(x, 0).
import math


def f(x):
    return (x + math.sqrt(x * x)) / 2


WITNESS = {
    "additive": (1, -1),
    "exponential": (1, 1),
}
