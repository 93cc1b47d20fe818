# expect: kind=binary commutative=proved commutative.float32=inexact
# Python's max(b, NaN) is b: where ab overflows, f(a, b) = b but f(b, a) = a.
def f(a, b):
    return max(b, a * b * 0.0 + a)
