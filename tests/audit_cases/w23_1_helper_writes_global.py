# expect: kind=binary associative=refuted|unknown commutative=refuted|unknown
# A helper switches a module global on first call; Python then computes a − b. A copy
# of the globals would keep reading "add" and prove a + b's laws.
import _w23_state as S


def f(a, b):
    S.configure()
    if S.MODE == "sub":
        return a - b
    return a + b
