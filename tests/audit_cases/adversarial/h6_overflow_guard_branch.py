# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown identity=refuted|unknown idempotent=proved|tested|unknown commutative.float32=inexact|unknown|not-evaluated commutative.float64=inexact|unknown|not-evaluated
# t − t == 0 for every real t, so f = max over the reals. When a·b overflows, t − t is
# NaN and f returns b: in float32 f(2**70, 2**69) = 2**69 but f(2**69, 2**70) = 2**70.
def f(a, b):
    t = a * b
    if t - t == 0:
        return max(a, b)
    return b


WITNESS = {
    "identity": [("-inf", 3), (0, -1), ("inf", 3)],
    "commutative.float32": (2 ** 70, 2 ** 69),
    "commutative.float64": (2 ** 600, 2 ** 599),
}
