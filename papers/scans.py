"""Parallel scans and reductions as the texts draw them, instrumented: each returns its
result together with the number of combines (work) and of parallel rounds (depth), and
runs over any associative operation — the free monoid (tuples under concatenation)
shows exactly which elements each output combines.
"""
from __future__ import annotations

from typing import Callable, Sequence


def concat(a: tuple, b: tuple) -> tuple:
    return a + b


def leaves(n: int) -> list[tuple]:
    """The free monoid's generators: element i is the one-letter word (i,)."""
    return [(i,) for i in range(n)]


def tree_reduction(xs: Sequence, op: Callable) -> tuple[object, int, int]:
    """Pairwise rounds until one value is left: (total, combines, rounds)."""
    level, work, depth = list(xs), 0, 0
    while len(level) > 1:
        nxt = [op(level[i], level[i + 1]) for i in range(0, len(level) - 1, 2)]
        work += len(level) // 2
        if len(level) % 2:
            nxt.append(level[-1])
        level, depth = nxt, depth + 1
    return level[0], work, depth


def hillis_steele(xs: Sequence, op: Callable) -> tuple[list, int, int]:
    """Inclusive scan in ⌈log₂n⌉ rounds; round k combines x[i − 2ᵏ] into x[i]."""
    cur, work, depth, step = list(xs), 0, 0, 1
    while step < len(cur):
        cur = [cur[i] if i < step else op(cur[i - step], cur[i]) for i in range(len(cur))]
        work += len(cur) - step
        depth, step = depth + 1, step * 2
    return cur, work, depth


def blelloch_upsweep(xs: Sequence, op: Callable) -> tuple[list[list], int]:
    """The up-sweep on n = 2ᵏ elements: the array after each level, and the combines."""
    cur, levels, work, step = list(xs), [], 0, 1
    while step < len(cur):
        cur = list(cur)
        for i in range(2 * step - 1, len(cur), 2 * step):
            cur[i] = op(cur[i - step], cur[i])
            work += 1
        levels.append(cur)
        step *= 2
    return levels, work


def blelloch(xs: Sequence, op: Callable, identity) -> tuple[list, int, int]:
    """Work-efficient scan (up-sweep, then the down-sweep as the text describes it:
    replace the root with the identity; a left child gets its parent, a right child its
    parent combined with the old left). Returns the *exclusive* prefixes, the combines
    and the rounds. n must be a power of two."""
    n = len(xs)
    if n & (n - 1):
        raise ValueError("the tree scan needs n = 2ᵏ")
    levels, work = blelloch_upsweep(xs, op)
    cur = list(levels[-1]) if levels else list(xs)
    depth = len(levels)
    cur[-1] = identity
    step = n // 2
    while step >= 1:
        for i in range(2 * step - 1, n, 2 * step):
            left = cur[i - step]
            cur[i - step] = cur[i]
            cur[i] = op(cur[i], left)
            work += 1
        depth += 1
        step //= 2
    return cur, work, depth


def sequential(xs: Sequence, op: Callable) -> list:
    out, acc = [], None
    for x in xs:
        acc = x if acc is None else op(acc, x)
        out.append(acc)
    return out
