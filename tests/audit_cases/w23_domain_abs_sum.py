# expect: kind=binary identity=proved identity.element=0
# |a| + |b| on the nonneg domain: |a| = a there, so 0 is an identity.
def f(a: "nonneg", b: "nonneg"):  # noqa: F821 (domain names)
    return abs(a) + abs(b)
