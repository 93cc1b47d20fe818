# expect: kind=binary commutative=refuted
# The same through a keyword-only default.
def f(a, b, *, c=0.3):
    return a + b if b != c else a - b
