# expect: kind=binary commutative=proved associative=unknown identity=unknown
# The fold inside a tuple of constants is read back too: W[0] is 1 + 2⁻⁶⁰ over ℝ.
def f(a, b):
    w = (1 + 2 ** -60, 2)
    return (a + b) * w[0]
