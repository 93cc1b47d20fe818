# expect: kind=binary associative=unknown commutative=unknown
# The list's append is handed to map, never called by name here: from the 3001st call
# on Python computes a − b (f(1, 2): 3.0, then −1.0).
_LOG = []


def f(a, b):
    list(map(_LOG.append, [1]))
    if len(_LOG) > 3000:
        return a - b
    return a + b
