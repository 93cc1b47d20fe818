# expect: kind=binary associative=proved commutative=proved identity=unknown|refuted idempotent=proved
# statistics.median(a, b, 0): the minmod limiter of finite-volume schemes.
import statistics


def minmod(a, b):
    return statistics.median([a, b, 0.0])
