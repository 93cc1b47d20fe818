# expect: kind=binary associative=proved commutative=refuted identity=refuted idempotent=proved separable=proved additively_separable=proved
# math.fsum sums exactly (Python then rounds once): fsum([a, b, −a]) is b, a projection:
# associative and idempotent, not commutative (f(0, 1) = 1, f(1, 0) = 0), no identity
# (f(a, e) = e; at e = ±∞ the other side raises in Python, -inf + inf in fsum, so each
# side is checked alone). Before, no
# reading modelled fsum and every property was unknown.
import math


def f(a, b):
    return math.fsum([a, b, -a])
