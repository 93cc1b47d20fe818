# expect: kind=binary commutative=proved idempotent=refuted
# Near miss: math.isclose itself is symmetric (both tolerances scale with |a| and |b|),
# so commutativity is proved, and no point moved off a boundary may refute it;
# f(a, a) = 1 is not a.
import math


def f(a, b):
    return 1.0 if math.isclose(a, b, rel_tol=0.25) else 0.0
