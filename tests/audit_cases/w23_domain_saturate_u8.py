# expect: kind=binary identity=refuted identity.evidence=in-domain
# Saturating addition on naturals: 0 works up to 255 and fails at 256 and beyond, a
# point of the domain (the evidence once was a = -1, outside it).
def f(a: "natural", b: "natural"):  # noqa: F821 (domain names)
    return max(0, min(255, a + b))
