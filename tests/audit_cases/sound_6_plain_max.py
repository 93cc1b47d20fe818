# expect: kind=binary idempotent=proved idempotent.float32=exact commutative.float32=exact
# No NaN can arise from finite inputs: exact in float32.
def f(a, b):
    return max(a, b)
