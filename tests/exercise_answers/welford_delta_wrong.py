# expect: fail associative
# The second chunk's share of the merged count read off the means (a division by
# δ = μ′ − μ). Equal means need no correction, but that branch drops the second chunk's
# M2, which only a merge of two chunks (never a chunk and one datum) shows.
def combine(a, b):
    n_a, mean_a, m2_a = a
    n_b, mean_b, m2_b = b
    n = n_a + n_b
    delta = mean_b - mean_a
    if delta != 0:
        share = ((n_a * mean_a + n_b * mean_b) / n - mean_a) / delta
        return n, mean_a + share * delta, m2_a + m2_b + delta * delta * n_a * share
    return n, mean_a, m2_a
