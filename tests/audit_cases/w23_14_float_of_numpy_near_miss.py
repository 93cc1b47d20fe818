# expect: kind=binary associative=refuted commutative=refuted idempotent=refuted
# Near miss: float() of a truth value is 1.0 or 0.0, not the value compared, so
# f(a, b) = [a < b] is neither commutative (f(0, 1) = 1, f(1, 0) = 0) nor idempotent.


def f(a, b):
    return float(a < b)
