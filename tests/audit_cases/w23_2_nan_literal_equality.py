# expect: kind=binary commutative=refuted associative=proved idempotent=proved
# a == nan is never true (NaN equals nothing, itself included): this is the left
# projection whatever the author meant, not a function of b.
import math


def f(a, b):
    return b if a == math.nan else a
