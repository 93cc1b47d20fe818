# expect: kind=binary associative=unknown commutative=unknown
# A functools.partial kept in a dict of operations appends to a module list on every
# call: from the 3001st call on Python computes a − b (f(1, 2): 3.0, then −1.0).
import functools

_LOG = []
_OPS = {"record": functools.partial(list.append, _LOG), "scale": abs}


def f(a, b):
    _OPS["record"](1)
    if len(_LOG) > 3000:
        return a - b
    return a + b
