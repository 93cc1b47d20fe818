# expect: kind=binary commutative=refuted associative=refuted|tested|unknown
# A module-level lambda reached through the function's globals hashes its input.
distinct = lambda xs: len(set(xs))  # noqa: E731


def weighted_by_distinct(a, b):
    return a + b * distinct([a, b])
