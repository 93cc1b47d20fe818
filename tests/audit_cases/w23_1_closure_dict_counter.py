# expect: kind=binary commutative=unknown idempotent=unknown associative=unknown
# A counter in a closure dict (state["n"] += 1, no nonlocal): from the 50th call on the
# result gains 1. Each plain-Python run starts from the state the function was handed
# over with, so no difference that only earlier calls produce is reported (idempotency
# was refuted at f(0, 0) = 1, which a fresh function gives as 0).
from _w23_state import make_counter

_combine = make_counter()


def f(a, b):
    return _combine(a, b)
