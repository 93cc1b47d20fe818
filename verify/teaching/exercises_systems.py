"""The book's framework-chapter exercises (chapter 3, §3.9) as ``verify exercise``
items: which property PagedAttention exploits, ring-style merging of attention shards,
the two properties of structured pruning, a computation with none of the six
properties, and whether beam search is exact.

A *property* exercise is answered by a function of no arguments returning a property's
name (or a set of names); it is right when the set is the one the catalog's law for
that system declares, and the law's own verdict (decided like every other) is shown as
the evidence. The other kinds are judged as in ``verify.teaching.exercise``.
"""
from __future__ import annotations

import math
import types

from laws.core import Property, Var
from verify.decide.limits import TimeLimit, one_line, time_limit
from verify.teaching.answer_form import ExerciseError, required_params

NEG_INF = float("-inf")
PROPERTY_NAMES = frozenset(p.value for p in Property)


def _attention(xs):
    """Σ softmax(score)·value over (score, value) data."""
    m = max(x[0] for x in xs)
    w = [math.exp(x[0] - m) for x in xs]
    return sum(wi * x[1] for wi, x in zip(w, xs)) / sum(w)


def _quadratic(xs):
    h = 0
    for x in xs:
        h = h * h + x
    return h


def probe_property(ex, fn: types.FunctionType) -> frozenset:
    """Call a property answer once: a name or a collection of names of the six
    properties, else bad input."""
    from verify.auditing.signature import PROBE_SECONDS
    if required_params(fn):
        raise ExerciseError(f"{fn.__name__} takes parameters: this exercise wants "
                            f"{ex.signature}")
    try:
        with time_limit(PROBE_SECONDS):
            value = fn()
    except (Exception, TimeLimit) as exc:  # the learner's function failed
        raise ExerciseError(f"{fn.__name__}() raised {type(exc).__name__}: "
                            f"{one_line(exc)}") from None
    names = [value] if isinstance(value, str) else value
    if not isinstance(names, (list, tuple, set, frozenset)) or not names or not all(
            isinstance(n, str) for n in names):
        raise ExerciseError(f"{fn.__name__}() returned {value!r}; answer a property's "
                            "name or a set of names")
    got = frozenset(n.strip().lower() for n in names)
    unknown = sorted(got - PROPERTY_NAMES)
    if unknown:
        raise ExerciseError(f"{fn.__name__}() returned {', '.join(map(repr, unknown))}: "
                            f"the properties are {', '.join(p.value for p in Property)}")
    return got


def exercises(Exercise) -> list:
    return [
        Exercise(
            name="paged_attention",
            title="Which property does PagedAttention exploit?",
            kind="property",
            signature="answer() -> a property's name",
            prompt=("PagedAttention (vLLM) stores each sequence's keys and values in "
                    "fixed-size blocks anywhere in a shared pool and reads them through a "
                    "block table. Which of the six properties does it exploit to save "
                    "memory? (Hint: it is about avoiding waste.) Answer with a function "
                    "of no arguments returning the property's name."),
            answer=frozenset({"redundancy"}),
            hint=("A contiguous cache reserves memory for the longest sequence a request "
                  "might reach, and stores a shared prompt once per request: memory "
                  "that holds nothing, or the same thing twice."),
            explanation=("Redundancy: no memory reserved for tokens that never come, and "
                         "a block shared by requests stored once. What makes it legal is "
                         "that the gather through the table undoes the allocator's "
                         "scatter and block states merge associatively."),
            law="paged_attention.block_table"),
        Exercise(
            name="ring_attention",
            title="Merge attention shards around a ring",
            kind="combine",
            signature="combine(a, b) with a = (m, l, o)",
            prompt=("Ring attention splits the keys across devices; each device holds "
                    "the state (m, l, o) of its queries against the shards seen so far: "
                    "the largest score m, l = Σ e^(s−m) and o = Σ e^(s−m)·v. A key "
                    "(s, v) lifts to (s, 1, v); the answer is o/l, attention over every "
                    "key. Write combine(a, b), the merge a device applies when the next "
                    "shard's state arrives, so that any rotation of the ring gives the "
                    "same answer. Which other computations could ride a ring the same "
                    "way?"),
            state=Var("s", (3,), ("real", "positive", "real"), labels=("m", "l", "o")),
            datum=Var("x", (2,), labels=("score", "value")),
            lift=lambda x: (x[0], 1, x[1]), lower=lambda s: s[2] / s[1], spec=_attention,
            sizes=(1, 2, 3),
            hint=("Both l and o are measured against their own maximum: rescale both of "
                  "each state by e^(m − M) with M = max(m, m′) before adding."),
            explanation=("(m, l, o) ⊕ (m′, l′, o′) = (M, l·α + l′·β, o·α + o′·β) with "
                         "α = e^(m−M), β = e^(m′−M) is associative (and commutative, so "
                         "every rotation agrees). Any associative, commutative merge "
                         "rides a ring: sums (ring all-reduce), max, top-k, Welford's "
                         "(n, μ, M₂), Count-Min sketches."),
            law="ring_attention.rotation"),
        Exercise(
            name="structured_pruning",
            title="Two properties in one optimization",
            kind="property",
            signature="answer() -> a set of two property names",
            prompt=("FlashAttention uses associativity and locality. Structured pruning "
                    "removes whole hidden units of relu(xW₁ + b)W₂ whose outgoing weights "
                    "are zero and runs a smaller dense layer. Which two properties does "
                    "it combine? Answer with a function of no arguments returning the "
                    "set of their names."),
            answer=frozenset({"separability", "sparsity"}),
            hint=("Write the layer as a sum over its hidden units. What does each term "
                  "depend on, and what is a term whose outgoing row is zero?"),
            explanation=("Separability: the layer is a sum of per-unit terms "
                         "relu(x·W₁[:, j] + b_j)·W₂[j, :]. Sparsity: a zero row makes a "
                         "term exactly 0, so the unit goes. (Zero incoming weights are "
                         "not enough: the bias still fires.)"),
            law="structured_pruning.drop_units"),
        Exercise(
            name="no_property",
            title="A computation with none of the six properties",
            kind="question",
            prompt=("h_t = h_{t−1}² + x_t from h₀ = 0. Can its chunks be summarized by a "
                    "fixed-size state and merged, like the linear recurrence's (A, B)? "
                    "Answer with a function of no arguments returning True or False, or "
                    "give compose(first, then) on states (A, B) (a datum x lifts to "
                    "(1, x), the answer is B) and let the checker try it. What does the "
                    "answer imply about optimization potential?"),
            state=Var("s", (2,), labels=("A", "B")), datum=Var("x"),
            lift=lambda x: (1, x), lower=lambda s: s[1], spec=_quadratic,
            sizes=(1, 2, 3), answer=False,
            hint=("Compose two steps: (h² + x₁)² + x₂ has degree 4 in h, three steps "
                  "degree 8. No state of fixed size can hold the composed map."),
            explanation=("No: the steps do not compose into a step of the same form, and "
                         "none of the six properties applies. Only constant factors "
                         "remain (registers, fusion); the algorithm stays sequential."),
            law="quadratic_recurrence.closed_summary"),
        Exercise(
            name="beam_search",
            title="Is beam search exact?",
            kind="question", signature="answer() -> bool",
            prompt=("Beam search keeps the k best partial sequences at every step. Does it "
                    "return the most probable sequence? Answer with a function of no "
                    "arguments returning True or False. Then: which properties make its "
                    "steps cheaper (python -m verify explain beam_search.candidate_pruning)?"),
            answer=False,
            hint=("With width 1 (greedy): first-token probabilities (0.6, 0.4), but every "
                  "continuation of the first token has probability 0.5 and one "
                  "continuation of the second has 0.9."),
            explanation=("No: pruning hypotheses is a heuristic. What beam search has is "
                         "exact, cheaper steps: each hypothesis needs only its own top k "
                         "tokens (sparsity), and the top-k of the candidates is a top-k "
                         "merge (associativity); log-probabilities add (separability)."),
            law="beam_search.not_argmax"),
    ]
