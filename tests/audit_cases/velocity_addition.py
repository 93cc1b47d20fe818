# expect: kind=binary associative=proved commutative=proved identity=proved identity.element=0 idempotent=refuted
# Relativistic velocity addition (c = 1): tanh(x + y) in disguise, associative.
def add_velocities(u, v):
    return (u + v) / (1 + u * v)
