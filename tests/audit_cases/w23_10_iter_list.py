# expect: kind=binary commutative=unknown|refuted additively_separable=unknown|refuted
# next() on a module-level iterator: after two earlier calls f(1, 2) = 3.0 but
# f(2, 1) = 6.0.
_SCALES = iter([1.0] * 3 + [2.0] * 1000)


def f(a, b):
    return (a + b) * next(_SCALES)
