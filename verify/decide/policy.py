"""How hard to try: the limits a decision runs under, passed down explicitly.

One ``Policy`` value travels from the caller (the catalog, the auditor, the exercises,
the public API) to the prover, the searcher and the float checks; nothing reads a
module-level setting.

>>> Policy().with_(cases=50).cases
50
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass


@dataclass(frozen=True)
class Policy:
    timeout_ms: int = 10_000       # one z3 query
    prove_seconds: float = 30.0    # the whole proof attempt of one law (wall clock)
    search_seconds: float = 30.0   # the searcher on one law
    float_seconds: float = 10.0    # the float verdicts of one law, per format
    cases: int = 200               # searcher cases per law instance
    floats: bool = True            # run float-format verdicts at all
    smt_dir: str | None = None     # write every z3 query there as SMT-LIB2 (prove(smt_dir=))
    # An exception raised by a law's own code: the catalog's bug (verdict error, with the
    # traceback) or, for a user's function, a construct an interpretation cannot run
    # (the prover falls back to the searcher; the verdict is at worst unknown).
    malformed_is_error: bool = True

    def with_(self, **changes) -> "Policy":
        return dataclasses.replace(self, **changes)


CATALOG = Policy()
AUDIT = Policy(timeout_ms=5000, malformed_is_error=False)
EXERCISE = AUDIT
