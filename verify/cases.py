"""Public adversarial inputs for certifying kernels: deterministic case sets and
hypothesis strategies, composable, each case recording the classes it covers.

A case set is called as ``cases(seed, backend) -> list[impls.spec.Case]`` (the
``Coverage.cases`` signature) and offers ``.strategy()`` for hypothesis. Values are
made exact in float16, bfloat16 and float32 (``representable``) unless a class needs
float32's precision (cancellation), in which case the case is limited to float32
(``Case.dtypes``). Masks are −∞; a fully masked row has every entry −∞.

    rows(n=[1, 7, 257], classes=("random", "-inf-mask", "fully-masked-row"))
    matrices([(33, 17, 65), (40, 1, 24)])

Defaults: ``rows()`` draws every row class (``ROW_CLASSES``: random, length 1, ties,
huge dynamic range, cancellation, −∞ masks, fully masked rows, −0.0, a large offset) at
lengths 1, 7, 17, 64 and 257 (17 and 257 one past a power of two); bound to a reference
that does not say what −∞ means (``bind`` calls ``for_masks``) it leaves the two mask
classes out, since −∞ inputs have no agreed result there. ``matrices()`` draws random,
huge-dynamic-range and cancellation products, K = 1 among its shapes. Classes chosen
explicitly are drawn as chosen.

What it does not cover: +∞ and NaN inputs (no catalog contract defines them), and
denormal inputs (they are not exact in every format at once).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterable, Sequence

import numpy as np
import torch

from impls.spec import Case
from verify.errors import BadInput

ROW_CLASSES = ("random", "length-1", "ties", "huge-dynamic-range", "cancellation",
               "-inf-mask", "fully-masked-row", "negative-zero", "large-offset")
MASK_CLASSES = ("-inf-mask", "fully-masked-row")
DEFAULT_N = (1, 7, 17, 64, 257)
FP16_MAX = 60000.0


def representable(x: np.ndarray | torch.Tensor) -> torch.Tensor:
    """Values exact in bfloat16, float16 and float32 (finite ones clamped to ±6·10⁴ and
    rounded through bf16 then fp16); infinities kept."""
    t = torch.as_tensor(np.asarray(x, dtype=np.float64))
    r = t.clamp(-FP16_MAX, FP16_MAX).to(torch.bfloat16).to(torch.float16).to(torch.float64)
    return torch.where(torch.isfinite(t), r, t)


def past_powers_of_two(limit: int = 1025) -> list[int]:
    """17, 33, 65, 129, ... up to ``limit``: one past a power of two."""
    out, p = [], 16
    while p + 1 <= limit:
        out.append(p + 1)
        p *= 2
    return out


def _row_values(kind: str, rows: int, n: int, rng: np.random.Generator) -> np.ndarray | None:
    if kind == "random":
        return rng.normal(0, 3, (rows, n))
    if kind == "length-1":
        return rng.normal(0, 3, (rows, 1)) if n == 1 else None
    if kind == "ties":
        x = np.repeat(rng.normal(0, 2, (rows, 1)), n, axis=1)
        x[0] = 7.0
        return x
    if kind == "huge-dynamic-range":
        return rng.choice([-1, 1], (rows, n)) * np.exp2(rng.uniform(-12, 15, (rows, n)))
    if kind == "cancellation":
        base = rng.normal(0, 1, (rows, n))
        return 1000.0 + base
    if kind == "large-offset":
        return 64.0 + rng.normal(0, 0.5, (rows, n))
    if kind == "negative-zero":
        x = rng.normal(0, 1, (rows, n))
        x[:, ::3] = -0.0
        return x
    if kind == "-inf-mask":
        x = rng.normal(0, 4, (rows, n))
        x[rng.random((rows, n)) < 0.4] = -np.inf
        x[:, rng.integers(n)] = rng.normal()
        return x
    if kind == "fully-masked-row":
        x = rng.normal(0, 4, (max(rows, 2), n))
        x[0, :] = -np.inf
        return x
    raise ValueError(f"unknown row class {kind!r} (known: {', '.join(ROW_CLASSES)})")


@dataclass(frozen=True)
class RowCases:
    """Rows of lengths ``n`` (the reduced dim last), one case per length and class;
    ``classes`` None: every class (``kinds``)."""

    n: Sequence[int] = DEFAULT_N
    classes: Sequence[str] | None = None
    rows: int = 3
    name: str = "x"

    def kinds(self) -> tuple[str, ...]:
        """The classes drawn: those chosen, or every one."""
        return ROW_CLASSES if self.classes is None else tuple(self.classes)

    def for_masks(self, defined: bool) -> "RowCases":
        """These cases for a reference that does (``defined``) or does not state what a
        −∞ entry means: the default classes lose the mask classes where it does not."""
        if defined or self.classes is not None:
            return self
        return replace(self, classes=tuple(k for k in ROW_CLASSES if k not in MASK_CLASSES))

    def __call__(self, seed: int = 0, backend: str = "triton-interpreter") -> list[Case]:
        rng = np.random.default_rng(seed)
        out = []
        for kind in self.kinds():
            for n in self.n:
                x = _row_values(kind, self.rows, n, rng)
                if x is None:
                    continue
                covers = [kind] + (["length-1"] if n == 1 else [])
                if n > 1 and n & (n - 1) and (n - 1) & (n - 2) == 0:
                    covers.append("one-past-power-of-two")
                only = ("float32",) if kind == "cancellation" else None
                if only:
                    t = torch.as_tensor(x).to(torch.float32).to(torch.float64)
                else:
                    t = representable(x)
                out.append(Case(f"{kind} rows={x.shape[0]} n={n}", {self.name: t},
                                classes=tuple(dict.fromkeys(covers)), n=n, dtypes=only))
        return out

    def strategy(self):
        """A hypothesis strategy of single cases drawn from these classes and lengths."""
        from hypothesis import strategies as st
        return st.builds(lambda kind, n, seed: _one_row_case(kind, n, self.rows, seed, self.name),
                         st.sampled_from(list(self.kinds())), st.sampled_from(list(self.n)),
                         st.integers(0, 2 ** 31 - 1)).filter(lambda c: c is not None)


def _one_row_case(kind: str, n: int, rows: int, seed: int, name: str) -> Case | None:
    x = _row_values(kind, rows, n, np.random.default_rng(seed))
    if x is None:
        return None
    if kind == "cancellation":
        return Case(f"{kind} n={n}", {name: torch.as_tensor(x).float().double()},
                    classes=(kind,), n=n, dtypes=("float32",))
    return Case(f"{kind} n={n}", {name: representable(x)}, classes=(kind,), n=n)


def rows(n: Iterable[int] = DEFAULT_N, classes: Iterable[str] | None = None,
         rows: int = 3, name: str = "x") -> RowCases:
    """Row cases; ``classes`` default: every row class (``ROW_CLASSES``; the mask
    classes only for a reference with a masked-rows convention, ``RowCases.for_masks``)."""
    if classes is not None:
        classes = tuple(classes)
        unknown = [k for k in classes if k not in ROW_CLASSES]
        if unknown:
            raise BadInput(f"unknown row class(es) {', '.join(map(repr, unknown))} "
                           f"(known: {', '.join(ROW_CLASSES)})")
    return RowCases(n=tuple(n), classes=None if classes is None else tuple(classes),
                    rows=rows, name=name)


@dataclass(frozen=True)
class MatrixCases:
    """(M, K, N) products: random, K = 1, wide range, cancellation (fp32 only)."""

    shapes: Sequence[tuple[int, int, int]] = ((33, 17, 65), (40, 1, 24), (16, 64, 16))
    classes: Sequence[str] = ("random", "huge-dynamic-range", "cancellation")

    def __call__(self, seed: int = 0, backend: str = "triton-interpreter") -> list[Case]:
        rng = np.random.default_rng(seed)
        out = []
        for kind in self.classes:
            for m, k, n in self.shapes:
                a, b, only = _matrix_values(kind, m, k, n, rng)
                covers = [kind] + (["K=1"] if k == 1 else [])
                if only:
                    a = torch.as_tensor(a).float().double()
                    b = torch.as_tensor(b).float().double()
                else:
                    a, b = representable(a), representable(b)
                out.append(Case(f"{kind} M={m} K={k} N={n}", {"a": a, "b": b},
                                classes=tuple(covers), n=k, dtypes=only or None))
        return out


def _matrix_values(kind: str, m: int, k: int, n: int, rng: np.random.Generator):
    if kind == "random":
        return rng.normal(0, 1, (m, k)), rng.normal(0, 1, (k, n)), None
    if kind == "huge-dynamic-range":
        def wide(shape):
            return rng.choice([-1, 1], shape) * np.exp2(rng.uniform(-8, 6, shape))
        return wide((m, k)), wide((k, n)), None
    if kind == "cancellation":
        a = rng.normal(0, 1, (m, k))
        b = rng.normal(0, 1, (k, n))
        half = k // 2
        if half:
            b[half:2 * half] = -b[:half] * (1 + 2.0 ** -10)
            a[:, half:2 * half] = a[:, :half]
        return a, b, ("float32",)
    raise ValueError(f"unknown matrix class {kind!r}")


def matrices(shapes: Iterable[tuple[int, int, int]] | None = None,
             classes: Iterable[str] | None = None) -> MatrixCases:
    kw = {}
    if shapes is not None:
        kw["shapes"] = tuple(tuple(s) for s in shapes)
    if classes is not None:
        kw["classes"] = tuple(classes)
    return MatrixCases(**kw)


def combined(*sets) -> "Combined":
    """The union of several case sets, in order."""
    return Combined(tuple(sets))


@dataclass(frozen=True)
class Combined:
    sets: tuple

    def __call__(self, seed: int = 0, backend: str = "triton-interpreter") -> list[Case]:
        return [c for s in self.sets for c in s(seed, backend)]
