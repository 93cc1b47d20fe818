# expect: fail homomorphism_n2
# Associative (a product and a sum), but the offset is never scaled.
def compose(first, then):
    return first[0] * then[0], first[1] + then[1]
