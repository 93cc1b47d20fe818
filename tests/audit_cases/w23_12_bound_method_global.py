# expect: kind=binary associative=unknown commutative=unknown
# A bound method stored at module level (_push = _LOG.append) appends on every call:
# from the 3001st call on Python computes a − b (f(1, 2): 3.0, then −1.0).
_LOG = []
_push = _LOG.append


def f(a, b):
    _push(1)
    if len(_LOG) > 3000:
        return a - b
    return a + b
