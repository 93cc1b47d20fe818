# expect: kind=binary commutative=proved identity=proved identity.element=0 identity.assumes=complex
# Python's ** of a negative base and a non-integer exponent is complex, not the real
# root: f(0, -2) = (-8) ** (1/3) = 1 + 1.73j, not -2. So 0 is an identity only where
# a**3 ≥ 0, and the proof must say so (it once proved it with no assumption at all).
def f(a, b):
    return (a ** 3 + b ** 3) ** (1 / 3)
