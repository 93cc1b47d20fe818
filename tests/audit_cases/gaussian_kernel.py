# expect: kind=binary commutative=proved|tested separable=refuted additively_separable=refuted
import math


def rbf(x, y):
    return math.exp(-(x - y) * (x - y))
