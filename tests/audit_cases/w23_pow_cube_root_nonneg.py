# expect: kind=binary commutative=proved identity=proved identity.element=0 identity.assumes=none
# The near miss of w23_pow_cube_root_sum: on the nonneg domain every base is ≥ 0, so
# the identity needs no assumption.
def f(a: "nonneg", b: "nonneg"):  # noqa: F821 (domain names)
    return (a ** 3 + b ** 3) ** (1 / 3)
