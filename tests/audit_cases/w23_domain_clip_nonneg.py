# expect: kind=binary identity=refuted identity.evidence=in-domain
# min(a + b, 1) on the nonneg domain: no identity (f(0, 2) = 1), shown at a point of
# the domain.
def f(a: "nonneg", b: "nonneg"):  # noqa: F821 (domain names)
    return min(a + b, 1.0)
