# expect: kind=binary commutative=refuted
# The same through a module-level constant.
C = 0.1


def f(a, b):
    return a + b if a != C else a - b
