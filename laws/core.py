"""Core types of the catalog: the six properties, a variable, a law, the registry
(law sets such as ``Monoid`` live in laws/monoid.py).

A law is a value: an equation ``lhs ≡ rhs`` over declared variables, with its domain
(variable domains plus preconditions), what it licenses, and how it is to be checked.
Law sides are plain Python over the small ``tl`` vocabulary (``tl.maximum``,
``tl.exp``, ``tl.where``, arithmetic, tuples), so the checker can run the very same
code over z3 terms, mpmath numbers and float tensors.
"""
from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence


class Property(str, enum.Enum):
    ASSOCIATIVITY = "associativity"
    SEPARABILITY = "separability"
    LOCALITY = "locality"
    SPARSITY = "sparsity"
    REDUNDANCY = "redundancy"
    SYMMETRY = "symmetry"


HOLDS, FAILS = "holds", "fails"
EXACT, BOUNDED = "exact", "bounded"

# How a law is checked.
Z3 = "z3"                    # evaluate both sides on z3 reals, prove lhs == rhs
FREE_MONOID = "free-monoid"  # algorithm shapes: evaluate in the free monoid (tuples, concat)
SEARCH = "search"            # hypothesis + mpmath oracle only; the law states why
PROBABILISTIC = "probabilistic"  # a random estimator: a statistical verdict, never a proof
METHODS = (Z3, FREE_MONOID, SEARCH, PROBABILISTIC)
EXPECTATION, PROBABILITY = "expectation", "probability"

# Scalar domains a variable (or a component of a tuple variable) may have.
# unit: [0, 1]; small: the integers 0..3 (values that collide often: modes, ties)
DOMAINS = ("real", "positive", "nonneg", "integer", "natural", "unit", "small")


@dataclass(frozen=True)
class Var:
    """A law variable: a scalar, a tuple state, a vector or a matrix of scalars."""

    name: str                          # shown in reports and counterexamples
    shape: tuple[int, ...] = ()        # () scalar; (k,) tuple/vector; (m, n) matrix
    domain: str | tuple[str, ...] = "real"  # one domain, or one per tuple component
    tuple_state: bool = True           # (k,) shape: a tuple (True) or a vector/list (False)
    labels: tuple[str, ...] = ()       # component names of a tuple state, e.g. ("m", "s")

    def component_domains(self) -> list[str]:
        size = 1
        for s in self.shape:
            size *= s
        if isinstance(self.domain, str):
            return [self.domain] * size
        if len(self.domain) != size:
            raise ValueError(f"{self.name}: {len(self.domain)} domains for {size} components")
        return list(self.domain)


@dataclass(frozen=True)
class Randomized:
    """How a probabilistic law draws its randomness and what it claims about it.

    ``draw(rng, n, **instance)`` returns the randomness of ``n`` independent draws (a
    numpy ``Generator`` is passed); the law's ``lhs(*values, randomness=R, **instance)``
    returns the ``n`` per-draw values of the estimator (claim ``expectation``: E[lhs] =
    rhs) or ``n`` booleans, the event (claim ``probability``: P[event] ≥ ``p``; ``rhs``
    is then unused). The claim is checked at each of ``points`` (one value per law
    variable) on ``draws`` draws, at confidence ``confidence``.
    """

    draw: Callable[..., Any]
    points: tuple[tuple[Any, ...], ...]
    claim: str = EXPECTATION
    p: float = 1.0
    draws: int = 4000
    confidence: float = 0.999


@dataclass(frozen=True)
class Law:
    """An equation ``lhs(*vars) ≡ rhs(*vars)`` on a domain, with what it licenses.

    ``pre`` returns conditions (in the same vocabulary) that the variables satisfy.
    ``instances`` are size parameters passed to every function as keywords; a law with
    ``bounded_by`` set is at best ``proved-bounded`` and says that bound.
    """

    id: str                                   # "family.law"
    property: Property                        # primary property
    statement: str                            # the equation, one line of math
    licenses: str                             # the optimization, and a system that uses it
    vars: tuple[Var, ...] | Callable[..., tuple[Var, ...]]  # or a function of the instance
    lhs: Callable[..., Any]                   # left side
    rhs: Callable[..., Any]                   # right side
    pre: Callable[..., Sequence[Any]] | None = None  # preconditions beyond the domains
    expect: str = HOLDS                       # "holds", or "fails" for an anti-law
    exactness: str = EXACT                    # "exact" over ℝ, or "bounded" (approximation)
    error_bound: Callable[..., Any] | None = None  # bounded laws: |lhs − rhs| ≤ this
    instances: tuple[Mapping[str, Any], ...] = ({},)  # size parameters, one check each
    bounded_by: str | None = None             # text of the bound when proofs are bounded
    method: str = Z3                          # how it is checked (METHODS)
    reason: str | None = None                 # why no proof path, for method "search"
    secondary: Property | None = None         # optional second property
    references: tuple[str, ...] = ()          # paper ids in papers/
    kernels: tuple[str, ...] = ()             # impls modules whose speed rests on it
    teaches: str | None = None                # for an anti-law: the law it is a near miss of
    doc: str = ""                             # the equation and what it does not cover
    combine: Callable[..., Any] | None = None  # the shared combine, when there is one
    float_check: bool = True                  # run float-format verdicts for this law
    induction: tuple["Law", ...] = ()          # sub-laws that prove it for every n
    induction_note: str = ""                  # what the unbounded proof is about
    randomized: Randomized | None = None      # method "probabilistic": draws and claim

    @property
    def family(self) -> str:
        return self.id.split(".", 1)[0]

    def vars_for(self, instance: Mapping[str, Any]) -> tuple[Var, ...]:
        return self.vars(**instance) if callable(self.vars) else self.vars


# --------------------------------------------------------------------------- folds
def fold(combine: Callable, items: Sequence[Any], identity: Any = None) -> Any:
    """Left fold; with no identity the first item seeds it."""
    items = list(items)
    if identity is None:
        acc, rest = items[0], items[1:]
    else:
        acc, rest = identity, items
    for item in rest:
        acc = combine(acc, item)
    return acc


# --------------------------------------------------------------------------- registry
_ID = re.compile(r"^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$")


class Registry:
    """All laws by id. ``check`` runs at import of ``laws``: a malformed law is a bug in
    the catalog and stops the program, rather than surfacing as a verdict."""

    def __init__(self) -> None:
        self._laws: dict[str, Law] = {}
        self._sets: dict[str, Any] = {}

    def add(self, *items: Any) -> None:
        """Add laws, law sets (anything with ``laws()``, such as a ``Monoid``) or
        sequences of either."""
        for item in items:
            if hasattr(item, "laws"):  # a law set (laws.monoid.Monoid)
                self.add(*item.laws())
                self._sets[item.family] = item
            elif isinstance(item, Law):
                if item.id in self._laws:
                    raise ValueError(f"duplicate law id {item.id}")
                self._laws[item.id] = item
            else:
                self.add(*item)

    def __getitem__(self, law_id: str) -> Law:
        return self._laws[law_id]

    def __contains__(self, law_id: str) -> bool:
        return law_id in self._laws

    def __iter__(self):
        return iter(self._laws.values())

    def __len__(self) -> int:
        return len(self._laws)

    def ids(self) -> list[str]:
        return list(self._laws)

    def law_set(self, family: str) -> Any:
        """The law set (a ``Monoid``) that expanded into the laws ``family.*``, or None."""
        return self._sets.get(family)

    def check(self) -> None:
        problems = []
        for law in self:
            where = f"law {law.id}"
            if not _ID.match(law.id):
                problems.append(f"{where}: id must be family.law in lower_snake_case")
            if not isinstance(law.property, Property):
                problems.append(f"{where}: property must be a Property")
            if not law.statement.strip() or not law.licenses.strip():
                problems.append(f"{where}: statement and licenses are required")
            if law.expect not in (HOLDS, FAILS):
                problems.append(f"{where}: expect must be holds or fails")
            if law.exactness not in (EXACT, BOUNDED):
                problems.append(f"{where}: exactness must be exact or bounded")
            if law.exactness == BOUNDED and law.error_bound is None:
                problems.append(f"{where}: a bounded law needs error_bound")
            if law.method not in METHODS:
                problems.append(f"{where}: method must be one of {METHODS}")
            if law.method == SEARCH and not law.reason:
                problems.append(f"{where}: a law without a proof path must say why (reason)")
            if (law.method == PROBABILISTIC) != (law.randomized is not None):
                problems.append(f"{where}: a probabilistic law (and only one) needs "
                                "randomized")
            elif law.randomized and law.randomized.claim not in (EXPECTATION, PROBABILITY):
                problems.append(f"{where}: randomized.claim must be expectation or "
                                "probability")
            if len(law.instances) > 1 and not law.bounded_by:
                problems.append(f"{where}: several instances need bounded_by text")
            if law.expect == FAILS and law.teaches and law.teaches not in self._laws:
                problems.append(f"{where}: teaches unknown law {law.teaches}")
            for inst in law.instances:
                try:
                    for v in law.vars_for(inst):
                        for dom in v.component_domains():
                            if dom not in DOMAINS:
                                problems.append(f"{where}: unknown domain {dom!r}")
                except (TypeError, ValueError) as exc:
                    problems.append(f"{where}: bad vars for {dict(inst)}: {exc}")
        if problems:
            raise ValueError("malformed catalog:\n  " + "\n  ".join(problems))
