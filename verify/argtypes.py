"""Argument types shared by the command lines (``verify`` and ``verify.decide.recheck``):
each parses one option's text and refuses what is out of range with argparse's
one-line error, so a bad number is exit 2 with the reason."""
from __future__ import annotations

import argparse
from typing import Callable, TypeVar

T = TypeVar("T", int, float)


def ranged(parse: Callable[[str], T], unparsable: str, accept: Callable[[T], bool],
           out_of_range: str) -> Callable[[str], T]:
    """An argparse ``type``: ``parse(text)``, then ``accept(value)``; the messages end
    in ``got 'text'``."""
    def convert(text: str) -> T:
        try:
            value = parse(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{unparsable}, got {text!r}") from None
        if not accept(value):
            raise argparse.ArgumentTypeError(f"{out_of_range}, got {text!r}")
        return value
    return convert


positive_int = ranged(int, "expected a positive integer", lambda v: v >= 1,
                      "expected a positive integer")
seconds = ranged(float, "expected a number of seconds", lambda v: 0 < v < float("inf"),
                 "expected a positive number of seconds")
seed = ranged(int, "expected an integer", lambda v: 0 <= v < 2 ** 32,
              "expected an integer from 0 to 2**32 - 1")
gib = ranged(float, "expected a number of GiB", lambda v: 0.5 <= v < 2 ** 20,
             "expected at least 0.5 GiB")
