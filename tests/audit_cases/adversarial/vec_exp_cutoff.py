# expect: kind=unary monotone=proved|tested|unknown idempotent=refuted|unknown additive=refuted|unknown exponential=refuted|tested|unknown
# eˣ above −700, 0 below: f(x + y) = f(x)·f(y) fails only where x + y ≤ −700 < x, y.
import math


def f(x):
    return math.exp(x) if x > -700 else 0.0


WITNESS = {
    "idempotent": (0,),
    "additive": (0, 0),
    "exponential": (-400, -400),
}
