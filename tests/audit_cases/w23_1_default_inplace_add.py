# expect: kind=binary associative=unknown commutative=unknown
# `_seen += [1]` on a mutable default extends the list in place (a local store only).
def f(a, b, _seen=[]):  # noqa: B006 - the case is the mutable default
    _seen += [1]
    return a + b if len(_seen) < 3000 else a - b
