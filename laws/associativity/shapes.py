"""Algorithm shapes, checked in the free monoid: sequences of atoms under
concatenation. Two shapes that build the same word compute the same result for EVERY
associative operation, at that size — an exact proof, bounded by the sizes tried."""
from ..core import FREE_MONOID, Law, Property, Var

_N = tuple(range(1, 65))


def _xs(n, **_):
    return (Var("xs", (n,), tuple_state=False),)


def power_by_squaring(x, n, op, identity):
    """xⁿ with O(log n) combines (Egyptian multiplication)."""
    result, square = identity, x
    while n:
        if n & 1:
            result = op(result, square)
        square = op(square, square)
        n >>= 1
    return result


def repeated(x, n, op, identity):
    acc = identity
    for _ in range(n):
        acc = op(acc, x)
    return acc


def sequential_scan(xs, op):
    out, acc = [], None
    for x in xs:
        acc = x if acc is None else op(acc, x)
        out.append(acc)
    return out


def blelloch_scan(xs, op, identity):
    """Inclusive scan by up-sweep / down-sweep (work-efficient, O(log n) depth) on the
    input padded with the identity to a power of two."""
    n = len(xs)
    size = 1
    while size < n:
        size *= 2
    a = list(xs) + [identity] * (size - n)
    step = 1
    while step < size:                      # up-sweep: partial reductions
        for i in range(2 * step - 1, size, 2 * step):
            a[i] = op(a[i - step], a[i])
        step *= 2
    a[size - 1] = identity                  # down-sweep: exclusive prefixes
    step = size // 2
    while step >= 1:
        for i in range(2 * step - 1, size, 2 * step):
            left = a[i - step]
            a[i - step] = a[i]
            a[i] = op(a[i], left)
        step //= 2
    return [op(a[i], xs[i]) for i in range(n)]


def chunked_fold(xs, op, chunk):
    partials = []
    for start in range(0, len(xs), chunk):
        acc = xs[start]
        for x in xs[start + 1:start + chunk]:
            acc = op(acc, x)
        partials.append(acc)
    acc = partials[0]
    for p in partials[1:]:
        acc = op(acc, p)
    return acc


def fold(xs, op):
    acc = xs[0]
    for x in xs[1:]:
        acc = op(acc, x)
    return acc


POWER = Law(
    id="power_by_squaring.equals_repeated", property=Property.ASSOCIATIVITY,
    statement="x^n by squaring (⌊log₂ n⌋ + 1 squarings, one per bit of n) = x ⊕ x ⊕ … ⊕ x "
              "(n times)",
    licenses="n-fold combination in O(log n) steps: matrix powers, fast exponentiation, "
             "jump-ahead in random number generators",
    vars=_xs, method=FREE_MONOID, instances=tuple({"n": n} for n in _N),
    bounded_by="n ≤ 64",
    lhs=lambda xs, op, identity, n: power_by_squaring(xs[0], n, op, identity),
    rhs=lambda xs, op, identity, n: repeated(xs[0], n, op, identity),
    doc="Holds for every monoid at each n checked. Does not need commutativity.")

BLELLOCH = Law(
    id="blelloch_scan.equals_sequential", property=Property.ASSOCIATIVITY,
    statement="up-sweep/down-sweep scan = sequential prefix x₁, x₁⊕x₂, …",
    licenses="prefix sums and scans in O(log n) depth with O(n) work (CUB's block scan, "
             "tl.associative_scan, stream compaction)",
    vars=_xs, method=FREE_MONOID, instances=tuple({"n": n} for n in _N),
    bounded_by="n ≤ 64, inputs padded with the identity to a power of two",
    lhs=lambda xs, op, identity, n: blelloch_scan(xs, op, identity),
    rhs=lambda xs, op, identity, n: sequential_scan(xs, op),
    kernels=("scan",), references=("blelloch1990",),
    doc="Needs associativity and an identity, not commutativity: the free monoid is "
        "not commutative, so the proof shows the operands stay in order.")

CHUNKED = Law(
    id="chunked_fold.equals_fold", property=Property.ASSOCIATIVITY,
    statement="fold(fold(chunk₁), …, fold(chunk_m)) = fold(x₁, …, xₙ) for every chunk size",
    licenses="any split of a reduction into contiguous chunks (split-K GEMM, multi-block "
             "reductions, gradient accumulation)",
    vars=_xs, method=FREE_MONOID,
    instances=tuple({"n": n, "chunk": c} for n in _N for c in (1, 2, 3, 4, 5, 7, 8, 16, 64)
                    if c <= n),
    bounded_by="n ≤ 64, chunk sizes 1, 2, 3, 4, 5, 7, 8, 16, 64",
    lhs=lambda xs, op, identity, n, chunk: chunked_fold(xs, op, chunk),
    rhs=lambda xs, op, identity, n, chunk: fold(xs, op),
    doc="Contiguous chunks only: reordering chunks needs commutativity as well.")

LAWS = [POWER, BLELLOCH, CHUNKED]
