# expect: kind=binary identity=proved identity.element=0
# On the declared unit domain 0 is an identity: min(1, 0 + a) = a for a in [0, 1]. The
# identity search once looked for evidence outside the domain (0 "fails" at a = 2).
def f(a: "unit", b: "unit"):  # noqa: F821 (domain names)
    return min(1.0, a + b)
