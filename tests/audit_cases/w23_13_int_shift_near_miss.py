# expect: kind=binary associative=refuted commutative=refuted idempotent=refuted
# Near miss of the bitwise words: a left shift is neither associative nor commutative
# (2 << 1 = 4 against 1 << 2 = 4 agrees, 1 << 0 = 1 against 0 << 1 = 0 does not).


def f(a: int, b: int):
    return a << b
