# expect: kind=binary commutative=proved associative=unknown identity=unknown
# By the rule for numbers in code the fold 1 + 2 ** -60 means 1 + 2⁻⁶⁰ (it was read as
# the double 1.0 and identity 0 proved): over ℝ f(0, a) = a·(1 + 2⁻⁶⁰) ≠ a, but Python
# computes with the double 1.0 and f(0, a) = a. The two part ways: unknown.
def f(a, b):
    return (a + b) * (1 + 2 ** -60)
