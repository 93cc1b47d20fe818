# expect: kind=binary associative=proved commutative=proved identity=refuted idempotent=refuted
# Associative, though it does not look it: sqrt(sqrt(a²+b²)² + c²) = sqrt(a²+b²+c²).
# Not 0 as identity: f(0, a) = |a|.
import math


def hypot(a, b):
    return math.sqrt(a * a + b * b)
