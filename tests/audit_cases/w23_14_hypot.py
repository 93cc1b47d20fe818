# expect: kind=binary commutative=proved idempotent=refuted separable=refuted
# math.hypot has a z3 reading (√(a² + b²)): commutativity is proved; hypot(1, 1) = √2 is
# not 1. (Associativity is true but stays tested: the root's argument is not known to z3
# to be ≥ 0 where the inner hypot meets the outer one.)
import math


def f(a, b):
    return math.hypot(a, b)
