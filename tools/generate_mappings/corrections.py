"""Known errors in the MindSpore mapping docs, corrected on the way into the knowledge base.

Each correction is listed in mappings/README.md under "Corrections" and named in the entry's note.
Found by checking every source name against torch 2.13.0 (resolve_names.py) and every target against
mindspore 2.10.0 (the reference's resolution table), and by the reference README's list of doc quirks.
"""

from __future__ import annotations

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
        "claim dropped the doc states no difference (r2.4.10 calls nansum consistent)"
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


def correct_source(api: str) -> tuple[str, str]:
    """The real torch name for a doc name, and the note to add when it was corrected."""
    corrected = SOURCE_SPELLING.get(api)
    if corrected is None:
        return api, ""
    return corrected, f"correction: the doc spells it {api}; torch's name is {corrected}."
