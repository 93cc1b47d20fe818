"""The public API behind ``import verify`` and the command line: check laws, audit a
function, certify kernels, and the teaching views, each returning a result object
(``verify.results``) or a plain JSON-ready document.

This module is the only place that calls into the deciding, auditing, certifying and
teaching modules; the command line and ``verify.testing`` go through it. Every result's
``to_json()`` is already strict-JSON-ready (``verify.jsonio.to_plain``), so it equals
what the matching ``--json`` command prints. Imports are lazy: importing this module
loads neither z3 nor torch.

Does not cover: printing (``verify.cli``), or running user code in a separate process
(``verify.cli.sandbox`` does that around these functions).
"""
from __future__ import annotations

import contextlib
import difflib
import inspect
import io
import os
import tempfile
import types
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Sequence

from verify.errors import BadInput
from verify.jsonio import to_plain
from verify.results import AuditResult, Certificate, LawResult

if TYPE_CHECKING:
    from laws.core import Law
    from verify.decide.policy import Policy


# --------------------------------------------------------------------------- laws
def find_law(law_id: str) -> "Law":
    """The catalog law ``law_id``; ``BadInput`` naming close ids when it is unknown."""
    from laws import REGISTRY
    if law_id in REGISTRY:
        return REGISTRY[law_id]
    close = difflib.get_close_matches(law_id, REGISTRY.ids(), n=3, cutoff=0.5)
    hint = f"; did you mean {', '.join(close)}?" if close else "; see `python -m verify list`"
    raise BadInput(f"unknown law id {law_id!r}{hint}")


def _law(law_or_id: "Law | str") -> "Law":
    from laws.core import Law
    if isinstance(law_or_id, str):
        return find_law(law_or_id)
    if isinstance(law_or_id, Law):
        return law_or_id
    raise BadInput(f"expected a Law or a law id, got {type(law_or_id).__name__}")


def _policy(policy: "Policy | None", default: str = "CATALOG") -> "Policy":
    from verify.decide import policy as policies
    if policy is None:
        return getattr(policies, default)
    if not isinstance(policy, policies.Policy):
        raise BadInput(f"policy must be a verify.Policy, got {type(policy).__name__}")
    return policy


def _check_dict(law: "Law", policy: "Policy") -> dict:
    from verify.decide.decide import decide
    return decide(law, policy).to_json()


def check(law_or_id: "Law | str", policy: "Policy | None" = None) -> LawResult:
    """The verdict on one law, with the places kernels use its combine: the document
    ``verify law ID --json`` prints.

    >>> import verify
    >>> r = verify.check("sum.associative", verify.Policy(floats=False))
    >>> r.verdict, r.ok
    (<Verdict.PROVED: 'proved'>, True)
    """
    law = _law(law_or_id)
    result = _check_dict(law, _policy(policy))
    result["kernel_sites"] = kernel_sites(law)
    return LawResult(to_plain(result))


def check_all(laws: Iterable["Law | str"] | None = None, policy: "Policy | None" = None,
              *, jobs: int = 1, progress: Callable[[LawResult], None] | None = None
              ) -> list[LawResult]:
    """Verdicts on ``laws`` (the whole catalog by default), in their order; ``jobs``
    processes when they are catalog laws.

    Does not add the kernel sites (``check`` does)."""
    from laws import REGISTRY
    chosen = [_law(x) for x in (REGISTRY if laws is None else laws)]
    pol = _policy(policy)
    in_catalog = all(law.id in REGISTRY and REGISTRY[law.id] is law for law in chosen)

    def note(doc: dict) -> None:
        if progress is not None:
            progress(LawResult(to_plain(doc)))
    if jobs > 1 and in_catalog:
        from verify.decide.check import check_many
        docs = check_many([law.id for law in chosen], jobs=jobs, policy=pol, progress=note)
    else:
        docs = []
        for law in chosen:
            docs.append(_check_dict(law, pol))
            note(docs[-1])
    return [LawResult(to_plain(d)) for d in docs]


def summarize(results: Sequence[LawResult]) -> dict:
    """Counts per verdict, the ids that disagree with their expectation, total seconds."""
    from verify.decide.check import summary
    return summary([r.to_json() for r in results])


def catalog() -> dict:
    """The law ids with property, expectation, statement and kernels; the kernel names
    (``verify list --json``)."""
    import impls
    from laws import REGISTRY
    rows = [{"id": law.id, "property": law.property.value, "expect": law.expect,
             "statement": law.statement, "kernels": list(law.kernels)} for law in REGISTRY]
    return {"laws": rows, "kernels": impls.kernel_names()}


def check_papers(law_results: Mapping[str, Mapping[str, Any]] | None = None) -> list[dict]:
    """Every paper with every claim checked (``verify papers --json``): each claim has its
    kind, verdict (confirmed, refuted, conditional, needs-gpu, not-checkable), evidence
    and ``ok``. ``law_results`` (id → a law's document) are reused instead of checking
    those laws again. A claim is not ok only when the project itself disagrees: a law
    claim whose law is missing or disagrees with its expectation. A refuted arithmetic
    or worked-example claim is a finding about the text, not a failure of the checker."""
    import papers
    from laws import REGISTRY
    from verify.decide.check import check_law
    cache = {k: dict(v) for k, v in (law_results or {}).items()}

    def law_verdict(law_id: str) -> Mapping[str, Any]:
        if law_id not in REGISTRY:
            raise KeyError(law_id)
        if law_id not in cache:
            cache[law_id] = check_law(REGISTRY[law_id], floats=False)
        return cache[law_id]

    docs = papers.check_all(law_verdict)
    for paper, doc in zip(papers.PAPERS.values(), docs):
        doc.update(authors=paper.authors, year=paper.year, venue=paper.venue)
        for claim in doc["claims"]:
            claim["ok"] = not (claim["kind"] == "law" and claim["verdict"] == "refuted")
        doc["ok"] = all(c["ok"] for c in doc["claims"])
    return docs


# --------------------------------------------------------------------------- kernel sites
def kernel_sites(law: "Law") -> list[str]:
    """file:line of the combine's definition, the shared combines it calls and each use
    of them in impls/ (``verify.teaching.sites``, the finder ``explain`` uses too);
    empty when no kernel uses the combine."""
    from verify.teaching.sites import site_lines
    return site_lines(law)


# --------------------------------------------------------------------------- user functions
def load_function(target: str) -> tuple[types.FunctionType, str]:
    """The plain function named by ``FILE.py:FUNC`` (its module is executed here, in
    this process) and its label; ``BadInput`` for anything else: a missing file or
    name, a syntax error, an import that fails, a class, an ``async def`` or a
    generator."""
    from verify.auditing.audit import load_target
    fn, _, _ = load_target(target)
    require_plain_function(fn, target)
    return fn, target


def require_plain_function(fn: Any, label: str) -> types.FunctionType:
    """``fn`` itself when it is a plain function returning values, else ``BadInput``."""
    if inspect.isclass(fn):
        raise BadInput(f"{label} is a class; give a function")
    if not isinstance(fn, types.FunctionType):
        raise BadInput(f"{label} is a {type(fn).__name__}, not a Python function")
    if inspect.iscoroutinefunction(fn) or inspect.isasyncgenfunction(fn):
        raise BadInput(f"{label} is an async function; give a plain def that returns "
                       "its value")
    if inspect.isgeneratorfunction(fn):
        raise BadInput(f"{label} is a generator (it yields); give a function that "
                       "returns its value")
    return fn


def _label(fn: types.FunctionType) -> str:
    try:
        path = inspect.getsourcefile(fn) or "<unknown>"
    except TypeError:
        path = "<unknown>"
    return f"{os.path.relpath(path) if os.path.isabs(path) else path}:{fn.__name__}"


def audit(fn_or_target: Callable | str, example: str | None = None,
          policy: "Policy | None" = None, *, label: str | None = None,
          domains: "dict[str, str] | None" = None) -> AuditResult:
    """Which of the six properties a function has: the document ``verify audit
    FILE.py:FUNC --json`` prints. ``fn_or_target`` is a function or ``"FILE.py:FUNC"``
    (loaded and run in this process; the command line runs it in a child process);
    ``example`` is one call's arguments as a Python literal, when the body does not
    tell the shapes; ``label`` names the function in the report (default ``FILE:NAME``);
    ``domains`` maps parameter names to domain kinds (``{"n": "natural"}``), over the
    parameters' annotations (``def f(n: "natural", x: float)``).

    The function is read from its source file (the checker parses the body), so it
    must be defined in a file, not typed at a prompt.

    >>> import verify
    >>> from laws.associativity.combines import maximum   # a @triton.jit combine
    >>> r = verify.audit(maximum, policy=verify.Policy(floats=False))
    >>> r.verdict("associative"), r.verdict("separable")
    (<Verdict.PROVED: 'proved'>, <Verdict.REFUTED: 'refuted'>)
    """
    from verify.auditing.audit import audit_function
    from verify.engine.interp import unwrap
    if isinstance(fn_or_target, str):
        fn, name = load_function(fn_or_target)
    else:
        fn = require_plain_function(unwrap(fn_or_target), repr(fn_or_target))
        name = _label(fn)
    with contextlib.redirect_stdout(io.StringIO()):
        result = audit_function(fn, example, _policy(policy, "AUDIT"), label=label or name,
                                domains=domains)
    return AuditResult(to_plain(result.to_json()))


# --------------------------------------------------------------------------- kernels
def use_backend(backend: str = "auto") -> None:
    """Choose where kernels run (``auto``, ``gpu``, ``interpreter``) before Triton is
    imported: Triton reads ``TRITON_INTERPRET`` once, at import. ``auto`` picks the
    interpreter when no CUDA device is available. ``BadInput`` for ``gpu`` without
    one, or for a backend other than the one kernels were already loaded for
    (``verify.certification.environment.choose_backend``)."""
    from verify.certification.environment import choose_backend
    choose_backend(backend)


def kernel_names() -> list[str]:
    import impls
    return impls.kernel_names()


def references() -> list[dict]:
    """The catalog references a kernel can be bound to (``verify references --json``):
    name, one-line description, inputs, outputs with their declared formats ("input":
    the kernel's dtype; "exact": compared bit for bit), options with defaults and
    choices, the formats other option values declare, and the case family."""
    from verify.certification.references import describe_all
    return to_plain(describe_all())


def _resolve_kernels(kernels: Iterable[str] | None) -> list[str]:
    from verify import kernelnames
    return kernelnames.resolve(kernels)


def certify(kernel: Any, backend: str = "auto", *, seed: int = 0, out: str | None = None,
            planted: bool = True,
            law_results: Mapping[str, Mapping[str, Any]] | None = None) -> Certificate:
    """Certify one kernel (a name in ``impls/``, a ``KernelSpec`` or a ``BoundKernel``) on
    ``backend`` (``auto``, ``gpu`` or ``interpreter``; choose before any kernel is
    imported): its laws' verdicts, its error against the oracle divided by its bound,
    and its planted bugs, which must fail. ``out``: a directory to write the certificate file to
    (atomically). ``law_results`` reuses verdicts already computed (id → document).
    A named kernel runs in a child process, so a crash is a failing certificate."""
    from verify.certification import batch, certify as C, document, planting
    from verify.certification.environment import choose_backend
    resolved = choose_backend(backend or "auto")
    if isinstance(kernel, str):
        _resolve_kernels([kernel])
        with tempfile.TemporaryDirectory() as scratch:
            cert = batch.certify_all(backend=backend or "auto", out_dir=out or scratch,
                                     seed=seed, progress=False, kernels=[kernel],
                                     planted=planted, law_results=law_results)[0]
        if out is None:
            cert.pop("path", None)
        return Certificate(to_plain(cert))
    from verify.certification.binding import as_spec
    kernel = as_spec(kernel)
    with _stdout_to_stderr():
        cert = C.certify(kernel, resolved, seed=seed, law_results=law_results)
        if planted and planting.planted_bugs(kernel):
            variants = planting.planted_results(kernel, resolved, seed=seed)
            document.add_planted(cert, {name: document.caught(v)
                                        for name, v in variants.items()})
    if out is not None and "source_hash" in cert:
        document.write(cert, out)
    return Certificate(to_plain(cert))


def certify_all(kernels: Iterable[str] | None = None, backend: str = "auto", *,
                seed: int = 0, out: str = "certificates", planted: bool = True,
                law_results: Mapping[str, Mapping[str, Any]] | None = None,
                progress: bool = True, isolate: bool = True) -> list[Certificate]:
    """Certify kernels (all by default), writing each certificate under ``out``;
    ``progress`` lines go to stderr. A kernel is a name in ``impls/`` or a user's
    ``FILE.py[:NAME]`` naming a ``KernelSpec`` (``verify.certification.binding.bind``);
    a user's file that cannot be loaded is ``BadInput``. ``isolate``: in a child
    process, so that a crash is a failing certificate (False: in this process, for
    kernels that exist only here)."""
    from verify.certification import batch
    kernels = list(kernels or [])
    targets = [k for k in kernels if _is_file_target(k)]
    for target in targets:
        _check_target_file(target)
    names = _resolve_kernels([k for k in kernels if k not in targets]) \
        if len(targets) < len(kernels) or not kernels else []
    certs = batch.certify_all(backend=backend, out_dir=out, seed=seed, progress=progress,
                              kernels=names + targets, planted=planted,
                              law_results=law_results, isolate=isolate,
                              refs={t: t for t in targets})
    for target, cert in zip(names + targets, certs):
        note = " ".join(cert.get("notes") or [])
        if target in targets and note.startswith("could not load the kernel"):
            raise BadInput(f"{target}: {note}")
    return [Certificate(to_plain(c)) for c in certs]


def _is_file_target(kernel: str) -> bool:
    return kernel.endswith(".py") or ".py:" in kernel


def _check_target_file(target: str) -> None:
    """What can be said of a user's kernel file without running it: it exists, is .py
    and compiles; the rest is found when the child process loads it."""
    from verify.auditing.load import read_source
    path = target if target.endswith(".py") else target.rpartition(":")[0]
    if not path.endswith(".py"):
        raise BadInput(f"{path}: not a .py file")
    read_source(path)


def stale_certificates(directory: str) -> list[dict]:
    """Certificates in ``directory`` whose sources changed since they were written."""
    from verify.certification.sources import stale_certificates as stale
    from verify.records import is_measurement_record
    return to_plain([s for s in stale(directory) if not is_measurement_record(s["path"])])


def resolve_backend(backend: str) -> str:
    from verify.certification.environment import choose_backend
    return choose_backend(backend)


def bench(kernel: str, backend: str) -> dict:
    """Timings of one kernel against torch's own op (``verify bench --json``, one row)."""
    import impls
    from verify.certification.bench import bench as run
    from verify.certification.binding import as_spec
    with _stdout_to_stderr():
        return to_plain(run(as_spec(impls.load(kernel)), backend))


@contextlib.contextmanager
def _stdout_to_stderr():
    """Kernels and libraries may print; stdout belongs to the report."""
    with contextlib.redirect_stdout(__import__("sys").stderr):
        yield


# --------------------------------------------------------------------------- teaching
def explain(law_id: str) -> dict:
    """The teaching view of one law (``verify explain ID --json``)."""
    from verify.teaching import explain as E
    find_law(law_id)
    return to_plain(E.explain(law_id))


def exercises() -> list[dict]:
    from verify.teaching.exercise import EXERCISES
    return [{"name": e.name, "title": e.title, "kind": e.kind} for e in EXERCISES]


def exercise(name: str) -> dict:
    """One exercise's statement."""
    from verify.teaching import exercise as X
    return to_plain(X.describe(X.get(name)))


def check_exercise(name: str, fn_or_target: Callable | str, *,
                   ready: Callable[[], None] | None = None) -> dict:
    """Judge an answer to exercise ``name``: a function, or ``"FILE.py:FUNC"`` (loaded
    here, once). ``BadInput`` when the answer cannot be judged: the wrong number of
    parameters, or an answer that raises, loops, or returns None or a non-number (a
    non-bool for a True/False question) on a first call. ``ready`` is called once the
    answer passed that first call, before the judging starts."""
    from verify.teaching import exercise as X
    ex = X.get(name)
    if isinstance(fn_or_target, str):
        fn, target = load_function(fn_or_target)
    else:
        fn = require_plain_function(fn_or_target, repr(fn_or_target))
        target = _label(fn)
    with contextlib.redirect_stdout(io.StringIO()):
        answer = X.probe_answer(ex, fn)
        if ready is not None:
            ready()
        out = X.check_question(ex, fn) if answer is not None else X.check_combine(ex, fn)
    out["target"] = target
    return to_plain(out)


