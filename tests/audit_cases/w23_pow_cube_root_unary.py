# expect: kind=unary additive=proved additive.assumes=complex
# (x**3) ** (1/3) is complex for x < 0 in Python: f(-1 + 2) = 1 but f(-1) + f(2) is
# 2.5 + 0.87j. Additive only where the bases are nonnegative, which the proof states.
def f(x):
    return (x ** 3) ** (1 / 3)
