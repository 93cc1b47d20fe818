# expect: kind=binary associative=proved commutative=proved identity=proved identity.element="-inf" idempotent=proved separable=refuted|unknown additively_separable=refuted|unknown
# A set literal elsewhere in the module hashes constants, not the audited values: the
# prover still applies to f.
KEYS = {"x", "y"}


def f(a, b):
    return max(a, b)


WITNESS = {
    "separable": (1, 2, 1, 2),
    "additively_separable": (1, 2, 1, 2),
}
