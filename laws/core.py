"""Core types of the catalog: the six properties, a law, a monoid law set, the registry.

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
METHODS = (Z3, FREE_MONOID, SEARCH)

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


# --------------------------------------------------------------------------- induction
@dataclass(frozen=True)
class Induction:
    """A specification as a running summary of the data: σ([]) = ``empty``,
    σ(xs + [x]) = ``update``(σ(xs), x), the answer ``finish``(σ(xs)); ``alpha`` maps a
    summary to the monoid state that represents it. With ``invariant`` true of every
    σ(xs) for nonempty xs, four unbounded proofs (base, invariant kept, step, lowering)
    show by induction on n that the left fold of lifted data equals α(σ(xs)), so its
    lowering equals ``finish``(σ(xs)) for every n.

    Does not cover: that ``finish`` over the summary equals a differently written
    specification (say, a two-pass variance); ``about`` says which specification the
    unbounded proof is against.
    """

    summary: Var                               # template of the summary (aggregates)
    empty: Any                                 # σ([])
    update: Callable[[Any, Any], Any]          # the aggregates' definition, one datum on
    finish: Callable[[Any], Any]               # the answer from the aggregates
    alpha: Callable[[Any], Any]                # the state that represents a summary
    about: str                                 # the specification, in words
    invariant: Callable[[Any], Sequence[Any]] | None = None  # true of σ(xs), xs ≠ []


def _induction_laws(family: str, prop: Property, combine, lift, lower, datum: Var,
                    datum_pre, ind: Induction) -> tuple[Law, ...]:
    empty, update, finish, alpha, inv = (ind.empty, ind.update, ind.finish, ind.alpha,
                                         ind.invariant)
    s = Var("s", ind.summary.shape, ind.summary.domain, ind.summary.tuple_state,
            ind.summary.labels)
    x = Var("x", datum.shape, datum.domain, datum.tuple_state, datum.labels)

    def holds(conds):
        return [c for c in conds]

    def pre_x(x):
        return list(datum_pre(x)) if datum_pre else []

    def pre_sx(s, x):
        return (list(inv(s)) if inv else []) + pre_x(x)

    def pre_s(s):
        return list(inv(s)) if inv else []

    common = dict(property=prop, licenses="(a step of the induction proof)",
                  combine=combine, float_check=False)
    out = [
        Law(id=f"{family}.induction_base", statement="lift(x) = α(update(σ([]), x))",
            vars=(x,), lhs=lambda x: lift(x), rhs=lambda x: alpha(update(empty, x)),
            pre=pre_x if datum_pre else None, **common),
        Law(id=f"{family}.induction_step",
            statement="α(s) ⊕ lift(x) = α(update(s, x))", vars=(s, x),
            lhs=lambda s, x: combine(alpha(s), lift(x)),
            rhs=lambda s, x: alpha(update(s, x)), pre=pre_sx, **common),
        Law(id=f"{family}.induction_lowering", statement="lower(α(s)) = finish(s)",
            vars=(s,), lhs=lambda s: lower(alpha(s)), rhs=lambda s: finish(s),
            pre=pre_s if inv else None, **common),
    ]
    if inv:
        out += [
            Law(id=f"{family}.invariant_base", statement="invariant(update(σ([]), x))",
                vars=(x,), lhs=lambda x: holds(inv(update(empty, x))),
                rhs=lambda x: [True] * len(inv(update(empty, x))),
                pre=pre_x if datum_pre else None, **common),
            Law(id=f"{family}.invariant_step",
                statement="invariant(s) ⇒ invariant(update(s, x))", vars=(s, x),
                lhs=lambda s, x: holds(inv(update(s, x))),
                rhs=lambda s, x: [True] * len(inv(update(s, x))), pre=pre_sx, **common),
        ]
    return tuple(out)


# --------------------------------------------------------------------------- monoids
@dataclass(frozen=True)
class Monoid:
    """A monoid law set: a combine with an identity and, optionally, a lift from data, a
    lower to the answer and the specification. ``laws()`` expands it into associativity,
    identity (both sides), optional commutativity and idempotence, and, when ``lift``,
    ``lower`` and ``spec`` are given, the homomorphism "fold of lifted data equals the
    specification" for the sizes in ``homomorphism_sizes``. Each law is an equation of
    ``laws.templates`` instantiated with this combine, so "my combine plus an identity"
    is one line::

        Monoid("mine", combine=f, identity=0, state=Var("s"))

    Does not cover: float behaviour (the float verdicts do), or unbounded homomorphism
    (each size is its own bounded proof) unless ``induction`` is given.
    """

    family: str                               # law id prefix
    combine: Callable[[Any, Any], Any]        # the shared combine (a, b) -> state
    identity: Any                             # identity element (may hold -inf)
    state: Var                                # template of one state (name ignored)
    lift: Callable[..., Any] | None = None    # datum -> state
    lower: Callable[[Any], Any] | None = None  # state -> answer
    spec: Callable[[Sequence[Any]], Any] | None = None  # data -> answer
    licenses: str = ""                        # optimization and system
    statement: str = ""                       # the combine, one line of math
    property: Property = Property.ASSOCIATIVITY
    state_pre: Callable[[Any], Sequence[Any]] | None = None  # a valid state
    datum: Var = Var("x")                     # template of one datum
    datum_pre: Callable[[Any], Sequence[Any]] | None = None
    indexed: bool = False                     # lift takes (datum, position)
    commutative: bool = False
    idempotent: bool = False
    homomorphism_sizes: tuple[int, ...] = (1, 2, 3, 4)
    induction: Induction | None = None        # for an unbounded homomorphism proof
    references: tuple[str, ...] = ()
    kernels: tuple[str, ...] = ()
    doc: str = ""

    def _state_var(self, name: str) -> Var:
        return Var(name, self.state.shape, self.state.domain, self.state.tuple_state,
                   self.state.labels)

    def _where(self) -> str:
        return f", where {self.statement}" if self.statement else ""

    def laws(self) -> list[Law]:
        from laws import templates as T
        state_pre = self.state_pre

        def pre_states(*states, **_):
            return [p for s in states for p in state_pre(s)] if state_pre else []

        common = dict(property=self.property, references=self.references,
                      kernels=self.kernels, combine=self.combine, pre=pre_states)
        a, b, c = (self._state_var(n) for n in "abc")
        e = _show(self.identity)
        out = [
            T.instantiate(T.ASSOCIATIVE, self.combine, (a, b, c),
                          id=f"{self.family}.associative",
                          statement=T.ASSOCIATIVE.infix + self._where(),
                          licenses=self.licenses or T.ASSOCIATIVE.licenses,
                          doc=self.doc or f"Associativity of the {self.family} combine.",
                          **common),
            T.instantiate(T.identity(self.identity, e), self.combine, (a,),
                          id=f"{self.family}.identity",
                          statement=f"e ⊕ a = a = a ⊕ e with e = {e}",
                          licenses="empty chunks and padding lanes: a fold may start from "
                                   "e and masked lanes may hold e",
                          doc=f"Left and right identity of {e} for the {self.family} "
                              "combine.", **common),
        ]
        for wanted, eq, licenses in (
                (self.commutative, T.COMMUTATIVE,
                 "any reduction order: tree reductions across lanes and atomics"),
                (self.idempotent, T.IDEMPOTENT,
                 "overlapping chunks may be combined twice (halo reuse, re-reads)")):
            if wanted:
                out.append(T.instantiate(eq, self.combine, (a, b)[:len(eq.var_names)],
                                         id=f"{self.family}.{eq.name}", statement=eq.infix,
                                         licenses=licenses, **common))
        if None not in (self.lift, self.lower, self.spec):
            out.append(self._homomorphism(T))
        return out

    def _homomorphism(self, T) -> Law:
        datum_pre, datum = self.datum_pre, self.datum

        def pre_data(*xs, n):
            return [p for x in xs for p in datum_pre(x)]

        def data(n):
            return tuple(Var(f"x{i + 1}", datum.shape, datum.domain) for i in range(n))

        sizes = self.homomorphism_sizes
        eq = T.homomorphism(self.lift, self.lower, self.spec, self.indexed)
        return T.instantiate(
            eq, self.combine, data, id=f"{self.family}.homomorphism", statement=eq.infix,
            licenses="streaming/chunked evaluation computes the specification: "
                     + self.licenses,
            pre=pre_data if datum_pre else None,
            instances=tuple({"n": n} for n in sizes),
            bounded_by=f"n ≤ {max(sizes)} data (each size a separate proof)",
            induction=() if self.induction is None else _induction_laws(
                self.family, self.property, self.combine, self.lift, self.lower,
                self.datum, datum_pre, self.induction),
            induction_note="" if self.induction is None else self.induction.about,
            doc=f"The {self.family} fold computes its specification.",
            property=self.property, references=self.references, kernels=self.kernels,
            combine=self.combine)


def _show(v: Any) -> str:
    if isinstance(v, tuple):
        return "(" + ", ".join(_show(x) for x in v) + ")"
    if isinstance(v, float):
        if v == float("-inf"):
            return "−∞"
        if v == float("inf"):
            return "∞"
        return repr(v) if v != int(v) else str(int(v))
    return str(v)


# --------------------------------------------------------------------------- registry
_ID = re.compile(r"^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$")


class Registry:
    """All laws by id. ``check`` runs at import of ``laws``: a malformed law is a bug in
    the catalog and stops the program, rather than surfacing as a verdict."""

    def __init__(self) -> None:
        self._laws: dict[str, Law] = {}

    def add(self, *items: Law | Monoid | Sequence[Law]) -> None:
        for item in items:
            if isinstance(item, Monoid):
                self.add(*item.laws())
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
