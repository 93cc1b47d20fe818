"""Exercises: write the combine that makes a computation chunkable, or decide that none
exists, and let the checker judge the answer.

``python -m verify exercise``                      lists the exercises
``python -m verify exercise NAME``                 states one
``python -m verify exercise NAME FILE.py:FUNC``    checks an answer (exit 0 right, 1 wrong)

A combine answer is judged against the exercise's specification, not only for being
associative: its state, lifted from each datum and lowered at the end, must fold to
the specified answer (``lower(lift(x₁) ⊕ … ⊕ lift(xₙ)) = spec(x₁, …, xₙ)``) at every size
checked, and ``⊕`` must regroup. A question ("can the median be chunked?") is answered by
a function of no arguments returning True or False, or by a combine, which the checker
must then refute. A wrong answer comes with its counterexample, evaluated step by
step, and a hint.
"""
from __future__ import annotations

import inspect
import math
import statistics
import types
from dataclasses import dataclass
from typing import Callable

import mpmath

from laws import templates as T
from laws.core import Var
from verify.auditing import floats as audit_floats
from verify.auditing import properties as P
from verify.auditing.hashing import hashing_constructs
from verify.auditing.report import HOLDING, judge
from verify.auditing.signature import PROBE_SECONDS, SCALAR
from verify.auditing.trace import trace
from verify.decide import oracle
from verify.decide.limits import TimeLimit, one_line, time_limit
from verify.decide.policy import EXERCISE
from verify.engine.mpwords import make_mpmath
from verify.engine.shapes import flatten, shape_like
from verify.teaching.answer_form import ExerciseError, required_params
from verify.teaching.exercises_systems import exercises, probe_property

NEG_INF = float("-inf")
MP = make_mpmath()
REFUTED, TESTED, UNKNOWN = "refuted", "tested", "unknown"


@dataclass(frozen=True)
class Exercise:
    name: str
    title: str
    prompt: str                          # the task, as stated to the learner
    kind: str                            # "combine" | "question" | "property"
    hint: str                            # shown with a wrong answer
    explanation: str                     # shown with a right answer: why
    signature: str = ""                  # the expected function, e.g. "combine(a, b)"
    state: Var | None = None             # one state (domains matter)
    datum: Var | None = None             # one datum
    lift: Callable | None = None         # datum -> state
    lower: Callable | None = None        # state -> answer
    spec: Callable | None = None         # data -> answer
    state_pre: Callable | None = None    # a valid state
    sizes: tuple[int, ...] = (1, 2, 3, 4)
    answer: bool | frozenset | None = None  # a question's (a property set's) answer
    law: str | None = None               # catalog law to read afterwards
    float_format: str | None = None      # judge associativity in this float format
    hashing: bool = False                # the spec hashes values (no prover)


# --------------------------------------------------------------------------- specs
def _mean(xs):
    return sum(xs) / len(xs)


def _log_sum_exp(xs):
    return math.log(sum(math.exp(x) for x in xs))


def _mean_and_variance(xs):
    mu = sum(xs) / len(xs)
    return mu, sum((x - mu) * (x - mu) for x in xs) / len(xs)


def _welford_lower(s):
    return s[1], s[2] / s[0]


def _top2(xs):
    """The two largest values, with multiplicity (−∞ when there is one value): the
    second is the largest of the pairwise minima, so no branch is needed."""
    pairs = [min(a, b) for i, a in enumerate(xs) for b in xs[i + 1:]]
    return max(xs), (max(pairs) if pairs else NEG_INF)


def _recurrence(xs):
    h = 0
    for a, b in xs:
        h = a * h + b
    return h


def _median(xs):
    return statistics.median(xs)


def _mode(xs):
    return statistics.mode(xs)


EXERCISES = [
    Exercise(
        name="running_mean",
        title="Chunk a mean",
        kind="combine",
        signature="combine(a, b) with a = (mean, count)",
        prompt=("A chunk's state is (m, n): the mean m of its n values. A datum x lifts "
                "to (x, 1); the answer is m. Write combine(a, b) returning the state of "
                "the two chunks together, so that chunks can be merged in any grouping."),
        state=Var("s", (2,), ("real", "positive"), labels=("m", "n")),
        datum=Var("x"), lift=lambda x: (x, 1), lower=lambda s: s[0], spec=_mean,
        hint=("The merged mean weights each chunk's mean by its count: "
              "(m·n + m'·n')/(n + n'). Averaging the two means counts a chunk of one "
              "value as much as a chunk of a million."),
        explanation=("(m, n) ⊕ (m', n') = ((m·n + m'·n')/(n + n'), n + n') is the (sum, "
                     "count) monoid in disguise: m·n is the chunk's sum."),
        law="mean.homomorphism"),
    Exercise(
        name="online_softmax",
        title="Stream the softmax normalizer",
        kind="combine",
        signature="combine(a, b) with a = (m, d)",
        prompt=("A chunk's state is (m, d): its maximum m and d = Σ exp(xᵢ − m). A datum "
                "x lifts to (x, 1); the answer is m + log d, the log-sum-exp of the data. "
                "Write combine(a, b) so that chunks merge in any grouping."),
        state=Var("s", (2,), ("real", "positive"), labels=("m", "d")),
        datum=Var("x"), lift=lambda x: (x, 1), lower=lambda s: s[0] + math.log(s[1]),
        spec=_log_sum_exp,
        hint=("Both sums must be measured against the same maximum: with M = max(m, m'), "
              "rescale d by exp(m − M) and d' by exp(m' − M) before adding."),
        explanation=("d·e^m = Σ exp(x), so the merged sum is d·e^(m−M) + d'·e^(m'−M) "
                     "relative to M = max(m, m'); every exponent is ≤ 0, nothing overflows."),
        law="online_softmax.associative"),
    Exercise(
        name="welford",
        title="Chunk mean and variance",
        kind="combine",
        signature="combine(a, b) with a = (n, mean, M2)",
        prompt=("A chunk's state is (n, μ, M₂): its count, mean, and the sum of squared "
                "deviations from its mean. A datum x lifts to (1, x, 0); the answer is "
                "(μ, M₂/n), the mean and the population variance. Write combine(a, b)."),
        state=Var("s", (3,), ("positive", "real", "nonneg"), labels=("n", "mean", "M2")),
        datum=Var("x"), lift=lambda x: (1, x, 0), lower=_welford_lower,
        spec=_mean_and_variance, sizes=(1, 2, 3),
        hint=("Each chunk's M₂ is measured from its own mean. Moving both to the merged "
              "mean adds δ²·n·n'/(n + n'), δ = μ' − μ (Chan et al.); the merged mean is "
              "μ + δ·n'/(n + n')."),
        explanation=("M₂ = M₂ + M₂' + δ²nn'/(n + n') with δ = μ' − μ: the correction is the "
                     "spread between the chunk means. Without it the merge is still "
                     "associative, but it computes the wrong variance."),
        law="welford.homomorphism"),
    Exercise(
        name="topk_merge",
        title="Merge top-2 lists",
        kind="combine",
        signature="merge(a, b) with a = (first, second), first ≥ second",
        prompt=("A chunk's state is its two largest values (t₁, t₂), t₁ ≥ t₂ (−∞ when the "
                "chunk holds only one value). A datum x lifts to (x, −∞); the answer is "
                "the state itself. Write merge(a, b) returning the two largest of both."),
        state=Var("s", (2,), labels=("t1", "t2")),
        state_pre=lambda s: [s[0] >= s[1]],
        datum=Var("x"), lift=lambda x: (x, NEG_INF), lower=lambda s: s, spec=_top2,
        hint=("The second largest overall may be either chunk's second: it is the larger "
              "of min(t₁, t₁') and max(t₂, t₂')."),
        explanation=("Each overall winner is among its own chunk's top 2, so the top 2 of "
                     "the four candidates is the top 2 of everything."),
        law="topk_merge.merge"),
    Exercise(
        name="linear_recurrence",
        title="Scan a linear recurrence",
        kind="combine",
        signature="compose(first, then) with states (A, B)",
        prompt=("hₜ = aₜ·hₜ₋₁ + bₜ from h₀ = 0. A chunk's state (A, B) is its effect on h: "
                "h ↦ A·h + B. A datum (a, b) lifts to itself; the answer is B (h₀ = 0). "
                "Write compose(first, then): the state of 'first' followed by 'then'."),
        state=Var("s", (2,), labels=("A", "B")),
        datum=Var("x", (2,), labels=("a", "b")),
        lift=lambda x: (x[0], x[1]), lower=lambda s: s[1], spec=_recurrence,
        hint=("Apply 'first' and then 'then' to h: A'(A·h + B) + B'. Read off the new "
              "coefficient of h and the new constant."),
        explanation=("(A, B) then (A', B') is (A·A', A'·B + B'): composition of affine maps, "
                     "associative but not commutative: the order of time steps matters."),
        law="linear_recurrence.associative"),
    Exercise(
        name="median",
        title="Can the median be chunked?",
        kind="question",
        prompt=("Can the median of a sequence be computed by merging the chunks' medians "
                "(a combine on single numbers)? Answer with a function of no arguments "
                "returning True or False, or give a combine(a, b) on two medians and let "
                "the checker try it."),
        datum=Var("x"), state=Var("s"), lift=lambda x: x, lower=lambda s: s, spec=_median,
        sizes=(1, 2, 3), answer=False,
        hint=("Take the chunks (1, 2, 9), (3, 4, 9), (5, 6, 9): their medians 2, 4, 6 have "
              "median 4, the data have median 5. A chunk's median forgets the rest."),
        explanation=("No combine of medians works: at two values the median is their "
                     "mean, and averaging a third value in gives the wrong median of three."),
        law="median.of_medians"),
    Exercise(
        name="mode",
        title="Can the mode be chunked?",
        kind="question",
        prompt=("Can the most frequent value be computed by merging the chunks' modes? "
                "Answer with a function of no arguments returning True or False, or give a "
                "combine(a, b) on two modes."),
        datum=Var("x"), state=Var("s"), lift=lambda x: x, lower=lambda s: s, spec=_mode,
        sizes=(2, 3, 4), answer=False, hashing=True,
        hint=("A value can be second in every chunk and first overall: chunked modes need "
              "the full histogram (one count per value), which does chunk."),
        explanation=("A mode forgets the counts of the runners-up; the histogram keeps them, "
                     "and histograms add."),
        law="mode.of_modes"),
    Exercise(
        name="float_addition",
        title="Is float addition chunkable bit for bit?",
        kind="question",
        prompt=("Summing float32 values in chunks (any grouping) — is the result always "
                "bit-identical to the sequential sum? Answer with a function of no "
                "arguments returning True or False, or give the float combine add(a, b) "
                "and let the checker test its associativity in float32."),
        state=Var("s"), answer=False, float_format="float32",
        hint=("Each float addition rounds. (a + b) + c and a + (b + c) round different "
              "intermediate sums: try a = 1e8, b = −1e8, c = 1."),
        explanation=("Real addition is associative; float addition is not, so a parallel "
                     "sum is reproducible only with a fixed reduction order (or exact "
                     "accumulation). The error stays bounded by γₙ₋₁Σ|xᵢ|."),
        law="sum.associative"),
]

EXERCISES += exercises(Exercise)  # the book's §3.9
BY_NAME = {e.name: e for e in EXERCISES}


# --------------------------------------------------------------------------- checking
def _combine_wrapper(fn: types.FunctionType, state: Var) -> Callable:
    required = required_params(fn)
    k = state.shape[0] if state.shape else 0
    if len(required) == 2:
        if k:
            return lambda a, b: tuple(fn(a, b))
        return fn
    if k and len(required) == 2 * k:
        return lambda a, b: tuple(fn(*a, *b))
    want = "two states (a, b)" + (f" or {2 * k} unpacked components" if k else "")
    raise ExerciseError(f"{fn.__name__} takes {len(required)} parameters: a combine takes "
                        f"{want}")


def _plain_function(fn: types.FunctionType) -> None:
    """An answer must be a plain function: checked before it is ever called (calling an
    ``async def`` would only build a coroutine, and warn)."""
    if inspect.iscoroutinefunction(fn) or inspect.isasyncgenfunction(fn):
        raise ExerciseError(f"{fn.__name__} is an async function: write a plain def")
    if inspect.isgeneratorfunction(fn):
        raise ExerciseError(f"{fn.__name__} is a generator (it yields): return the "
                            "result instead")


def _probe(ex: Exercise, fn: types.FunctionType) -> None:
    """Call the combine once on two valid states: an answer that raises, loops, or
    returns None or something of the wrong shape is bad input, not a wrong answer."""
    k = len(ex.state.component_domains())
    a = [mpmath.mpf(2 * i + 3) / 4 for i in range(k)]
    b = [mpmath.mpf(2 * i + 7) / 4 for i in range(k)]
    a, b = shape_like(ex.state, a), shape_like(ex.state, b)
    name, call = fn.__name__, MP.rebind(fn)
    args = (a, b) if len(required_params(fn)) == 2 else (*flatten(a), *flatten(b))
    try:
        with time_limit(PROBE_SECONDS), mpmath.workprec(oracle.PREC):
            value = call(*args)
    except TimeLimit as exc:
        raise ExerciseError(f"{name} {exc} on the states {oracle.plain(a)}, "
                            f"{oracle.plain(b)}") from None
    except Exception as exc:  # the learner's code raised: bad input
        raise ExerciseError(f"{name} raised {type(exc).__name__}: {one_line(exc)} on the "
                            f"states {oracle.plain(a)}, {oracle.plain(b)}") from None
    if value is None or (isinstance(value, tuple) and None in value):
        raise ExerciseError(f"{name} returned None: a combine returns the merged state")
    if len(flatten(value)) != k:
        raise ExerciseError(f"{name} returned {len(flatten(value))} values: the state has "
                            f"{k}")


def _state_pre(ex: Exercise, nvars: int):
    if ex.state_pre is None:
        return None
    sp = ex.state_pre

    def pre(*states):
        return [c for s in states[:nvars] for c in sp(s)]
    return pre


def _assoc_prop(ex: Exercise) -> P.Prop:
    s = ex.state
    vars_ = tuple(Var(n, s.shape, s.domain, s.tuple_state, s.labels) for n in "abc")
    return P.from_equation(T.ASSOCIATIVE, (), vars=vars_, pre=_state_pre(ex, 3))


def _homomorphism_prop(ex: Exercise, n: int) -> P.Prop:
    d = ex.datum
    vars_ = tuple(Var(f"x{i + 1}", d.shape, d.domain, d.tuple_state, d.labels)
                  for i in range(n))
    if n == 1:
        statement = "lower(lift(x₁)) = spec(x₁)"
    elif n == 2:
        statement = "lower(lift(x₁) ⊕ lift(x₂)) = spec(x₁, x₂)"
    else:
        statement = f"lower(lift(x₁) ⊕ … ⊕ lift(x{_sub(n)})) = spec(x₁, …, x{_sub(n)})"
    eq = T.homomorphism(ex.lift, ex.lower, ex.spec)
    return P.Prop(f"homomorphism_n{n}", eq.property, statement, eq.licenses,
                  tuple(v.name for v in vars_), (), eq.lhs, eq.rhs, bounded=f"n = {n}",
                  vars=vars_)


def _sub(n: int) -> str:
    return "".join("₀₁₂₃₄₅₆₇₈₉"[int(c)] for c in str(n))


def _judge(prop: P.Prop, g, no_prover: str | None, name: str = "f") -> dict:
    law = P.make_law(prop, g, no_prover=no_prover)
    res = judge(law, EXERCISE)
    out = {"check": prop.name, "statement": prop.statement, "verdict": res["verdict"],
           "method": res["method"], "assumptions": res["assumptions"],
           "reason": res["reason"], "cases": res["cases"], "counterexample": None}
    if res.values is not None:
        out["counterexample"] = {v.name: oracle.plain(x)
                                 for v, x in zip(law.vars, res.values, strict=True)}
        out["steps"] = trace(prop, g, res.values, name)
    return out


def check_combine(ex: Exercise, fn: types.FunctionType) -> dict:
    """Judge a combine answer: associativity (or, for a float question, bit-exact
    associativity in that format), then the homomorphism at each size, every law
    decided by the same procedure as the catalog's and the auditor's."""
    _plain_function(fn)
    g = _combine_wrapper(fn, ex.state)
    _probe(ex, fn)
    hashing = hashing_constructs(fn)
    no_prover = None
    if hashing or ex.hashing:
        what = ", ".join(hashing) or "statistics.mode in the specification"
        no_prover = f"the prover cannot follow hashing of values ({what})"
    if ex.float_format:
        return _outcome(ex, [_float_associativity(ex, g)], expect_refuted=True)
    checks = []
    if ex.kind == "combine":
        checks.append(_judge(_assoc_prop(ex), g, no_prover, fn.__name__))
    for n in ex.sizes:
        if checks and checks[-1]["verdict"] == REFUTED:
            break
        checks.append(_judge(_homomorphism_prop(ex, n), g, no_prover, fn.__name__))
    return _outcome(ex, checks, expect_refuted=ex.kind == "question")


def _float_associativity(ex: Exercise, g) -> dict:
    prop = P.from_equation(T.ASSOCIATIVE, (SCALAR,) * 3)
    prop.statement = f"{prop.statement} in {ex.float_format}"
    law = P.make_law(prop, g)
    fv = audit_floats.float_check(law, ex.float_format, None, policy=EXERCISE)
    return {"check": f"associative_{ex.float_format}", "statement": prop.statement,
            "verdict": {"inexact": REFUTED, "exact": TESTED}.get(fv["verdict"], UNKNOWN),
            "method": f"{ex.float_format} arithmetic, {fv.get('cases')} cases",
            "counterexample": (dict(zip("abc", fv["counterexample"], strict=True))
                               if fv.get("counterexample") else None),
            "sides": fv.get("sides"), "reason": fv.get("note")}


def _outcome(ex: Exercise, checks: list[dict], expect_refuted: bool) -> dict:
    refuted = next((c for c in checks if c["verdict"] == REFUTED), None)
    if expect_refuted:
        passed = refuted is not None
        message = ("right: no such combine exists, and yours fails as it must"
                   if passed else "the checks could not refute your combine, but no "
                   "combine of this kind can be exact; look for the case it misses")
    else:
        passed = all(c["verdict"] in HOLDING for c in checks)
        if passed:
            message = "right"
        elif refuted is not None:
            message = f"wrong: {refuted['check']} fails"
        else:
            message = "not decided: " + "; ".join(
                f"{c['check']}: {c['verdict']} ({c.get('reason')})"
                for c in checks if c["verdict"] not in HOLDING)
    return {"exercise": ex.name, "passed": passed, "message": message, "checks": checks,
            "hint": None if passed else ex.hint,
            "explanation": ex.explanation if passed else None, "law": ex.law}


def probe_answer(ex: Exercise, fn: types.FunctionType) -> bool | None:
    """Call the answer once before judging it: a True/False answer (a question answered
    by a function of no parameters) returns its value; a combine is called on two valid
    states. An answer that is not a plain function, raises, loops, or returns None or
    the wrong shape is bad input (``ExerciseError``), never a wrong answer."""
    _plain_function(fn)
    if ex.kind == "property":
        return probe_property(ex, fn)
    if ex.kind == "question" and not required_params(fn):
        try:
            with time_limit(PROBE_SECONDS):
                value = fn()
        except (Exception, TimeLimit) as exc:  # the learner's function failed
            raise ExerciseError(f"{fn.__name__}() raised {type(exc).__name__}: "
                                f"{one_line(exc)}") from None
        if not isinstance(value, bool):
            raise ExerciseError(f"{fn.__name__}() returned {value!r}; answer True or "
                                "False")
        return value
    if not required_params(fn):
        raise ExerciseError(f"{fn.__name__} takes no parameters: this exercise wants "
                            f"{ex.signature or 'a combine(a, b)'}")
    if ex.state is None:
        raise ExerciseError(f"{fn.__name__} takes parameters: answer() -> bool")
    _combine_wrapper(fn, ex.state)
    _probe(ex, fn)
    return None


def check_question(ex: Exercise, fn: types.FunctionType) -> dict:
    value = probe_answer(ex, fn)
    passed = value == ex.answer
    evidence = _evidence(ex)
    return {"exercise": ex.name, "passed": passed,
            "message": "right" if passed else f"wrong: the answer is {_shown(ex.answer)}",
            "answer": value, "evidence": evidence,
            "hint": None if passed else ex.hint,
            "explanation": ex.explanation if passed else None, "law": ex.law}


def _shown(answer) -> str:
    return ", ".join(sorted(answer)) if isinstance(answer, frozenset) else str(answer)


def _evidence(ex: Exercise) -> dict | None:
    """The catalog's verdict behind the answer, with its counterexample."""
    if not ex.law:
        return None
    from laws import REGISTRY
    from verify.decide.check import check_law
    if ex.law not in REGISTRY:
        return None
    law = REGISTRY[ex.law]
    r = check_law(law, floats=bool(ex.float_format))
    out = {"law": law.id, "statement": law.statement, "verdict": r["verdict"],
           "counterexample": r.get("counterexample")}
    if ex.float_format and r.get("floats"):
        fv = r["floats"].get(ex.float_format) or {}
        out["float"] = {"format": ex.float_format, "exact": fv.get("exact"),
                        "counterexample": fv.get("counterexample")}
    return out



def get(name: str) -> Exercise:
    if name not in BY_NAME:
        import difflib
        close = difflib.get_close_matches(name, list(BY_NAME), n=3, cutoff=0.4)
        raise ExerciseError(f"unknown exercise {name!r}" + (
            f" (did you mean: {', '.join(close)}?)" if close else
            f" (exercises: {', '.join(BY_NAME)})"))
    return BY_NAME[name]


def describe(ex: Exercise) -> dict:
    return {"name": ex.name, "title": ex.title, "kind": ex.kind, "prompt": ex.prompt,
            "signature": ex.signature or ("answer() -> bool, or combine(a, b)"
                                          if ex.kind == "question" else ""),
            "sizes_checked": (list(ex.sizes) if ex.state is not None and not ex.float_format
                              else None),
            "law": ex.law,
            "check": f"python -m verify exercise {ex.name} FILE.py:FUNC"}
