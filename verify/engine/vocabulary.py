"""The modelled vocabulary: the words a law side or a user's function may use, which
interpretation gives each a meaning, and the domain condition of each partial word.

Every interpretation registers itself where it is implemented (``register``): its name,
how to build one (``make``: an object with ``tl``, ``math`` and ``np`` namespaces) and
a number of its own with a way to run code on it (``sample``). Its words are then the
names its namespaces hold, read off the interpretation it builds; a word is unsupported
there when the namespace raises ``Unsupported`` for it or holds an explicit stub whose
``unsupported`` attribute says why, and a verdict that needs it becomes ``unknown``.
``support_matrix()`` is computed from the registrations, so nothing here mirrors them;
``runs_matrix()`` calls every word on each interpretation's sample number instead, and
``drift()`` lists where the two differ (a word held but refusing to run, a stub that
runs). A test prints the matrix and fails on drift.

``operator_matrix()`` does the same for the Python operators whose meaning differs
between number types (``//``, ``%``, ``divmod``: floor toward −∞, the remainder with
the sign of the divisor, as Python's floats and ints have them), probed on each sample.

Only interpretations whose modules have been imported are registered: this module
imports none of them (they import it).

``DOMAINS`` gives the side condition of each partial word: outside it, Python's
``math`` raises (the point decides nothing), while ``tl``/``np``/``torch`` return NaN
or ±∞ (which the checker compares like any value).

>>> DOMAINS["sqrt"]
'x ≥ 0'
"""
from __future__ import annotations

import inspect
import re
from dataclasses import dataclass
from typing import Any, Callable

from verify.engine.interp import Unsupported

MODULES = ("tl", "math", "np")

# partial words: the condition under which each is defined over the reals
DOMAINS: dict[str, str] = {
    "log": "x > 0", "log2": "x > 0", "log1p": "x > −1", "sqrt": "x ≥ 0",
    "cdiv": "b ≠ 0", "//": "b ≠ 0", "%": "b ≠ 0", "divmod": "b ≠ 0",
}

# A sample: (a number of the interpretation, run) where run(thunk) calls thunk in the
# interpretation's context (a query for z3, a model for balls) and returns its value.
Sample = tuple[Any, Callable[[Callable[[], Any]], Any]]


@dataclass(frozen=True)
class Registration:
    """One interpretation as the vocabulary knows it."""
    name: str
    make: Callable[[], Any]          # builds one: namespaces ``tl``, ``math``, ``np``
    sample: Callable[[], Sample]     # a number of its own, and how to run code on it
    values: str                      # what its values are, one line


REGISTRY: dict[str, Registration] = {}


def run_directly(thunk: Callable[[], Any]) -> Any:
    """The ``run`` of a sample for interpretations that need no context."""
    return thunk()


def register(name: str, make: Callable[[], Any], sample: Callable[[], Sample],
             values: str) -> None:
    """Make the interpretation ``name`` a column of the vocabulary (idempotent)."""
    REGISTRY[name] = Registration(name, make, sample, values)


def words_of(interp: Any) -> set[str]:
    """``module.word`` for every name the interpretation's namespaces hold (stubs and
    private names excluded)."""
    found = set()
    for module in MODULES:
        ns = getattr(interp, module, None)
        for word, value in (vars(ns).items() if ns is not None else ()):
            if not word.startswith("_") and not getattr(value, "unsupported", None):
                found.add(f"{module}.{word}")
    return found


def support_matrix() -> dict[str, set[str]]:
    """word -> the registered interpretations whose namespaces implement it."""
    out: dict[str, set[str]] = {}
    for name, reg in REGISTRY.items():
        for word in words_of(reg.make()):
            out.setdefault(word, set()).add(name)
    return out


def _arities(fn: Callable) -> list[int]:
    """The numbers of arguments (1 to 3) ``fn`` accepts, by its signature; all three
    when it has none to read."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return [1, 2, 3]
    fits = []
    for k in (1, 2, 3):
        try:
            sig.bind(*[0] * k)
        except TypeError:
            continue
        fits.append(k)
    return fits


_ARITY = re.compile(r"positional argument|takes (exactly |at most |at least )?\d|missing \d|"
                    r"expected \d+ arguments?|required argument")


def _runs(interp: Any, run: Callable, x: Any, word: str) -> bool:
    """Whether ``word`` means something in ``interp``: looked up without a refusal, and
    for a function, called on ``x`` (as many times as it takes arguments; a condition
    word such as ``where`` gets ``x > 0`` first; then on the list ``[x, x]``) without
    raising ``Unsupported``. A call that fails for another reason (a wrong number of
    arguments aside) still counts: the word was understood, the value was not."""
    module, _, name = word.partition(".")
    ns = getattr(interp, module, None)
    if ns is None:
        return False
    try:
        value = getattr(ns, name)
    except (Unsupported, AttributeError):
        return False
    if not callable(value):
        return True
    calls = [lambda k=k: value(*[x] * k) for k in _arities(value)]
    calls += [lambda k=k: value(x > 0, *[x] * (k - 1)) for k in _arities(value) if k > 1]
    calls.append(lambda: value([x, x]))  # a word over an iterable (fsum, prod)
    for call in calls:
        try:
            run(call)
            return True
        except Unsupported:
            continue
        except TypeError as exc:
            if _ARITY.search(str(exc)):
                continue        # a wrong number of arguments, not a rejected value
            return True
        except Exception:  # noqa: BLE001 — a value the word rejects, not the word
            return True
    return False


def runs_matrix(words: set[str] | None = None) -> dict[str, set[str]]:
    """word -> the registered interpretations where calling it on their sample number
    does not refuse (probed, not read off the namespaces)."""
    words = set(support_matrix()) if words is None else words
    out: dict[str, set[str]] = {w: set() for w in words}
    for name, reg in REGISTRY.items():
        interp = reg.make()
        x, run = reg.sample()
        for word in words:
            if _runs(interp, run, x, word):
                out[word].add(name)
    return out


_OPERATIONS = {"//": lambda a, b: a // b, "%": lambda a, b: a % b, "divmod": divmod}


def operator_matrix() -> dict[str, set[str]]:
    """operator -> the registered interpretations whose numbers run it (probed)."""
    out: dict[str, set[str]] = {op: set() for op in _OPERATIONS}
    for name, reg in REGISTRY.items():
        x, run = reg.sample()
        for op, f in _OPERATIONS.items():
            try:
                run(lambda: f(x, 2))  # noqa: B023 — called at once
            except (TypeError, Unsupported, NotImplementedError, AttributeError):
                continue
            out[op].add(name)
    return out


def drift() -> list[str]:
    """Every word whose registered interpretations differ from those where it runs, one
    line each."""
    registered = support_matrix()
    running = runs_matrix(set(registered))
    return [f"{word}: registered {sorted(registered[word])}, runs {sorted(running[word])}"
            for word in sorted(registered) if registered[word] != running[word]]


def render() -> str:
    """The support matrix as a text table (one row a word or operator, one column a
    registered interpretation), with what each column's values are."""
    names = sorted(REGISTRY)
    actual = {**support_matrix(), **operator_matrix()}
    width = max([len(w) for w in actual] + [len(n) for n in names])
    col = max(len(n) for n in names)
    head = " " * width + "  " + "  ".join(f"{n:{col}}" for n in names)
    rows = [f"{w:{width}}  " + "  ".join(f"{'yes' if n in actual[w] else '-':{col}}"
                                          for n in names)
            for w in sorted(actual)]
    legend = [f"{n:{width}}  {REGISTRY[n].values}" for n in names]
    return "\n".join(legend + ["", head] + rows)
