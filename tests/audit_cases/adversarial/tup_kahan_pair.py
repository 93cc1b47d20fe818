# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown identity=proved|tested|unknown identity.element=[0,0] idempotent=refuted|unknown commutative.float32=inexact|unknown|not-evaluated
# state: 2
# A compensated sum (s, c): over the reals the correction ((s − a) − b) is 0 and the
# state is (Σ, Σc). In float32 the correction sees the rounding: f((1, 0), (2⁻³⁰, 0))
# = (1, −2⁻³⁰) but f((2⁻³⁰, 0), (1, 0)) = (1, 0).
def f(a, b):
    s = a[0] + b[0]
    return s, a[1] + b[1] + ((s - a[0]) - b[0])


WITNESS = {
    "idempotent": ((1, 0),),
    "commutative.float32": ((1, 0), (2 ** -30, 0)),
}
