# expect: kind=binary commutative=proved|tested idempotent=refuted
# math.remainder: the integer nearest the quotient, ties to even.
import math


def f(a: int, b: int):
    return int(math.remainder(a + b, 5))
