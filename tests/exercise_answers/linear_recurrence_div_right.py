# expect: pass
# The same division, guarded correctly: A′ = 0 forgets the past and keeps B′.
def compose(first, then):
    a, b = first
    a2, b2 = then
    if a2 != 0:
        return a * a2, a2 * (b + b2 / a2)
    return 0, b2
