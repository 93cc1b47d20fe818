"""Ring all-reduce: reduce-scatter then all-gather around a ring of devices gives every
device the sum of all devices' vectors (over ℝ; in floats the ring's order of addition
changes the bits), and the ring that drops a chunk."""
from ..core import FAILS, Law, Property, Var

P = 3  # devices; each vector has P chunks of one element


def _vars():
    return tuple(Var(f"x{d}", (P,), tuple_state=False) for d in range(P))


def ring_allreduce(*xs, drop=None):
    """Reduce-scatter: at step s (0 … P−2) device d sends its running chunk (d − s) mod
    P to device d + 1, which adds its own element of that chunk. After P − 1 steps device
    d holds the full sum of chunk (d + 1) mod P. All-gather: those sums go around the
    ring unchanged. ``drop = (step, device)`` loses that one send (the receiver keeps
    only its own element)."""
    acc = [[x for x in xs[d]] for d in range(P)]
    for s in range(P - 1):
        sent = [(d, (d - s) % P, acc[d][(d - s) % P]) for d in range(P)]
        for d, c, value in sent:
            to = (d + 1) % P
            if drop != (s, d):
                acc[to][c] = value + acc[to][c]
    owner = {(d + 1) % P: d for d in range(P)}   # chunk → device holding its full sum
    total = [acc[owner[c]][c] for c in range(P)]
    return [list(total) for _ in range(P)]       # all-gather: every device gets every chunk


def reference(*xs, drop=None):
    """Every device gets Σ_d x_d (summed in device order 0, 1, 2)."""
    total = [xs[0][c] + xs[1][c] + xs[2][c] for c in range(P)]
    return [list(total) for _ in range(P)]


SUM = Law(
    id="ring_allreduce.sum", property=Property.ASSOCIATIVITY, secondary=Property.SYMMETRY,
    statement="reduce-scatter + all-gather around a ring of P devices leaves Σ_d x_d on "
              "every device",
    licenses="sum gradients across P devices sending 2(P − 1)/P of a vector per device, "
             "independent of P (bandwidth-optimal all-reduce): NCCL's ring all-reduce, "
             "Horovod, PyTorch DistributedDataParallel",
    vars=_vars(), lhs=ring_allreduce, rhs=reference,
    bounded_by=f"P = {P} devices, vectors of {P} chunks of one element",
    doc="Chunk c is summed starting at device c − 1 around the ring, so each chunk's sum "
        "is a different rotation of the device order; over ℝ every order gives Σ_d x_d "
        "(associativity and commutativity of +). Proved by z3 over ℝ at P = 3. The "
        "float verdicts compare with the sum in device order: the ring's order changes "
        "the bits (every device still gets the same bits, since each chunk is summed "
        "once and then copied). Does not cover other algorithms (trees, recursive "
        "halving), or the communication cost.")

DROPPED_CHUNK = Law(
    id="ring_allreduce.dropped_chunk", property=Property.ASSOCIATIVITY, expect=FAILS,
    statement="a ring all-reduce that loses one send of the reduce-scatter = Σ_d x_d on "
              "every device",
    licenses="nothing: a lost chunk leaves one device's contribution out of that chunk's "
             "sum, on every device",
    vars=_vars(), lhs=lambda *xs: ring_allreduce(*xs, drop=(0, 1)), rhs=reference,
    teaches="ring_allreduce.sum", float_check=False,
    doc="Device 1's first send (its chunk 1) is lost: chunk 1's sum misses x_1[1] "
        "whenever it is nonzero.")

LAWS = [SUM, DROPPED_CHUNK]
