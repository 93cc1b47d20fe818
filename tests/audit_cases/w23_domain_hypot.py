# expect: kind=binary identity=proved identity.element=0
# sqrt(a² + b²) on the nonneg domain: 0 is an identity (√(a²) = a for a ≥ 0).
def f(a: "nonneg", b: "nonneg"):  # noqa: F821 (domain names)
    return (a * a + b * b) ** 0.5
