# expect: kind=binary associative=proved commutative=refuted identity=proved identity.element=0 idempotent=proved
# A conditional expression; ties in magnitude keep the left operand.
def f(a, b):
    return a if abs(a) >= abs(b) else b
