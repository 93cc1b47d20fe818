# expect: kind=binary associative=unknown commutative=unknown
# functools.partial binds a list to the parameter a helper appends to: from the 3001st
# call on Python computes a − b (f(1, 2): 3.0, then −1.0).
import functools

import _w23_state as S

_record = functools.partial(S.record, S.PARTIAL_LOG)


def f(a, b):
    _record(1)
    if len(S.PARTIAL_LOG) > 3000:
        return a - b
    return a + b
