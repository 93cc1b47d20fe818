# expect: kind=binary associative=unknown commutative=unknown
# setattr on the function object itself counts its calls (no global statement, no
# STORE_ATTR): from the 3001st call on Python computes a − b. Fresh import: f(1, 2) is
# 3.0 for the first 3000 calls, then −1.0; the rebound copies never see f.calls change.


def f(a, b):
    setattr(f, "calls", getattr(f, "calls", 0) + 1)  # noqa: B010 - setattr is the point
    if f.calls > 3000:
        return a - b
    return a + b
