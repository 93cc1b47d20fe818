# expect: kind=binary associative=refuted|unknown commutative=refuted|unknown identity=refuted|unknown idempotent=proved|tested|unknown
# a + b == b holds for real a only at a = 0 (then f is b); otherwise max. At b = −∞ it
# holds for every a, so f(6, −∞) = −∞: −∞ is no identity. Not associative:
# f(f(−1, 0), −2) = −2, f(−1, f(0, −2)) = −1.
def f(a, b):
    if a + b == b:
        return b
    return max(a, b)


WITNESS = {
    "associative": (-1, 0, -2),
    "commutative": (0, -1),
    "identity": [("-inf", 6), (0, -1), ("inf", 6)],
}
