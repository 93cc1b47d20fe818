# expect: kind=binary associative=refuted commutative=proved separable=proved additively_separable=refuted
import math


def f(x, y):
    return math.exp(x + y)
