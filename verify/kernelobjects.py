"""The layers Triton wraps a kernel in, peeled in one place.

``@triton.autotune`` (an ``Autotuner``) and ``@triton.heuristics`` (a ``Heuristics``)
each hold the next layer in ``.fn``; the ``@triton.jit`` function under them (a
``JITFunction``, or the interpreter's ``InterpretedFunction``) holds the plain Python
function in ``.fn``. Every place that inspects a kernel object (the combine audit, the
sources a certificate hashes, the operations a kernel uses, a launch's source hash)
peels it here, so a decorated kernel is seen as the kernel it decorates.

In Triton's interpreter an autotuned kernel cannot benchmark its configurations (there
is no driver to time them); ``autotune_in_turn`` makes them take turns instead.

Not covered: wrappers that are not Triton's (a user's own decorator hiding the kernel
behind a closure) — those are not followed.
"""
from __future__ import annotations

import contextlib
import inspect
from typing import Any, Iterator

_MAX_LAYERS = 16


def _triton_object(value: Any) -> bool:
    return type(value).__module__.split(".")[0] == "triton"


def is_jit(value: Any) -> bool:
    """A ``@triton.jit`` function: a Triton object whose ``.fn`` is a plain function."""
    return _triton_object(value) and inspect.isfunction(getattr(value, "fn", None))


def jit_function(value: Any) -> Any | None:
    """The ``@triton.jit`` function under any autotune/heuristics layers of ``value``
    (``value`` itself when it is one); None when ``value`` is not a Triton kernel."""
    for _ in range(_MAX_LAYERS):
        if is_jit(value):
            return value
        if not _triton_object(value) or getattr(value, "fn", None) is None:
            return None
        value = value.fn
    return None


def python_function(value: Any) -> Any:
    """The plain Python function under every Triton layer of ``value``; ``value``
    itself when it is not a Triton kernel."""
    jit = jit_function(value)
    return jit.fn if jit is not None else value


@contextlib.contextmanager
def autotune_in_turn(turn: int) -> Iterator[None]:
    """Within the block every ``@triton.autotune`` kernel with several configurations
    runs configuration ``turn mod k`` (k = how many it has) instead of benchmarking them:
    the interpreter cannot time a launch (no driver), so a certifier there lets the
    configurations take turns over its cases. A GPU's autotuner is left alone."""
    from triton.runtime.autotuner import Autotuner
    original = Autotuner.run

    def run(self, *args, **kwargs):
        configs = self.configs
        if len(configs) <= 1:
            return original(self, *args, **kwargs)
        self.configs = [configs[turn % len(configs)]]
        try:
            return original(self, *args, **kwargs)
        finally:
            self.configs = configs

    Autotuner.run = run
    try:
        yield
    finally:
        Autotuner.run = original
