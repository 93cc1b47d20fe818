# expect: kind=binary associative=refuted|unknown commutative=refuted|unknown
# The function itself writes a module global it then reads (global statement).
SIGN = 1


def f(a, b):
    global SIGN
    SIGN = -1
    return a + SIGN * b
