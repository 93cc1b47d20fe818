# expect: kind=binary associative=unknown|refuted commutative=unknown|refuted idempotent=unknown
# An itertools.count held in a global: max on even calls, min on odd ones, so
# f(1, 2) = 2 and then f(2, 1) = 1.
import itertools

_TICKS = itertools.count()


def f(a, b):
    t = next(_TICKS)
    return max(a, b) if t % 2 == 0 else min(a, b)
