# expect: kind=binary associative=proved commutative=proved idempotent=refuted
# 0.1 + 0.2 − 0.3 is not 0 in doubles (it is 2⁻⁵⁴·…): a shift, so still associative.
def f(a, b):
    return a + b - 0.3 + 0.1 + 0.2
