# expect: kind=binary commutative=proved commutative.assumes=none identity=refuted
# (a² + b²) ** 0.5 is real everywhere (the base is never negative), so no assumption;
# 0 is no identity: f(0, -1) = 1.
def f(a, b):
    return (a * a + b * b) ** 0.5
