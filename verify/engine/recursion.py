"""A limit on how deep the prover follows a function calling itself.

On symbolic values a recursion whose end depends on them (``f(b, a % b)`` until
b == 0) never ends, and each level's terms nest the last ones, so the prover would spend
its whole time building them. A recursion on sizes (an FFT's halves) stays far below
the limit.
"""
from __future__ import annotations

import functools
import types
from typing import Callable

MAX_SYMBOLIC_DEPTH = 6  # calls of one function inside itself that z3 follows (an FFT of 64)


def depth_limited(fn: types.FunctionType, refusal: type[Exception]) -> Callable:
    """``fn`` raising ``refusal`` on more than ``MAX_SYMBOLIC_DEPTH`` nested calls of
    itself (see the module docstring)."""
    depth = 0

    @functools.wraps(fn)
    def limited(*args, **kwargs):
        nonlocal depth
        if depth >= MAX_SYMBOLIC_DEPTH:
            raise refusal(f"{fn.__name__} calls itself more than {MAX_SYMBOLIC_DEPTH} "
                          "levels deep on symbolic values: the prover does not unroll it "
                          "further")
        depth += 1
        try:
            return fn(*args, **kwargs)
        finally:
            depth -= 1
    return limited
