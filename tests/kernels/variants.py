"""Helpers for kernel tests that certify a broken variant of a kernel: which cases it
fails, and a spec narrowed to some cases."""


def variant_failures(spec, run, dtypes=("float32",)) -> list[str]:
    """Names of the cases a variant ``run`` of ``spec`` fails in ``dtypes`` (numbers
    only, laws not checked); asserts the variant's certificate fails."""
    import dataclasses
    from impls.spec import backend
    from verify.certification.certify import certify
    variant = dataclasses.replace(spec, execution=dataclasses.replace(
        spec.execution, run=run, planted={}))
    cert = certify(variant, backend(), seed=0, dtypes=list(dtypes), check_laws=False)
    assert not cert["pass"], "the variant passed certification"
    failing = [c["name"] for d in dtypes for c in cert["per_dtype"][d]["cases"]
               if not c["pass"]]
    assert failing, "the certificate failed, but on no case: " + "; ".join(cert["notes"])
    return failing


def only_cases(spec, prefix: str):
    """``spec`` certified on the cases whose name starts with ``prefix`` only (with no
    contract classes required: a narrowed spec cannot cover them)."""
    import dataclasses

    def cases(seed, which):
        chosen = [c for c in spec.coverage.cases(seed, which) if c.name.startswith(prefix)]
        assert chosen, f"no case named {prefix!r}"
        return chosen
    return dataclasses.replace(spec, coverage=dataclasses.replace(
        spec.coverage, cases=cases, contract_classes=()))


def last_column_dropped(spec, n: int):
    """A broken variant of ``spec.execution.run`` for rows of length ``n``: the last column never
    reaches the kernel; row-length outputs are padded back by repeating their last
    column, so only the values can give it away."""
    import dataclasses
    import torch

    def run(case, dtype):
        short = dataclasses.replace(case, n=n - 1, inputs={
            k: (v[..., :-1] if v.dim() and v.shape[-1] == n else v)
            for k, v in case.inputs.items()})
        out = spec.execution.run(short, dtype)
        padded = {k: torch.cat([v, v[..., -1:]], dim=-1) for k, v in out.items()
                  if v.dim() == 2 and v.shape[-1] == n - 1}
        return dict(out) | padded
    return run
