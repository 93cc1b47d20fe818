"""``python -m verify``: the command line, a thin shell over ``verify.api``.

Every command has ``--json`` (one JSON document on stdout, nothing else) and a readable
default; progress goes to stderr. Exit status: 0 when every result agrees with its
expectation, 1 when something disagrees, 2 on bad usage or bad input, with one line
``verify: error: …`` on stderr and nothing on stdout.

Arguments are checked before any work starts: output directories must be writable
directories (or creatable), ``--jobs`` above the number of cores is reduced to it
(with a note). Imports are lazy: Triton decides at import time whether kernels run in
its interpreter, so the backend is chosen from the arguments before anything imports
it.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any, Callable

from verify.argtypes import gib, positive_int, seconds, seed
from verify.errors import BadInput
from verify.processes import DEFAULT_LOAD_TIMEOUT, DEFAULT_MEMORY_GIB

COMMANDS = ("all", "laws", "list", "law", "explain", "audit", "certify", "references",
            "compile", "papers", "bench", "exercise", "report")
PROPERTIES = ("associativity", "separability", "locality", "sparsity", "redundancy",
              "symmetry")
BACKENDS = ("auto", "gpu", "interpreter")
DEFAULT_TIMEOUT = 300.0
EPILOG = ("exit status: 0 every result agrees with its expectation, 1 something "
          "disagrees, 2 bad usage or bad input (one line on stderr)")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, not argparse's usage block
        raise BadInput(message)


def _cores() -> int:
    return os.cpu_count() or 1


def _parser() -> argparse.ArgumentParser:
    """Every command and option, declared in one place so the help and the docs read
    from one table (long, but a flat list of declarations)."""
    p = _Parser(prog="python -m verify", epilog=EPILOG,
                description="Prove algebraic laws, audit your own functions and certify "
                            "the kernels that rely on them.")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    def cmd(name: str, help_: str) -> argparse.ArgumentParser:
        sp = sub.add_parser(name, help=help_, description=help_, epilog=EPILOG)
        sp.add_argument("--json", action="store_true",
                        help="print one JSON document on stdout and nothing else")
        return sp

    def jobs(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--jobs", type=positive_int, default=_cores(), metavar="N",
                        help=f"processes checking laws in parallel (default and most: "
                             f"the number of cores, {_cores()} here)")

    def kernels(sp: argparse.ArgumentParser, out: bool) -> None:
        sp.add_argument("--backend", choices=BACKENDS, default="auto",
                        help="where kernels run: a CUDA GPU, Triton's CPU interpreter, or "
                             "auto (the GPU when there is one)")
        if out:
            sp.add_argument("--out", default="certificates", metavar="DIR",
                            help="directory the certificate files are written to "
                                 "(default: certificates)")
            sp.add_argument("--seed", type=seed, default=0,
                            help="seed of the generated test cases (default 0)")

    def smt(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--smt", metavar="DIR",
                        help="write every z3 query there as SMT-LIB2, with the law, the "
                             "answer and the assumptions in a header, for a second solver "
                             "(python -m verify.decide.recheck DIR re-checks them with cvc5)")

    def timeout(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--timeout", type=seconds, default=DEFAULT_TIMEOUT,
                        metavar="SECONDS",
                        help="time limit for loading and checking your file, which runs "
                             f"in a separate process (default {DEFAULT_TIMEOUT:g})")
        sp.add_argument("--load-timeout", type=seconds, default=DEFAULT_LOAD_TIMEOUT,
                        metavar="SECONDS",
                        help="time limit for importing your file (its module-level code) "
                             f"and accepting its function (default {DEFAULT_LOAD_TIMEOUT:g})")
        sp.add_argument("--memory", type=gib, default=DEFAULT_MEMORY_GIB, metavar="GIB",
                        help="address space allowed to the process running your file, in "
                             f"GiB (default {DEFAULT_MEMORY_GIB:g})")

    a = cmd("all", "every law, every paper claim, every kernel certified on the best "
                   "backend; stale certificates listed")
    jobs(a)
    smt(a)
    kernels(a, out=True)
    a.add_argument("--no-certify", action="store_true", help="laws and papers only")
    a.add_argument("--report", metavar="DIR",
                   help="also write the HTML report there (the laws, the papers and the "
                        "certificates in --out), as `report` does, reusing this run's results")

    laws = cmd("laws", "check the law catalog")
    jobs(laws)
    smt(laws)
    laws.add_argument("--property", choices=PROPERTIES, help="only laws of this property")
    laws.add_argument("--no-floats", action="store_true", help="skip float-format verdicts")
    laws.add_argument("--long", action="store_true",
                      help="each law's statement and method under its line")

    ls = cmd("list", "list the law ids and the kernels")
    ls.add_argument("--long", action="store_true",
                    help="each law's statement and kernels under its line")

    w = cmd("law", "one law: statement, verdict, proof method, counterexample, where "
                   "kernels use it")
    w.add_argument("law_id", metavar="ID", help="a law id, e.g. online_softmax.associative")
    smt(w)

    e = cmd("explain", "the teaching view of a law")
    e.add_argument("law_id", metavar="ID", help="a law id, e.g. online_softmax.no_rescale")

    au = cmd("audit", "which of the six properties your own function has")
    au.add_argument("target", metavar="FILE.py:FUNC", help="the function to audit")
    au.add_argument("--example", metavar="ARGS",
                    help="one example call's arguments as a Python literal, e.g. "
                         "'((1.0, 2.0), (3.0, 4.0))', when the body does not tell the shapes")
    au.add_argument("--domain", action="append", metavar="NAME=KIND",
                    help="the domain of parameter NAME (real, positive, nonneg, integer, "
                         "natural, unit, small); repeatable; over the annotations")
    timeout(au)

    c = cmd("certify", "certify kernels against their laws with error bounds")
    c.add_argument("kernels", nargs="*", metavar="KERNEL",
                   help="kernel names (default: all; see `list`), or FILE.py[:NAME] naming "
                        "your own KernelSpec (made with verify.certification.binding.bind)")
    kernels(c, out=True)

    cmd("references", "the references a kernel can be bound to (bind(fn, reference=NAME)): "
                      "inputs, outputs with their declared formats, options with defaults")

    co = cmd("compile", "compile kernels for sm_90a/sm_100a (no GPU needed): instruction "
                        "profile and the GPU error model it backs")
    co.add_argument("kernels", nargs="*", metavar="KERNEL",
                    help="kernel names (default: all), or FILE.py[:NAME] naming your KernelSpec")
    co.add_argument("--arch", action="append", choices=("sm_90a", "sm_100a"),
                    help="only this target (repeatable; default both)")

    cmd("papers", "claims from the literature, checked by their laws")

    b = cmd("bench", "time kernels against torch's own ops")
    b.add_argument("kernels", nargs="*", metavar="KERNEL",
                   help="kernel names (default: all; see `list`)")
    kernels(b, out=False)

    r = cmd("report", "write a static HTML report (no server, opens from disk): the law "
                      "catalog, a page per law, a page per certificate with plots")
    r.add_argument("--out", default="report", metavar="DIR",
                   help="directory the site is written to (default: report); open "
                        "DIR/index.html in a browser")
    r.add_argument("--certificates", metavar="DIR",
                   help="directory of certificate files to show, e.g. one written by "
                        "`certify --out` or pytest --lawcheck-certificates "
                        "(default: certificates)")
    jobs(r)

    x = cmd("exercise", "exercises: list them, state one, or check your answer")
    x.add_argument("name", nargs="?", metavar="NAME", help="the exercise to state or check")
    x.add_argument("target", nargs="?", metavar="FILE.py:FUNC",
                   help="your answer, checked by the auditor")
    timeout(x)
    return p


def check_out_dir(path: str, option: str = "--out") -> None:
    """``BadInput`` unless ``path`` is a directory this process can write in, or can be
    created as one. Found by trying (a temporary directory made and removed at once), as
    permissions alone do not tell (a superuser, /proc); nothing is left behind."""
    import tempfile
    if not path.strip():
        raise BadInput(f"{option} {path!r}: an empty path")
    p = Path(path)
    if p.is_symlink() and not p.exists():
        raise BadInput(f"{option} {path}: a symbolic link to nothing "
                       f"({os.readlink(p)} does not exist)")
    if p.exists() and not p.is_dir():
        raise BadInput(f"{option} {path}: exists and is not a directory")
    where = p if p.exists() else _existing_ancestor(p, f"{option} {path}")
    if not where.is_dir():
        raise BadInput(f"{option} {path}: {where} is not a directory")
    try:
        os.rmdir(tempfile.mkdtemp(prefix=".lawcheck-probe-", dir=where))
    except OSError as exc:
        how = "is not writable" if where == p else f"cannot be created in {where}"
        raise BadInput(f"{option} {path}: {how} ({exc.strerror or exc})") from None


def _existing_ancestor(p: Path, what: str) -> Path:
    parent = p.absolute().parent
    while not parent.exists() and parent != parent.parent:
        if parent.is_symlink():
            raise BadInput(f"{what}: {parent} is a symbolic link to nothing")
        parent = parent.parent
    return parent


def cap_jobs(args: argparse.Namespace) -> None:
    """Reduce ``--jobs`` to the number of cores, with a note on stderr."""
    jobs = getattr(args, "jobs", None)
    if jobs is not None and jobs > _cores():
        print(f"verify: note: --jobs {jobs} reduced to {_cores()}, the number of cores",
              file=sys.stderr)
        args.jobs = _cores()


def main(argv: list[str] | None = None) -> int:
    """Run one command; SIGTERM and SIGHUP unwind it (``Terminated``) and the checker's
    warnings are one line each while it runs, both as before once it returns."""
    import warnings

    from verify.cli.output import sane_terminal_size, warnings_as_lines
    from verify.processes import Terminated, raise_on_termination, restore_handlers
    previous = raise_on_termination()
    try:
        with warnings.catch_warnings():
            sane_terminal_size()
            warnings_as_lines()
            return _main(argv)
    except Terminated as exc:  # before or after the command itself (run_command's own)
        print(f"verify: stopped by {exc}", file=sys.stderr)
        return 143
    finally:
        restore_handlers(previous)


def _main(argv: list[str] | None) -> int:
    from verify.cli.output import stdout_problem
    problem = stdout_problem()
    if problem:
        return _bad_input(BadInput(problem))
    try:
        args = _parser().parse_args(argv)
        if args.command is None:
            raise BadInput(f"a command is required: {', '.join(COMMANDS)} (see --help)")
        if getattr(args, "out", None) is not None and not getattr(args, "no_certify", False):
            check_out_dir(args.out)
        if getattr(args, "smt", None) is not None:
            check_out_dir(args.smt, "--smt")
        if getattr(args, "report", None) is not None:
            check_out_dir(args.report, "--report")
        if args.command in ("report", "all"):
            from verify.cli.report_cmd import check_site_dir
            site = args.out if args.command == "report" else args.report
            if site is not None:
                check_site_dir(site, "--out" if args.command == "report" else "--report")
        certificates = getattr(args, "certificates", None)
        if certificates is not None and not Path(certificates).is_dir():
            raise BadInput(f"--certificates {certificates}: not a directory")
        cap_jobs(args)
        if hasattr(args, "backend"):
            from verify.api import use_backend
            use_backend(args.backend)
    except BadInput as exc:
        return _bad_input(exc)
    return run_command(_handler(args.command), args)


def run_command(handler: Callable[[Any], int], args: Any) -> int:
    """Run one command's handler with the exit-status rules: its own status, 2 with one
    line on stderr for bad input, 130 when interrupted."""
    from verify.cli.output import OutputError, finish_output
    from verify.processes import Terminated
    try:
        status = handler(args)
        finish_output()
        return status
    except OutputError as exc:  # stdout closed early (``| head``), a full disk
        _silence_stdout()
        return _bad_input(exc)
    except BadInput as exc:
        return _bad_input(exc)
    except KeyboardInterrupt:
        print("verify: interrupted", file=sys.stderr)
        return 130
    except Terminated as exc:
        print(f"verify: stopped by {exc}", file=sys.stderr)
        return 143
    except OSError as exc:
        problem = OutputError.of(exc)
        if problem is None:
            raise
        _silence_stdout()
        return _bad_input(problem)


def _bad_input(exc: BadInput) -> int:
    print(f"verify: error: {' '.join(str(exc).split())}", file=sys.stderr)
    return 2


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so that what is still buffered fails nowhere."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def _handler(command: str) -> Callable[[Any], int]:
    if command in ("all", "laws", "list", "law", "papers"):
        from verify.cli import commands
        return getattr(commands, f"cmd_{command}")
    if command == "report":
        from verify.cli.report_cmd import cmd_report
        return cmd_report
    if command == "audit":
        from verify.cli.audit_cmd import cmd_audit
        return cmd_audit
    if command in ("certify", "bench"):
        from verify.cli import kernel_cmd
        return getattr(kernel_cmd, f"cmd_{command}")
    if command == "references":
        from verify.cli.references_cmd import cmd_references
        return cmd_references
    if command == "compile":
        from verify.cli.compile_cmd import cmd_compile
        return cmd_compile
    if command == "explain":
        from verify.cli.explain_cmd import cmd_explain
        return cmd_explain
    if command == "exercise":
        from verify.cli.exercise_cmd import cmd_exercise
        return cmd_exercise
    raise BadInput(f"unknown command {command!r}")
