# expect: kind=binary associative=tested commutative=tested idempotent=refuted
# math.gcd is defined on ints only; every reading runs Python's own gcd on ints. It is
# associative and commutative; gcd(a, a) = |a|, so idempotence fails at negative a, and
# gcd(0, a) = |a| makes 0 no identity over ℤ.
import math


def f(a, b):
    return math.gcd(a, b)
