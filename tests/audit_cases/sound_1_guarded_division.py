# expect: kind=binary associative=refuted commutative=proved
# A total function: the division is guarded, so no assumption a + b ≠ 0 may be made;
# associativity fails exactly there: f(f(1, −1), 2) = 0, f(1, f(−1, 2)) = 2.
def h(a, b):
    s = a + b
    return a * b / s if s != 0 else 0.0
