# expect: kind=binary associative=proved commutative=proved identity=proved identity.element="inf" idempotent=proved separable=refuted|unknown additively_separable=refuted|unknown
# target: f
# Counter is imported and used by another function only.
from collections import Counter


def histogram(xs):
    return Counter(xs)


def f(a, b):
    return min(a, b)


WITNESS = {
    "separable": (1, 2, 1, 2),
    "additively_separable": (1, 2, 1, 2),
}
