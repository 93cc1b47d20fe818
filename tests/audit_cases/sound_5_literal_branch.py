# expect: kind=binary commutative=refuted
# Fails exactly at a = 0.1, the double: f(0.1, 1) = −0.9, f(1, 0.1) = 1.1. z3 and the
# replay must read 0.1 as the same number.
def f(a, b):
    return a + b if a != 0.1 else a - b
