"""Which of a wrapper's return values is which output of the reference.

``bind(..., outputs=...)`` says it in one of three ways, checked when the binding is
made (a bad one is ``BadInput``):

- nothing: the reference's outputs, in the reference's order;
- a tuple of names: the outputs the wrapper returns, in that order;
- a map ``{"y": 0, "rstd": 2}``: output name → position in the returned tuple (the
  values at other positions are not compared).

A result is then matched (``OutputMap.match``): a dict by its keys and a named tuple by
its field names, whatever the order; a single tensor is the one named output; a plain
tuple or list by the map, or, without one, position by position — and then its length
must equal the number of names, since a wrapper returning more (or fewer) values than
the binding names would otherwise have the wrong tensors compared. Every mismatch
raises ``OutputMismatch`` (a ``BadInput``) with one line that says what was returned,
what was expected and how to say it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

import torch

from verify.errors import BadInput


class OutputMismatch(BadInput):
    """The wrapper's result does not fit the outputs the binding names."""


@dataclass(frozen=True)
class OutputMap:
    """The outputs compared (``names``, in order) and, for a map, their positions."""

    names: tuple[str, ...]
    positions: tuple[int, ...] | None = None

    def match(self, result: Any) -> dict:
        """{name: value} for every name, from what the wrapper returned."""
        if isinstance(result, Mapping):
            return self._by_name(dict(result), "a dict with keys")
        if isinstance(result, torch.Tensor):
            result = (result,)
        fields = getattr(result, "_fields", None)
        if fields is not None and self.positions is None:
            return self._by_name(result._asdict(), f"a {type(result).__name__} with fields")
        if not isinstance(result, (tuple, list)):
            raise OutputMismatch(f"the wrapper returned a {type(result).__name__}; expected "
                                 f"a tensor, a tuple, a named tuple or a dict of "
                                 f"{self._expected()}")
        if self.positions is not None:
            return self._by_position(tuple(result))
        if len(result) != len(self.names):
            hint = ", ".join(f"{name!r}: {i}" for i, name in enumerate(self.names))
            raise OutputMismatch(
                f"the wrapper returned {_count(len(result))} but the binding names "
                f"{len(self.names)} output{'s' if len(self.names) != 1 else ''} "
                f"({', '.join(self.names)}); say which value is which with "
                f"outputs={{{hint}}} (output → position)")
        return dict(zip(self.names, result))

    def _by_name(self, values: dict, what: str) -> dict:
        missing = [n for n in self.names if n not in values]
        if missing:
            raise OutputMismatch(f"the wrapper returned {what} {', '.join(map(str, values))}"
                                 f" but not {', '.join(missing)} (expected {self._expected()})")
        return {n: values[n] for n in self.names}

    def _by_position(self, values: tuple) -> dict:
        assert self.positions is not None
        beyond = [f"{n} at {p}" for n, p in zip(self.names, self.positions)
                  if p >= len(values)]
        if beyond:
            raise OutputMismatch(f"the wrapper returned {_count(len(values))} but the "
                                 f"outputs map expects {', '.join(beyond)}")
        return {n: values[p] for n, p in zip(self.names, self.positions)}

    def _expected(self) -> str:
        return ", ".join(self.names)


def _count(n: int) -> str:
    return f"{n} value" + ("" if n == 1 else "s")


def output_map(outputs: Any, reference_name: str, known: tuple[str, ...]) -> OutputMap:
    """The ``OutputMap`` for ``bind``'s ``outputs=`` against a reference with outputs
    ``known``; ``BadInput`` for a name it lacks, a position that is not a distinct
    integer ≥ 0, or an empty selection."""
    if outputs is None:
        return OutputMap(tuple(known))
    if isinstance(outputs, str):
        outputs = (outputs,)
    if isinstance(outputs, Mapping):
        names, positions = tuple(outputs), tuple(outputs.values())
        bad = [f"{n}: {p!r}" for n, p in outputs.items()
               if not isinstance(p, int) or isinstance(p, bool) or p < 0]
        if bad:
            raise BadInput(f"outputs map: positions must be integers ≥ 0 (got {', '.join(bad)})")
        if len(set(positions)) != len(positions):
            raise BadInput(f"outputs map: two outputs at one position ({outputs})")
    else:
        names, positions = tuple(outputs), None
    if not names:
        raise BadInput(f"outputs=: no output of reference {reference_name!r} named "
                       f"(it has: {', '.join(known)})")
    missing = [str(o) for o in names if o not in known]
    if missing:
        raise BadInput(f"reference {reference_name!r} has no output(s) {', '.join(missing)} "
                       f"(it has: {', '.join(known)})")
    if len(set(names)) != len(names):
        raise BadInput(f"outputs=: an output named twice ({', '.join(names)})")
    return OutputMap(names, positions)
