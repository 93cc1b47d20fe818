"""What is checked of an exercise answer's form before it is judged, shared by
``verify.teaching.exercise`` and ``verify.teaching.exercises_systems``: the bad-input
error and the parameters an answer requires."""
from __future__ import annotations

import inspect
import types

from verify.errors import BadInput


class ExerciseError(BadInput):
    """Bad input: one line on stderr, exit status 2."""


def required_params(fn: types.FunctionType) -> list:
    """The parameters a call must fill: positional, without a default."""
    return [p for p in inspect.signature(fn).parameters.values()
            if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY,
                                                   p.POSITIONAL_OR_KEYWORD)]
