# expect: kind=binary idempotent=proved idempotent.float32=inexact
# The same with min.
def f(a, b):
    return min(a + (a * b - a * b), b)
