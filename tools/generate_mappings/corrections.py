"""Known errors in the MindSpore mapping docs, corrected on the way into the knowledge base.

Each correction is listed in mappings/README.md under "Corrections" and named in the entry's note.
Found by checking every source name against torch 2.13.0 (resolve_names.py) and every target against
mindspore 2.10.0 (the reference's resolution table), and by the reference README's list of doc quirks.
"""

from __future__ import annotations

from dataclasses import dataclass

# The doc spells these torch names wrongly; the real name (which torch 2.13.0 has) replaces it.
SOURCE_SPELLING = {
    "torch.nn.LogSoftMax": "torch.nn.LogSoftmax",
    "torch.nn.SeLU": "torch.nn.SELU",
    "torch.nn.CeLU": "torch.nn.CELU",
    "torch.optim.AdaMax": "torch.optim.Adamax",
    "torch.optim.RMSProp": "torch.optim.RMSprop",
    "torch.Tensor.log_normal": "torch.Tensor.log_normal_",
}

# (api, branch) → why: rows whose only stated difference is false. They become consistent (ms-equivalent).
FALSE_DIFFERENCES = {
    ("torch.nansum", "master"): (
        "correction: the doc says the default of `end` differs, but nansum has no `end` parameter; with that "
        "claim dropped the doc states no difference (r2.4.10 calls nansum consistent; mindspore 2.10.0 documents "
        "mint.nansum(input, dim=None, keepdim=False, *, dtype=None), torch's signature)"
    ),
}

# MindSpore targets of the r2.4.10 table that mindspore 2.10.0 no longer has: their entries end at 2.5 (the
# first release documented without them), since where exactly each was removed is not recorded.
REMOVED_TARGETS = frozenset({
    "mindspore.nn.Hsigmoid",
    "mindspore.nn.Hswish",
    "mindspore.nn.LogSoftMax",
    "mindspore.nn.MultiLabelMarginLoss",
})
REMOVED_TARGET_RANGE = "<2.5"

# (api, branch) → note: rows the doc calls consistent that a plain rename would break (ms-differs, unsafe).
NOT_A_RENAME = {
    ("torch.nn.Flatten", "master"): (
        "correction: the doc calls this consistent, but it maps the class torch.nn.Flatten (start_dim=1) to the "
        "function mindspore.mint.flatten; call the function on the input inside construct with start_dim=1 "
        "rather than renaming the constructor"
    ),
}


# (api, branch) → {source parameter: (change, target parameter, 0-based position in the torch signature)}:
# parameter differences the doc states only as "the default differs", whose real relation a fix must know.
# BatchNorm momentum: mindspore.nn uses momentum for the running statistics' own weight, 1 - torch's
# (0.9 vs 0.1, mindspore.nn.BatchNorm2d docstring in 2.10.0). Dropout: mindspore.nn.Dropout(keep_prob=0.5,
# p=None) takes keep_prob first, so torch's positional p must be passed as the keyword p.
PARAMETER_RELATIONS = {
    ("torch.nn.BatchNorm1d", "r2.4.10"): {"momentum": ("complement", "momentum", 2)},
    ("torch.nn.BatchNorm2d", "r2.4.10"): {"momentum": ("complement", "momentum", 2)},
    ("torch.nn.BatchNorm3d", "r2.4.10"): {"momentum": ("complement", "momentum", 2)},
    ("torch.nn.Dropout", "r2.4.10"): {"p": ("renamed", "p", 0)},
}


@dataclass(frozen=True)
class Replacement:
    """A better target found in the installed mindspore 2.10.0. Where it first appeared is not recorded, so
    it applies from 2.10 on and the doc's entry keeps the releases before."""

    target: str
    since: str
    note: str
    verified: str


CHECKED_REPLACEMENTS = {
    ("torch.nn.Flatten", "master"): Replacement(
        target="mindspore.mint.nn.Flatten",
        since="2.10",
        note="correction: the doc maps the class to the function mindspore.mint.flatten; mindspore 2.10.0 has the "
             "class mindspore.mint.nn.Flatten(start_dim=1, end_dim=-1), torch.nn.Flatten's signature",
        verified="signature read in mindspore 2.10.0: mindspore.mint.nn.Flatten.__init__(self, start_dim=1, end_dim=-1)",
    ),
}

# (api, branch) → (keyword renames, how they were found): "consistent" rows whose MindSpore 2.10.0 API
# refuses torch's keyword (a call was run on the CPU); positional calls work, so the rename stays safe.
CHECKED_KEYWORD_RENAMES = {
    ("torch.Tensor.squeeze", "r2.4.10"): (
        (("dim", "axis"),),
        "run in mindspore 2.10.0 on the CPU: x.squeeze(dim=1) raises TypeError, x.squeeze(axis=1) and x.squeeze(1) work",
    ),
    ("torch.Tensor.diagonal", "r2.4.10"): (
        (("dim1", "axis1"), ("dim2", "axis2")),
        "run in mindspore 2.10.0 on the CPU: x.diagonal(dim1=0, dim2=2) raises TypeError, "
        "x.diagonal(offset=0, axis1=0, axis2=2) works",
    ),
}


def _called_both(renames: tuple[tuple[str, str], ...]) -> tuple[tuple[tuple[str, str], ...], str]:
    old = ", ".join(f"{source}=" for source, _ in renames)
    new = ", ".join(f"{target}=" for _, target in renames)
    return renames, f"run on the CPU: torch 2.13.0 accepts {old}, mindspore 2.10.0 raises TypeError there and accepts {new}"


# More of the same, found by calling both packages with torch's keyword and with MindSpore's.
CHECKED_KEYWORD_RENAMES.update({
    ("torch.Tensor.index_fill", "r2.4.10"): _called_both((("dim", "axis"),)),
    ("torch.Tensor.logcumsumexp", "r2.4.10"): _called_both((("dim", "axis"),)),
    ("torch.Tensor.norm", "r2.4.10"): _called_both((("p", "ord"),)),
    ("torch.Tensor.transpose", "r2.4.10"): _called_both((("dim0", "axis0"), ("dim1", "axis1"))),
    ("torch.linalg.inv", "master"): _called_both((("A", "input"),)),
    ("torch.moveaxis", "r2.4.10"): _called_both((("input", "x"),)),
    ("torch.movedim", "r2.4.10"): _called_both((("input", "x"),)),
    ("torch.nn.functional.hinge_embedding_loss", "r2.4.10"): _called_both((("input", "inputs"), ("target", "targets"))),
    ("torch.nn.functional.max_pool3d", "r2.4.10"): _called_both((("input", "x"),)),
})

# Renames read from the signatures (signatures.py) that a call in mindspore 2.10.0 on the CPU contradicted or
# could not confirm: left out.
SIGNATURE_MISREADS = {
    "torch.Tensor.argsort": "Tensor.argsort accepts dim= as well as axis= (an overload the docstring omits)",
    "torch.Tensor.narrow": "neither dim= nor dimension= was accepted in a keyword call, so the names are unclear",
}
# Renames read from the signatures that such a call confirmed: mindspore 2.10.0 raised TypeError for torch's
# keyword and ran with its own.
SIGNATURE_CALLS_CHECKED = frozenset({
    "torch.Tensor.bmm", "torch.Tensor.cummax", "torch.Tensor.diff", "torch.Tensor.hsplit", "torch.Tensor.tensor_split",
    "torch.copysign", "torch.nn.functional.glu", "torch.logcumsumexp", "torch.nn.functional.threshold", "torch.vstack",
    "torch.nn.Unflatten", "torch.arcsin",
})

VERIFIED = {
    ("torch.nansum", "master"): "signature read in mindspore 2.10.0: mindspore.mint.nansum(input, dim=None, "
                                "keepdim=False, *, dtype=None), as torch.nansum in torch 2.13.0",
}


def correct_source(api: str) -> tuple[str, str]:
    """The real torch name for a doc name, and the note to add when it was corrected."""
    corrected = SOURCE_SPELLING.get(api)
    if corrected is None:
        return api, ""
    return corrected, f"correction: the doc spells it {api}; torch's name is {corrected}."
