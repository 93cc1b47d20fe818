# expect: kind=binary commutative=proved associative=proved identity.element=0 idempotent=refuted
# 0.1 * 3 is folded by the compiler to 0.30000000000000004; C * 3 computed by Python is
# the same double, so the test is true and f = a + b.
C = 0.1


def f(a, b):
    if C * 3 == 0.1 * 3:
        return a + b
    return a - b
