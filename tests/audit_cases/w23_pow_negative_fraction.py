# expect: kind=binary commutative=proved commutative.assumes=positive
# A negative non-integer power: 0 ** -0.5 raises and a negative base gives a complex
# number, so the proof needs the base > 0 where the power is used.
def f(a, b):
    return (a * b) ** -0.5
