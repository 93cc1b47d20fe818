# expect: kind=binary associative=unknown|tested|proved commutative=unknown|tested|proved
# math.gcd on integer parameters (no interpretation models it): Python's gcd is
# associative and commutative on ℤ (gcd(gcd(4, 6), 9) = 1 = gcd(4, gcd(6, 9)),
# gcd(4, 6) = 2 = gcd(6, 4)). Audited with the word named, not ended with exit 2.
import math


def f(a: int, b: int):
    return math.gcd(a, b)
