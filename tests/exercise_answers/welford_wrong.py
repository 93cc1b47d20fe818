# expect: fail homomorphism_n2
# Associative, but the M2 of the chunks are added without the mean correction.
def combine(a, b):
    n_a, mean_a, m2_a = a
    n_b, mean_b, m2_b = b
    n = n_a + n_b
    return n, (n_a * mean_a + n_b * mean_b) / n, m2_a + m2_b
