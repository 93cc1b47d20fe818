# expect: kind=binary associative=unknown commutative=unknown
# A mutable default appended to on every call: after 3000 calls f is a − b.
def f(a, b, _seen=[]):  # noqa: B006 - the case is the mutable default
    _seen.append(1)
    if len(_seen) > 3000:
        return a - b
    return a + b
