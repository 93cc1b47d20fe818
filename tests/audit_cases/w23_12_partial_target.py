# expect: kind=binary associative=proved commutative=proved identity.element=0
# target: add_ab
# The audited target is a functools.partial: add_ab(a, b) = _add3(a, b, c=0.0) = a + b
# (add_ab(1, 2) = 3.0), followed by every reading through the partial, so a + b's laws
# are proved.
import functools


def _add3(a, b, c=1.0):
    return a + b + c


add_ab = functools.partial(_add3, c=0.0)
