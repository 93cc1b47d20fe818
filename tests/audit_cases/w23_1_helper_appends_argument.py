# expect: kind=binary associative=unknown commutative=unknown
# A module list is handed to a helper that appends to its parameter.
import _w23_state as S


def f(a, b):
    S.record(S.LOG, 1)
    return a + b if len(S.LOG) < 3000 else a - b
