# expect: kind=binary associative=proved|tested|unknown commutative=refuted|unknown identity=refuted|unknown idempotent=proved|tested|unknown idempotent.float32=inexact|unknown|not-evaluated idempotent.float64=inexact|unknown|not-evaluated
# a·b/b: the left projection wherever b ≠ 0. f(a, a) = a over the reals (a ≠ 0); in
# float32, a = 2**70 gives a·a = ∞ and ∞/a = ∞.
def f(a, b):
    return a * b / b


WITNESS = {
    "commutative": (1, 2),
    "identity": [(1, 2), (0, 1), ("-inf", 1), ("inf", 1)],
    "idempotent.float32": (2 ** 70,),
    "idempotent.float64": (2 ** 600,),
}
