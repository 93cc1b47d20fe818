# expect: kind=binary associative=proved commutative=proved
# Near miss: functools.partial objects that bind numbers and a list they only read:
# f is 0.5·(2a + 2b) = a + b at every call, so the laws are proved.
import functools
import operator

_WEIGHTS = [2.0]
_half = functools.partial(operator.mul, 0.5)
_first = functools.partial(operator.getitem, _WEIGHTS)


def f(a, b):
    return _half(_first(0) * a + _first(0) * b)
