"""Law sets: a monoid (a combine with its identity, optionally a lift, a lower and a
specification) expands into its laws, each an equation of ``laws.templates``
instantiated with the combine; ``Induction`` adds the steps of an unbounded
homomorphism proof.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

from laws import templates as T
from laws.core import Law, Property, Var


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
            out.append(self._homomorphism())
        return out

    def _homomorphism(self) -> Law:
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
