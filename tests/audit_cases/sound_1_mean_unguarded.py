# expect: kind=binary commutative=proved associative=refuted
# An unguarded division: a / (a + b) needs a + b ≠ 0, reported as an assumption.
def f(a, b):
    return (a * a + b * b) / (a + b)
