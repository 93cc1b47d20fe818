"""Checking the catalog with progress on stderr, for the commands that do (``laws``,
``all``, ``report``)."""
from __future__ import annotations

import os

from verify import api
from verify.cli.progress import Counter
from verify.results import LawResult


def run_laws(args, ids: list[str], floats: bool = True) -> list[dict]:
    """Check ``ids`` with progress on stderr; the law documents, in order."""
    from verify.decide.policy import CATALOG
    with Counter("checking laws", len(ids)) as progress:
        def note(r: LawResult) -> None:
            progress.step(r.id)
            if not r.ok:
                progress.note(f"{r.id}: {r['verdict']} (expected {r['expect']})")
        policy = CATALOG.with_(floats=floats, smt_dir=smt_dir(args))
        results = api.check_all(ids, policy, jobs=args.jobs, progress=note)
    return [r.to_json() for r in results]


def smt_dir(args) -> str | None:
    """``--smt DIR``, created: where the decision writes its queries."""
    path = getattr(args, "smt", None)
    if path is not None:
        os.makedirs(path, exist_ok=True)
    return path
