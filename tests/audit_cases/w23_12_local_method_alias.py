# expect: kind=binary associative=unknown commutative=unknown
# The bound method is taken inside the call (push = _LOG.append), then called: from the
# 3001st call on Python computes a − b (f(1, 2): 3.0, then −1.0).
_LOG = []


def f(a, b):
    push = _LOG.append
    push(1)
    if len(_LOG) > 3000:
        return a - b
    return a + b
