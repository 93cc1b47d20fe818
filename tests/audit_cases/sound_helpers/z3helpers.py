"""Helpers whose module names start with z3 (user code, not z3's)."""


def same_or_sum(a, b):
    return a if a == b else a + b


def zero_or_sum(a, b):
    return 0.0 if a == b else a + b


def max_by_equality(a, b):
    if a == b:
        return a
    return max(a, b)
