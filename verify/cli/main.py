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

from verify.errors import BadInput

COMMANDS = ("all", "laws", "list", "law", "explain", "audit", "certify", "papers",
            "bench", "exercise")
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
        sp.add_argument("--jobs", type=_positive, default=_cores(), metavar="N",
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
            sp.add_argument("--seed", type=int, default=0,
                            help="seed of the generated test cases (default 0)")

    def smt(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--smt", metavar="DIR",
                        help="write every z3 query there as SMT-LIB2, with the law, the "
                             "answer and the assumptions in a header, for a second solver "
                             "(python -m verify.decide.recheck DIR re-checks them with cvc5)")

    def timeout(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--timeout", type=_seconds, default=DEFAULT_TIMEOUT,
                        metavar="SECONDS",
                        help="time limit for loading and checking your file, which runs "
                             f"in a separate process (default {DEFAULT_TIMEOUT:g})")

    a = cmd("all", "every law, every paper claim, every kernel certified on the best "
                   "backend; stale certificates listed")
    jobs(a)
    smt(a)
    kernels(a, out=True)
    a.add_argument("--no-certify", action="store_true", help="laws and papers only")

    laws = cmd("laws", "check the law catalog")
    jobs(laws)
    smt(laws)
    laws.add_argument("--property", choices=PROPERTIES, help="only laws of this property")
    laws.add_argument("--no-floats", action="store_true", help="skip float-format verdicts")

    cmd("list", "list the law ids and the kernels")

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

    cmd("papers", "claims from the literature, checked by their laws")

    b = cmd("bench", "time kernels against torch's own ops")
    b.add_argument("kernels", nargs="*", metavar="KERNEL",
                   help="kernel names (default: all; see `list`)")
    kernels(b, out=False)

    x = cmd("exercise", "exercises: list them, state one, or check your answer")
    x.add_argument("name", nargs="?", metavar="NAME", help="the exercise to state or check")
    x.add_argument("target", nargs="?", metavar="FILE.py:FUNC",
                   help="your answer, checked by the auditor")
    timeout(x)
    return p


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, "
                                         f"got {text!r}")
    return value


def check_out_dir(path: str, option: str = "--out") -> None:
    """``BadInput`` unless ``path`` is a writable directory or can be created as one."""
    p = Path(path)
    if p.exists():
        if not p.is_dir():
            raise BadInput(f"{option} {path}: exists and is not a directory")
        if not os.access(p, os.W_OK | os.X_OK):
            raise BadInput(f"{option} {path}: directory is not writable")
        return
    parent = p.absolute().parent
    while not parent.exists():
        parent = parent.parent
    if not parent.is_dir():
        raise BadInput(f"{option} {path}: {parent} is not a directory")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise BadInput(f"{option} {path}: cannot be created ({parent} is not writable)")


def cap_jobs(args: argparse.Namespace) -> None:
    """Reduce ``--jobs`` to the number of cores, with a note on stderr."""
    jobs = getattr(args, "jobs", None)
    if jobs is not None and jobs > _cores():
        print(f"verify: note: --jobs {jobs} reduced to {_cores()}, the number of cores",
              file=sys.stderr)
        args.jobs = _cores()


def main(argv: list[str] | None = None) -> int:
    try:
        args = _parser().parse_args(argv)
        if args.command is None:
            raise BadInput(f"a command is required: {', '.join(COMMANDS)} (see --help)")
        if getattr(args, "out", None) is not None and not getattr(args, "no_certify", False):
            check_out_dir(args.out)
        if getattr(args, "smt", None) is not None:
            check_out_dir(args.smt, "--smt")
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
    try:
        return handler(args)
    except BadInput as exc:
        return _bad_input(exc)
    except KeyboardInterrupt:
        print("verify: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # stdout closed early (``| head``): nothing more to say
        _silence_stdout()
        return 1


def _bad_input(exc: BadInput) -> int:
    print(f"verify: error: {' '.join(str(exc).split())}", file=sys.stderr)
    return 2


def _silence_stdout() -> None:
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def _handler(command: str) -> Callable[[Any], int]:
    if command in ("all", "laws", "list", "law", "papers"):
        from verify.cli import commands
        return getattr(commands, f"cmd_{command}")
    if command == "audit":
        from verify.cli.audit_cmd import cmd_audit
        return cmd_audit
    if command in ("certify", "bench"):
        from verify.cli import kernel_cmd
        return getattr(kernel_cmd, f"cmd_{command}")
    if command == "explain":
        from verify.cli.explain_cmd import cmd_explain
        return cmd_explain
    if command == "exercise":
        from verify.cli.exercise_cmd import cmd_exercise
        return cmd_exercise
    raise BadInput(f"unknown command {command!r}")
