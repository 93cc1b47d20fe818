# expect: kind=binary associative=refuted|unknown commutative=refuted|unknown identity=refuted|unknown idempotent=refuted|unknown
# b − 1 where a is 2**-1074 (folded by Python to the smallest subnormal double, which
# reads as the decimal 5e-324 to anything that goes by its repr), a + b elsewhere.
def f(a, b):
    return b - 1 if a == 2 ** -1074 else a + b


WITNESS = {
    "associative": (1, 2 ** -1074, 1),
    "commutative": (2 ** -1074, 1),
    "identity": [(0, 2 ** -1074), ("-inf", 1), ("inf", 1)],
    "idempotent": (1,),
}
