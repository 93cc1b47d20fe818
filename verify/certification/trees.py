"""Merge trees: each combine a kernel relies on, run under the trees real lowerings use.

Triton's interpreter folds ``tl.reduce`` left to right, so some merges a GPU performs
never happen when a kernel is certified there: two empty states merged (identity-padded
lanes paired in a tree: Welford's 0/0, FlashAttention's −∞ − (−∞)), an empty state on
the left of a full one, the larger maximum arriving from the right. This stage takes
every monoid law set among a kernel's laws (``laws.REGISTRY.law_set``: the combine,
its identity, lift, lower and specification) and runs the combine itself — the function
the kernel calls, through the torch interpretation in the kernel's accumulation format —
under these trees over lanes padded with the identity to a power of two:

  sequential      left fold over the padded lanes (the interpreter's ``tl.reduce``)
  from-identity   left fold of the data from the identity (a kernel's block loop)
  balanced        adjacent lanes merged level by level (lane 0 of a butterfly)
  blocked         balanced within blocks of 4 lanes, then a left fold of the block
                  states from the identity (``tl.reduce`` per block inside a loop)
  right           right fold over the padded lanes
  strided         lane i merged with lane i + h, h halving (commutative combines only)
  swapped         balanced with both operands of every merge swapped (commutative only)

Checks (a failure is one line naming the family, tree, lanes, data and values):

* all lanes empty: every tree gives the identity exactly, never NaN;
* data (random, huge range, all far below zero, ties, cancellation; 1 to 33 data in up
  to 64 lanes): lower(tree) lies within a rigorous radius of the specification
  evaluated exactly (mpmath, 113 bits). The radius is the same tree evaluated on balls
  (``radius``: running error analysis of exactly that order of merges, in the format of
  the float evaluation, with the host's elementary-function ulps), so an algebraically
  right tree passes however its roundings fall, and a combine that is wrong or NaN on
  some merge fails. Points where the exact answer leaves the format's range, or where
  the ball has no finite radius, are counted as unchecked, never as passing.

Not covered: the kernel's own code around the combine (its certificate's cases check
that); more than 64 lanes (the shapes repeat); law sets whose lift is indexed by
position; states that are not floats.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Sequence

import mpmath
import numpy as np
import torch

from verify.certification import radius
from verify.certification.bounds import ball_interpretation
from verify.certification.radius import Ball
from verify.engine.arraywords import make_torch
from verify.engine.mpwords import make_mpmath

LENGTHS = (1, 2, 3, 5, 8, 13, 16, 17, 33)
SEEDS = 3
BLOCK = 4
ORACLE_BITS = 113
State = Any  # a tensor, a Ball, or a tuple of them


# --------------------------------------------------------------------------- trees
def _padded(leaves: Sequence[State], identity: State) -> list[State]:
    width = 2
    while width < len(leaves):
        width *= 2
    return list(leaves) + [identity] * (width - len(leaves))


def _balanced(lanes: Sequence[State], merge: Callable) -> State:
    level = list(lanes)
    while len(level) > 1:
        level = [merge(level[i], level[i + 1]) for i in range(0, len(level), 2)]
    return level[0]


def _sequential(leaves, identity, merge):
    lanes = _padded(leaves, identity)
    acc = lanes[0]
    for lane in lanes[1:]:
        acc = merge(acc, lane)
    return acc


def _from_identity(leaves, identity, merge):
    acc = identity
    for leaf in leaves:
        acc = merge(acc, leaf)
    return acc


def _balanced_tree(leaves, identity, merge):
    return _balanced(_padded(leaves, identity), merge)


def _blocked(leaves, identity, merge):
    lanes = _padded(leaves, identity)
    while len(lanes) % BLOCK:
        lanes.append(identity)
    acc = identity
    for start in range(0, len(lanes), BLOCK):
        acc = merge(acc, _balanced(lanes[start:start + BLOCK], merge))
    return acc


def _right(leaves, identity, merge):
    lanes = _padded(leaves, identity)
    acc = lanes[-1]
    for lane in reversed(lanes[:-1]):
        acc = merge(lane, acc)
    return acc


def _strided(leaves, identity, merge):
    lanes = _padded(leaves, identity)
    while len(lanes) > 1:
        half = len(lanes) // 2
        lanes = [merge(lanes[i], lanes[i + half]) for i in range(half)]
    return lanes[0]


def _swapped(leaves, identity, merge):
    return _balanced(_padded(leaves, identity), lambda a, b: merge(b, a))


IN_ORDER = {"sequential": _sequential, "from-identity": _from_identity,
            "balanced": _balanced_tree, "blocked": _blocked, "right": _right}
COMMUTATIVE = {"strided": _strided, "swapped": _swapped}


def trees_for(commutative: bool) -> dict[str, Callable]:
    """The trees a lowering may use for a combine: in-order groupings always, reordered
    operands only when the law set declares the combine commutative."""
    return {**IN_ORDER, **(COMMUTATIVE if commutative else {})}


# --------------------------------------------------------------------------- balls
# --------------------------------------------------------------------------- data
def _data_families(rng: np.random.Generator, n: int, fmt: torch.dtype) -> dict[str, np.ndarray]:
    """Sums of up to 64 of these stay inside the format (float16 scales them down)."""
    cap = float(torch.finfo(fmt).max) / 256
    magnitudes = 10.0 ** rng.uniform(-3, min(8.0, math.log10(cap)), n)
    return {
        "random": rng.normal(0, 3, n),
        "huge range": rng.normal(0, min(2e4, cap), n),
        "far below zero": -min(1e4, cap) + rng.normal(0, 1, n),
        "ties": np.full(n, 7.0),
        "cancellation": magnitudes * rng.choice([-1.0, 1.0], n),
    }


@dataclass
class Batch:
    """Sequences of one length: ``data[i]`` is the i-th datum of every sequence (a
    float64 tensor per datum component, exact in the evaluation format)."""

    names: list[str]
    data: list[tuple[torch.Tensor, ...]]


def _batch(n: int, components: int, fmt: torch.dtype, seed: int) -> Batch:
    names, columns = [], []  # columns[c] : (sequences, n)
    rows: list[list[np.ndarray]] = [[] for _ in range(components)]
    for s in range(SEEDS):
        rng = np.random.default_rng([seed, n, s])
        fams = _data_families(rng, n, fmt)
        for name, first in fams.items():
            names.append(f"{name} (seed {s})")
            rows[0].append(first)
            for c in range(1, components):
                rows[c].append(rng.normal(0, 1, n))
    for c in range(components):
        columns.append(torch.tensor(np.stack(rows[c]), dtype=torch.float64).to(fmt)
                       .to(torch.float64))
    data = [tuple(columns[c][:, i] for c in range(components)) for i in range(n)]
    return Batch(names, data)


# --------------------------------------------------------------------------- evaluation
def _components(x: State) -> list:
    return list(x) if isinstance(x, (tuple, list)) else [x]


def _shape_like(template: Any, parts: list) -> State:
    return tuple(parts) if isinstance(template, (tuple, list)) else parts[0]


def _as_tensors(value: Any, size: int, fmt: torch.dtype) -> State:
    parts = [torch.as_tensor(p, dtype=fmt).expand(size).clone()
             if not isinstance(p, torch.Tensor) or p.dim() == 0 else p.to(fmt)
             for p in _components(value)]
    return _shape_like(value, parts)


def _as_balls(value: Any, size: int) -> State:
    parts = []
    for p in _components(value):
        if isinstance(p, Ball):
            parts.append(p)
        else:
            v = torch.as_tensor(p, dtype=torch.float64).expand(size).clone()
            parts.append(Ball(v, torch.zeros_like(v)))
    return _shape_like(value, parts)


def _datum(columns: tuple[torch.Tensor, ...], components: int) -> Any:
    return columns[0] if components == 1 else tuple(columns)


class _Family:
    """One law set, interpreted three ways: floats, balls, exact."""

    def __init__(self, law_set: Any, fmt: torch.dtype) -> None:
        self.law_set = law_set
        self.fmt = fmt
        self.components = max(1, int(np.prod(law_set.datum.shape))) if law_set.datum.shape else 1
        floats, balls, exact = make_torch(), ball_interpretation(), make_mpmath()
        self.merge_f = floats.rebind(law_set.combine)
        self.merge_b = balls.rebind(law_set.combine)
        self.lift_f, self.lift_b = floats.rebind(law_set.lift), balls.rebind(law_set.lift)
        self.lower_f = floats.rebind(law_set.lower)
        self.lower_b = balls.rebind(law_set.lower)
        self.spec = exact.rebind(law_set.spec)

    def exact(self, batch: Batch, n: int) -> list[list[float]]:
        """The specification of each sequence at ORACLE_BITS, as float64 per component."""
        out = []
        with mpmath.workprec(ORACLE_BITS):
            for j in range(len(batch.names)):
                xs = [tuple(mpmath.mpf(float(c[j])) for c in d) if self.components > 1
                      else mpmath.mpf(float(d[0][j])) for d in batch.data[:n]]
                out.append([float(v) for v in _components(self.spec(xs))])
        return out


def _identity_check(fam: _Family, trees: dict, size: int) -> list[str]:
    ident = fam.law_set.identity
    want = [float(v) for v in _components(ident)]
    failures = []
    for name, tree in trees.items():
        empty = _as_tensors(ident, size, fam.fmt)
        got = _components(tree([empty] * 8, empty, fam.merge_f))
        for k, (g, w) in enumerate(zip(got, want)):
            g = torch.as_tensor(g).to(torch.float64).reshape(-1)
            if not bool((g == w).all()):
                bad = g[g != w][0].item()
                failures.append(f"{fam.law_set.family}: tree '{name}' over 8 empty lanes gives "
                                f"component {k} = {bad!r}, the identity has {w!r}")
                break
    return failures


def _data_check(fam: _Family, trees: dict, n: int, seed: int, record: dict) -> list[str]:
    batch = _batch(n, fam.components, fam.fmt, seed)
    size = len(batch.names)
    exact = fam.exact(batch, n)
    ys = [torch.tensor(column, dtype=torch.float64) for column in zip(*exact)]
    limit = float(torch.finfo(fam.fmt).max) / 4
    model = radius.model_for("host", str(fam.fmt).replace("torch.", ""))
    identity_f = _as_tensors(fam.law_set.identity, size, fam.fmt)
    identity_b = _as_balls(fam.law_set.identity, size)
    leaves_f = [_as_tensors(fam.lift_f(_datum(tuple(c.to(fam.fmt) for c in d),
                                              fam.components)), size, fam.fmt)
                for d in batch.data]
    with radius.using(model):
        leaves_b = [_as_balls(fam.lift_b(_datum(tuple(Ball(c, torch.zeros_like(c)) for c in d),
                                                fam.components)), size)
                    for d in batch.data]
    failures = []
    for name, tree in trees.items():
        got = _components(fam.lower_f(tree(leaves_f, identity_f, fam.merge_f)))
        with radius.using(model):
            ball = _components(fam.lower_b(tree(leaves_b, identity_b, fam.merge_b)))
        for k, (g, b, y) in enumerate(zip(got, ball, ys)):
            g = torch.as_tensor(g).to(torch.float64).expand(size)
            r = radius.lift(b).r.expand(size)
            representable = torch.isfinite(y) & (y.abs() < limit)
            in_range = representable & torch.isfinite(r)
            # NaN or ±∞ where the exact answer is an ordinary number fails, radius or not
            broken = representable & ~torch.isfinite(g)
            record["unchecked"] += int((~in_range & ~broken).sum())
            record["checked"] += int((in_range | broken).sum())
            err = (g - y).abs()
            ok = ~broken & (~in_range | (err <= r))
            rho = torch.where(in_range & (r > 0), err / r, torch.zeros_like(err))
            rho = torch.where(in_range & (r == 0) & (err > 0), torch.full_like(err, math.inf), rho)
            record["worst_rho"] = max(record["worst_rho"], float(rho.nan_to_num(math.inf).max()))
            if not bool(ok.all()):
                j = int((~ok).nonzero()[0])
                failures.append(
                    f"{fam.law_set.family}: tree '{name}', {n} data in "
                    f"{len(_padded(range(n), 0))} lanes ({batch.names[j]}): lower component {k} "
                    f"= {g[j].item()!r}, exact {y[j].item()!r}, radius {r[j].item():.3g}")
                break
    return failures


def check_family(law_set: Any, fmt: torch.dtype = torch.float32, seed: int = 0,
                 lengths: Iterable[int] = LENGTHS) -> dict:
    """Run one law set's combine under every tree; the record the certificate keeps."""
    trees = trees_for(law_set.commutative)
    fam = _Family(law_set, fmt)
    record = {"trees": list(trees), "format": str(fmt).replace("torch.", ""),
              "lengths": list(lengths), "checked": 0, "unchecked": 0, "worst_rho": 0.0,
              "failures": []}
    empty = _identity_check(fam, trees, 4)
    failures = list(empty)
    first_per_tree: dict[str, str] = {}
    for n in lengths:
        for line in _data_check(fam, trees, n, seed, record):
            first_per_tree.setdefault(line.split("'")[1], line)
            failures.append(line)
    record["failures"] = empty + list(first_per_tree.values())  # one per tree and check
    record["failure_count"] = len(failures)
    record["pass"] = not failures and record["checked"] > 0
    return record


def law_sets_of(law_ids: Iterable[str]) -> list[Any]:
    """The monoid law sets behind ``law_ids`` that have a combine, lift, lower and spec
    and take no positional index (the ones this stage can run)."""
    from laws import REGISTRY
    seen: dict[str, Any] = {}
    for law_id in law_ids:
        family = law_id.split(".", 1)[0]
        law_set = REGISTRY.law_set(family)
        if law_set is None or family in seen:
            continue
        if all(getattr(law_set, f) is not None for f in ("lift", "lower", "spec")) \
                and not law_set.indexed:
            seen[family] = law_set
    return list(seen.values())


def merge_trees(law_ids: Iterable[str], formats: Iterable[str], seed: int = 0) -> dict:
    """The certificate's ``merge_trees`` entry for a kernel with these laws, in each
    accumulation format it uses."""
    families: dict[str, dict] = {}
    for fmt_name in sorted(set(formats)):
        fmt = getattr(torch, fmt_name)
        for law_set in law_sets_of(law_ids):
            key = law_set.family if fmt_name == "float32" else f"{law_set.family} ({fmt_name})"
            families[key] = check_family(law_set, fmt, seed)
    passed = all(r["pass"] for r in families.values())
    out = {"pass": passed, "families": families}
    if not families:
        out["note"] = "no monoid law set among the kernel's laws: no combine to run under trees"
    return out
