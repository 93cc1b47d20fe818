# expect: kind=binary associative=proved commutative=refuted idempotent=proved
# max with key= keeps the first item of largest key: f(−1, 1) = −1 but f(1, −1) = 1.
def f(a, b):
    return max(a, b, key=abs)
