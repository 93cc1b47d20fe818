# expect: kind=binary associative=refuted|unknown commutative=refuted|unknown identity=refuted|unknown idempotent=proved|tested|unknown
# Step a towards b by 1 while below it, at most three times: the trip count depends on
# the values.
def f(a, b):
    s = a
    k = 0
    while s < b and k < 3:
        s = s + 1
        k += 1
    return s


WITNESS = {
    "associative": (-2, -1, 2),
    "commutative": (0, "1/2"),
    "identity": [("-inf", 1), ("inf", 1), (0, 5)],
}
