"""The modelled vocabulary: each word a law side or a user's function may use, its
meaning in each interpretation, and its domain condition, declared once.

``SUPPORT`` says, per word (``tl.exp``, ``math.log``, ``np.where``, …), which
interpretations implement it; in every other interpretation the word is unsupported
there (the namespace raises ``Unsupported``, or holds an explicit stub whose
``unsupported`` attribute says why), and a verdict that needs it becomes ``unknown``.
``DOMAINS`` gives the side condition of each partial word: outside it, Python's
``math`` raises (the point decides nothing), while ``tl``/``np``/``torch`` return NaN
or ±∞ (which the checker compares like any value).

``OPERATORS`` does the same for the Python operators whose meaning differs between
number types (``//``, ``%``, ``divmod``: floor toward −∞, the remainder with the sign of
the divisor, as Python's floats and ints have them).

``support_matrix()`` reads what the interpretations really implement and
``operator_matrix()`` runs each operator on each interpretation's numbers;
``drift()`` lists every difference from ``SUPPORT`` and ``OPERATORS``. A test prints the
matrix and fails on drift, so an interpretation cannot gain or lose a word silently.

>>> DOMAINS["sqrt"]
'x ≥ 0'
"""
from __future__ import annotations

INTERPRETATIONS = ("mpmath", "exact", "torch", "numpy", "z3")

# word -> the interpretations that implement it
SUPPORT: dict[str, str] = {
    "math.abs": "exact",
    "math.atan": "mpmath",
    "math.ceil": "mpmath exact torch z3",
    "math.copysign": "mpmath torch",
    "math.cos": "mpmath torch numpy",
    "math.cosh": "mpmath",
    "math.e": "mpmath exact torch numpy z3",
    "math.exp": "mpmath torch numpy z3",
    "math.expm1": "mpmath torch numpy z3",
    "math.fabs": "mpmath exact torch numpy z3",
    "math.floor": "mpmath exact torch z3",
    "math.fma": "exact",
    "math.hypot": "mpmath torch",
    "math.inf": "mpmath exact torch numpy z3",
    "math.isfinite": "mpmath exact torch numpy z3",
    "math.isinf": "mpmath exact torch numpy z3",
    "math.isnan": "mpmath torch numpy z3",
    "math.log": "mpmath torch numpy z3",
    "math.log10": "mpmath",
    "math.log1p": "mpmath torch numpy z3",
    "math.log2": "mpmath",
    "math.maximum": "exact",
    "math.minimum": "exact",
    "math.nan": "mpmath exact torch numpy z3",
    "math.pi": "mpmath exact torch numpy z3",
    "math.pow": "mpmath torch",
    "math.sigmoid": "torch",
    "math.sin": "mpmath torch numpy",
    "math.sinh": "mpmath",
    "math.sqrt": "mpmath torch numpy z3",
    "math.tan": "mpmath",
    "math.tanh": "mpmath torch numpy",
    "math.tau": "mpmath exact z3",
    "math.trunc": "mpmath torch z3",
    "math.where": "exact",
    "np.abs": "mpmath exact torch z3",
    "np.arctan": "mpmath",
    "np.cbrt": "mpmath",
    "np.ceil": "mpmath torch z3",
    "np.clip": "mpmath torch z3",
    "np.cos": "mpmath torch",
    "np.cosh": "mpmath",
    "np.e": "mpmath exact z3",
    "np.exp": "mpmath torch z3",
    "np.exp2": "mpmath",
    "np.expm1": "mpmath torch",
    "np.floor": "mpmath torch z3",
    "np.fma": "exact z3",
    "np.fmax": "mpmath exact torch z3",
    "np.fmin": "mpmath exact torch z3",
    "np.hypot": "mpmath",
    "np.inf": "mpmath exact torch z3",
    "np.isfinite": "mpmath exact torch z3",
    "np.isinf": "mpmath exact torch z3",
    "np.isnan": "mpmath torch z3",
    "np.log": "mpmath torch z3",
    "np.log10": "mpmath",
    "np.log1p": "mpmath torch",
    "np.log2": "mpmath",
    "np.logaddexp": "mpmath torch z3",
    "np.maximum": "mpmath exact torch z3",
    "np.minimum": "mpmath exact torch z3",
    "np.nan": "mpmath exact torch z3",
    "np.negative": "mpmath",
    "np.pi": "mpmath exact torch z3",
    "np.reciprocal": "mpmath",
    "np.sigmoid": "mpmath torch",
    "np.sign": "mpmath exact",
    "np.sin": "mpmath torch",
    "np.sinh": "mpmath",
    "np.sqrt": "mpmath torch z3",
    "np.square": "mpmath torch z3",
    "np.tan": "mpmath",
    "np.tanh": "mpmath torch",
    "np.trunc": "mpmath torch z3",
    "np.where": "mpmath exact torch z3",
    "tl.abs": "mpmath exact torch numpy z3",
    "tl.cdiv": "mpmath exact",
    "tl.cos": "mpmath torch numpy",
    "tl.exp": "mpmath torch numpy z3",
    "tl.exp2": "mpmath torch numpy",
    "tl.expm1": "mpmath torch numpy",
    "tl.float32": "mpmath exact",
    "tl.float64": "mpmath exact",
    "tl.fma": "mpmath exact torch numpy z3",
    "tl.inf": "exact",
    "tl.int32": "mpmath exact",
    "tl.int64": "mpmath exact",
    "tl.log": "mpmath torch numpy z3",
    "tl.log1p": "mpmath torch numpy",
    "tl.log2": "mpmath torch numpy",
    "tl.maximum": "mpmath exact torch numpy z3",
    "tl.minimum": "mpmath exact torch numpy z3",
    "tl.sigmoid": "mpmath torch numpy z3",
    "tl.sin": "mpmath torch numpy",
    "tl.sqrt": "mpmath torch numpy z3",
    "tl.tanh": "mpmath torch numpy",
    "tl.where": "mpmath exact torch numpy z3",
}

# Python operators with a meaning of their own on each interpretation's numbers (the
# rest, + − · / ** and comparisons, every number type has): operator -> interpretations
OPERATORS: dict[str, str] = {
    "//": "mpmath exact torch numpy z3",
    "%": "mpmath exact torch numpy z3",
    "divmod": "mpmath exact numpy z3",
}

# partial words: the condition under which each is defined over the reals
DOMAINS: dict[str, str] = {
    "log": "x > 0", "log2": "x > 0", "log1p": "x > −1", "sqrt": "x ≥ 0",
    "cdiv": "b ≠ 0", "//": "b ≠ 0", "%": "b ≠ 0", "divmod": "b ≠ 0",
}


def _interpretations() -> dict:
    from verify.engine.arraywords import make_numpy, make_torch
    from verify.engine.mpwords import make_exact, make_mpmath
    from verify.engine.z3interp import Z3Context
    return {"mpmath": make_mpmath(), "exact": make_exact(), "torch": make_torch(),
            "numpy": make_numpy(), "z3": Z3Context().interp}


def support_matrix() -> dict[str, set[str]]:
    """word -> the interpretations whose namespaces implement it (stubs excluded)."""
    out: dict[str, set[str]] = {}
    for name, interp in _interpretations().items():
        for module in ("tl", "math", "np"):
            ns = getattr(interp, module, None)
            for word, value in (vars(ns).items() if ns is not None else ()):
                if word.startswith("_") or getattr(value, "unsupported", None):
                    continue
                out.setdefault(f"{module}.{word}", set()).add(name)
    return out


_OPERATIONS = {"//": lambda a, b: a // b, "%": lambda a, b: a % b, "divmod": divmod}


def _sample(name: str):
    """(a number of the interpretation, how to run an operation on it)."""
    if name == "mpmath":
        import mpmath
        return mpmath.mpf(7), lambda op, x: op(x, 2)
    if name == "exact":
        from fractions import Fraction
        return Fraction(7), lambda op, x: op(x, 2)
    if name == "torch":
        import torch
        return torch.tensor(7.0), lambda op, x: op(x, 2)
    if name == "numpy":
        import numpy
        return numpy.array(7.0), lambda op, x: op(x, 2)
    import z3
    from verify.engine.z3interp import Z3Context, evaluate
    return z3.Real("x"), lambda op, x: evaluate(Z3Context(), lambda: op(x, 2))


def operator_matrix() -> dict[str, set[str]]:
    """operator -> the interpretations whose numbers run it (probed, not declared)."""
    from verify.engine.interp import Unsupported
    out: dict[str, set[str]] = {op: set() for op in _OPERATIONS}
    for name in INTERPRETATIONS:
        x, run = _sample(name)
        for op, f in _OPERATIONS.items():
            try:
                run(f, x)
            except (TypeError, Unsupported):
                continue
            out[op].add(name)
    return out


def drift() -> list[str]:
    """Every word or operator whose implementations differ from ``SUPPORT`` or
    ``OPERATORS``, one line each."""
    lines = []
    for table, actual in ((SUPPORT, support_matrix()), (OPERATORS, operator_matrix())):
        for word in sorted(set(actual) | set(table)):
            declared = set(table.get(word, "").split())
            found = actual.get(word, set())
            if declared != found:
                lines.append(f"{word}: declared {sorted(declared)}, "
                             f"implemented {sorted(found)}")
    return lines


def render() -> str:
    """The support matrix as a text table (one row a word or operator, one column an
    interpretation)."""
    actual = {**support_matrix(), **operator_matrix()}
    width = max(len(w) for w in actual)
    head = " " * width + "  " + "  ".join(f"{i:7}" for i in INTERPRETATIONS)
    rows = [f"{w:{width}}  " + "  ".join(f"{'yes' if i in actual[w] else '-':7}"
                                          for i in INTERPRETATIONS)
            for w in sorted(actual)]
    return "\n".join([head] + rows)
