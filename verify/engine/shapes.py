"""How a law variable's scalar components are named, arranged and flattened; shared by
every interpretation."""
from __future__ import annotations

from typing import Any

import numpy as np

from laws.core import Var


def flatten(x: Any) -> list[Any]:
    """Scalar components of a (nested) tuple, list or array value."""
    if isinstance(x, (tuple, list)):
        return [c for item in x for c in flatten(item)]
    if isinstance(x, np.ndarray):
        return [c for item in x.flat for c in flatten(item)]
    return [x]


def component_names(var: Var) -> list[str]:
    if var.shape == ():
        return [var.name]
    if len(var.shape) == 1:
        labels = var.labels
        if labels:
            return [f"{var.name}.{lab}" for lab in labels]
        return [f"{var.name}[{i}]" for i in range(var.shape[0])]
    rows, cols = var.shape
    return [f"{var.name}[{i},{j}]" for i in range(rows) for j in range(cols)]


def shape_like(var: Var, comps: list[Any]) -> Any:
    """Arrange scalar components the way the law functions receive the variable."""
    if var.shape == ():
        return comps[0]
    if len(var.shape) == 1:
        return tuple(comps) if var.tuple_state else list(comps)
    arr = np.empty(var.shape, dtype=object)
    for idx, c in zip(np.ndindex(*var.shape), comps):
        arr[idx] = c
    return arr
