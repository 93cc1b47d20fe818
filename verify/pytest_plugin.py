"""pytest plugin (registered as ``lawcheck`` by the distribution's ``pytest11`` entry
point): check laws and certify kernels from your own tests.

One fixture, ``lawcheck``:

    def test_merge_is_a_monoid(lawcheck):
        lawcheck.monoid(merge, identity=float("-inf"), commutative=True)

    def test_softmax_certified(lawcheck):
        lawcheck.certify("softmax")

``lawcheck.check(law)`` (a Law, a Monoid, a catalog id or family, or a list),
``lawcheck.monoid(combine, identity, ...)`` and ``lawcheck.certify(kernel)`` fail the
test with the law, the replayed counterexample and both sides (``verify.testing``),
and return the result objects.

Options: ``--lawcheck-certificates DIR`` writes each certificate the tests produce to
DIR (atomically, one file per kernel and backend: safe under ``pytest -n``, where each
worker is its own process and shares nothing); ``--lawcheck-backend
auto|gpu|interpreter`` chooses where kernels run (auto: the GPU when there is one,
else Triton's interpreter; it takes effect when Triton is not yet imported).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("lawcheck", "laws and kernel certificates (lawcheck)")
    group.addoption("--lawcheck-certificates", metavar="DIR", default=None,
                    help="write the certificates that tests produce to DIR")
    group.addoption("--lawcheck-backend", choices=("auto", "gpu", "interpreter"),
                    default="auto", help="where kernels run (default auto)")


def pytest_configure(config: pytest.Config) -> None:
    out = config.getoption("lawcheck_certificates")
    if out is not None:
        from verify.cli.main import check_out_dir
        from verify.errors import BadInput
        try:
            check_out_dir(out, "--lawcheck-certificates")
        except BadInput as exc:
            raise pytest.UsageError(str(exc)) from None


class LawCheck:
    """What the ``lawcheck`` fixture gives a test; holds only the options."""

    def __init__(self, certificates: str | None, backend: str) -> None:
        self.certificates = certificates
        self.backend = backend

    def check(self, subject: Any, policy: Any = None) -> list:
        """``verify.testing.assert_law``: every law of ``subject`` agrees with its
        expectation."""
        __tracebackhide__ = True
        from verify.testing import assert_law
        return assert_law(subject, policy)

    def monoid(self, combine: Any, identity: Any, state: Any = None, **kw: Any) -> list:
        """``verify.testing.assert_monoid``."""
        __tracebackhide__ = True
        from verify.testing import assert_monoid
        return assert_monoid(combine, identity, state, **kw)

    def certify(self, kernel: Any, *, seed: int = 0, planted: bool = True) -> Any:
        """``verify.testing.assert_certified`` on the chosen backend, writing the
        certificate under ``--lawcheck-certificates`` when given."""
        __tracebackhide__ = True
        from verify.api import use_backend
        from verify.testing import assert_certified
        use_backend(self.backend)
        if self.certificates is not None:
            Path(self.certificates).mkdir(parents=True, exist_ok=True)
        return assert_certified(kernel, "auto" if self.backend == "auto" else self.backend,
                                out=self.certificates, seed=seed, planted=planted)


@pytest.fixture
def lawcheck(request: pytest.FixtureRequest) -> LawCheck:
    """Check laws and certify kernels; failures show the law and its counterexample."""
    config = request.config
    return LawCheck(config.getoption("lawcheck_certificates"),
                    config.getoption("lawcheck_backend"))
