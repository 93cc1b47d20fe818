# expect: kind=binary associative=unknown commutative=unknown
# functools.partial(list.append, _LOG) appends to the module list on every call: from
# the 3001st call on Python computes a − b (f(1, 2): 3.0, then −1.0).
import functools

_LOG = []
_push = functools.partial(list.append, _LOG)


def f(a, b):
    _push(1)
    if len(_LOG) > 3000:
        return a - b
    return a + b
