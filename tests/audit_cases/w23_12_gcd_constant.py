# expect: kind=binary associative=unknown|tested|proved commutative=unknown|tested|proved
# math.gcd of two constants: f = a + b·(gcd(4, 6) − 1) = a + b (f(1, 2) = 3), so the laws
# hold; audited with the word named where it is not modelled, not ended with exit 2.
import math


def f(a, b):
    return a + b * (math.gcd(4, 6) - 1)
