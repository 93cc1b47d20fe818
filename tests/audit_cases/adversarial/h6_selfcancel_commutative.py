# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown identity=refuted|unknown idempotent=proved|tested|unknown commutative.float32=inexact|unknown|not-evaluated commutative.float64=inexact|unknown|not-evaluated idempotent.float32=inexact|unknown|not-evaluated
# max(a, b) + (b² − b²): commutative over the reals; in float32 f(2**70, 1) = 2**70 but
# f(1, 2**70) = 2**70 + (∞ − ∞) = NaN. No batch of moderate values overflows b².
def f(a, b):
    return max(a, b) + (b * b - b * b)


WITNESS = {
    "identity": [("-inf", 3), (0, -1), ("inf", 3)],
    "commutative.float32": (2 ** 70, 1),
    "commutative.float64": (2 ** 600, 1),
    "idempotent.float32": (2 ** 70,),
}
