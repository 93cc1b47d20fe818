"""Reference kernels. Each module ``impls/<name>.py`` that defines ``KERNEL`` (a
``impls.spec.KernelSpec``) is a kernel; ``kernels()`` finds them all."""
from __future__ import annotations

import importlib
import pkgutil


def kernel_names() -> list[str]:
    """Module names of kernels, without importing them (imports are slow)."""
    import os
    here = os.path.dirname(__file__)
    names = []
    for info in pkgutil.iter_modules([here]):
        if info.name.startswith("_") or info.name in ("spec",):
            continue
        with open(os.path.join(here, info.name + ".py"), encoding="utf-8") as fh:
            if "\nKERNEL = " in fh.read():
                names.append(info.name)
    return sorted(names)


def load(name: str):
    """The KernelSpec of ``impls/<name>.py``."""
    if name not in kernel_names():
        raise KeyError(name)
    return importlib.import_module(f"impls.{name}").KERNEL


def kernels() -> list:
    return [load(n) for n in kernel_names()]
