# expect: kind=binary additively_separable=unknown|refuted associative=unknown|refuted
# next() on a module-level generator is state no copy follows. Fresh import, (x, x2, y, y2)
# = (0, 1, 0, 0): the additively separable sides are 1.0 and 2.0.
_PHASE = (float(k % 3 == 2) for k in range(3_000_000))


def f(a, b):
    return a + b + next(_PHASE)
