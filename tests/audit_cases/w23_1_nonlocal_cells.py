# expect: kind=binary associative=refuted|unknown commutative=refuted|unknown
# Two helpers share closure cells; one writes them (nonlocal): Python computes a − b.
from _w23_state import scaled, setup


def f(a, b):
    setup()
    return a + scaled(b)
