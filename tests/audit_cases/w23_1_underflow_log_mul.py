# expect: kind=binary associative=unknown separable=unknown commutative=unknown
# The append is a trace the result never reads: f is a * b, decided by plain Python alone.
# Its float sides differ only where a product rounds in the subnormal range or flushes to
# 0 ((7.6168, -0.001, -2.2250738585072014e-308), (5e-324, 1e10+1, -12, -0.5)), which the
# running bound covers: no refutation.
_LOG = []


def f(a, b):
    _LOG.append(b)
    return a * b
