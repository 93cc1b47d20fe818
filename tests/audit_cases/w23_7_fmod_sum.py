# expect: kind=binary associative=refuted commutative=proved|tested idempotent=refuted
# math.fmod keeps the dividend's sign: f(f(−1, 2), 3) = 4 but f(−1, f(2, 3)) = −1.
import math


def f(a: int, b: int):
    return int(math.fmod(a + b, 5))
