# expect: kind=unary monotone=proved additive=refuted exponential=proved idempotent=refuted
import math


def f(x):
    return math.exp(x)
