"""What catalog references are written with besides torch itself: the few operations a
torch tensor and a ``radius.Ball`` spell differently (a branch, a constant shaped like
a value, the rounding of an intermediate to the kernel's input format).

Not covered: anything torch spells the same way for both (those go through
``radius_torch.TORCH_TABLE``).
"""
from __future__ import annotations

import torch

from verify.certification import radius
from verify.certification.radius import Ball


def is_ball(*xs) -> bool:
    return any(isinstance(x, (Ball, radius.Decision)) for x in xs)


def where(cond, a, b):
    return radius.where(cond, a, b) if is_ball(cond, a, b) else torch.where(cond, a, b)


def full(like, value):
    """``value`` shaped like ``like`` (a number is enough for a ball)."""
    return value if is_ball(like) else torch.full_like(like, value)


def to_input_format(x):
    """``x`` rounded to the kernel's input format (its dtype): for balls the rounding is
    added to the radius; plain tensors (the naive formulation) are returned as they are."""
    return radius.stored(x) if is_ball(x) else x
