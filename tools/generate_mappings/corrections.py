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
# The third hand check's over-cautious ms-differs: the doc's "parameter names are inconsistent", which the signatures and
# a keyword call in mindspore 2.10.0 on the CPU do not bear out (the battery's numeric run is folded in afterwards).
FALSE_DIFFERENCES.update({
    ("torch.Tensor.ge", "r2.4.10"): (
        "correction: the doc says the parameter names differ, but mindspore.Tensor.ge(other) takes torch's name: "
        "x.ge(other=y) and x.ge(0.5) run in mindspore 2.10.0 on the CPU and agree with torch 2.13.0"),
    ("torch.Tensor.logsumexp", "r2.4.10"): (
        "correction: the doc says the parameter names differ, but mindspore.Tensor.logsumexp(dim, keepdim=False) takes "
        "torch's names: x.logsumexp(dim=1, keepdim=True) runs in mindspore 2.10.0 on the CPU and agrees with torch"),
})

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


# The hand check of 100 random entries (mappings/verification/hand_check_1.yaml): torchaudio transforms the doc calls
# consistent whose MindSpore counterparts take other argument types (run in mindspore 2.10.0 on the CPU).
_AUDIO_MFCC = ("correction: the doc calls this consistent, but mindspore.dataset.audio.MFCC takes norm as a NormMode "
               "(NormMode.ORTHO), not torchaudio's string: MFCC(norm='ortho') raises TypeError in mindspore 2.10.0; it "
               "is a dataset transform run on numpy arrays (eagerly or in .map), not a layer on tensors")
_AUDIO_STRETCH = ("correction: the doc calls this consistent, but mindspore.dataset.audio.TimeStretch takes a real array "
                  "<..., freq, time, 2> (real and imaginary parts in the last axis), where torchaudio's takes a complex "
                  "tensor, and it is a dataset transform on numpy arrays (its docstring in mindspore 2.10.0)")
NOT_A_RENAME.update({
    # found by the second hand check (mappings/verification/hand_check_2.yaml)
    ("torch.Tensor.log_normal_", "r2.4.10"): (
        "correction: the doc calls this consistent, but mindspore.Tensor.log_normal(mean=1.0, std=2.0) returns a new "
        "tensor and leaves its receiver unchanged (run in mindspore 2.10.0 on the CPU), where torch's log_normal_ fills "
        "the tensor in place: a rename of the statement x.log_normal_() changes nothing; assign the result instead"),
    ("torch.distributed.gather", "master"): (
        "correction: the doc calls this consistent, but mindspore.mint.distributed.gather(tensor, gather_list, dst=0, "
        "group=None, async_op=False) has no default for gather_list (torch: None) and dst defaults to 0 (torch: None), "
        "so torch's dist.gather(t, dst=0) on the ranks that receive nothing raises TypeError (mindspore 2.10.0 "
        "signature; earlier releases not checked)"),
    ("torchaudio.transforms.MFCC", "master"): _AUDIO_MFCC,
    ("torchaudio.transforms.MFCC", "r2.4.10"): _AUDIO_MFCC,
    ("torchaudio.transforms.TimeStretch", "master"): _AUDIO_STRETCH,
    ("torchaudio.transforms.TimeStretch", "r2.4.10"): _AUDIO_STRETCH,
})


# The signature scan (tools/signature_scan.py) after the second hand check, looking across all entries for the kinds of
# error the samples found: in-place methods mapped to out-of-place ones, lists torch lets a non-source rank omit that
# MindSpore requires, named results (torch.return_types) where MindSpore returns a plain tuple, and switches the
# target lacks. Each was confirmed in torch 2.13.0 and mindspore 2.10.0 on the CPU (run or signatures read).
_PLAIN_TUPLE = ("correction: the doc calls this consistent, but torch returns a named result ({fields}) and {target} a "
                "plain tuple (run in mindspore 2.10.0 on the CPU): code that reads {example} breaks; unpack or index the "
                "result instead")
_OPTIMIZER_SWITCHES = ("correction: the doc calls this consistent, but {target}(params, lr, betas, eps, weight_decay{more}) "
                       "has no decoupled_weight_decay (torch's {name}W behaviour) and no maximize (signatures read in "
                       "torch 2.13.0 and mindspore 2.10.0); the defaults agree, so calls without them are unchanged")
NOT_A_RENAME.update({
    ("torch.Tensor.cauchy_", "r2.4.10"): (
        "correction: the doc calls this consistent, but mindspore.Tensor.cauchy(median=0.0, sigma=1.0) returns a new "
        "tensor and leaves its receiver unchanged (run in mindspore 2.10.0 on the CPU: the receiver stayed all ones), "
        "where torch's cauchy_ fills the tensor in place: assign the result instead"),
    ("torch.distributed.scatter_object_list", "master"): (
        "correction: the doc calls this consistent, but mindspore.mint.distributed.scatter_object_list("
        "scatter_object_output_list, scatter_object_input_list, src=0, group=None) has no default for "
        "scatter_object_input_list (torch: None, what the ranks that only receive pass) and src defaults to 0 (torch: "
        "None); torch's group_src has no counterpart (mindspore 2.10.0 signature)"),
    ("torch.sort", "master"): _PLAIN_TUPLE.format(fields=".values, .indices", target="mint.sort",
                                                  example="torch.sort(x).values"),
    ("torch.cummax", "master"): _PLAIN_TUPLE.format(fields=".values, .indices", target="mint.cummax",
                                                    example="torch.cummax(x, 1).values"),
    ("torch.cummin", "master"): _PLAIN_TUPLE.format(fields=".values, .indices", target="mint.cummin",
                                                    example="torch.cummin(x, 1).values"),
    ("torch.slogdet", "r2.4.10"): _PLAIN_TUPLE.format(fields=".sign, .logabsdet", target="ops.slogdet",
                                                      example="torch.slogdet(a).logabsdet"),
    ("torch.Tensor.slogdet", "r2.4.10"): _PLAIN_TUPLE.format(fields=".sign, .logabsdet", target="Tensor.slogdet",
                                                             example="a.slogdet().logabsdet"),
    ("torch.Tensor.geqrf", "r2.4.10"): _PLAIN_TUPLE.format(fields=".a, .tau", target="Tensor.geqrf",
                                                           example="a.geqrf().tau"),
    ("torch.lu_unpack", "r2.4.10"): _PLAIN_TUPLE.format(fields=".P, .L, .U", target="ops.lu_unpack",
                                                        example="torch.lu_unpack(lu, pivots).L"),
    ("torch.optim.NAdam", "r2.4.10"): _OPTIMIZER_SWITCHES.format(target="mindspore.experimental.optim.NAdam",
                                                                 more=", momentum_decay", name="NAdam"),
    ("torch.optim.RAdam", "r2.4.10"): _OPTIMIZER_SWITCHES.format(target="mindspore.experimental.optim.RAdam", more="",
                                                                 name="RAdam"),
})

# Found by the third hand check (mappings/verification/hand_check_3.yaml), run in mindspore 2.10.0 on the CPU.
NOT_A_RENAME.update({
    ("torch.Tensor.index_add", "r2.4.10"): (
        "correction: the doc calls this consistent, but in mindspore 2.10.0 on the CPU x.index_add(dim, index, source) "
        "also writes the sum into x (torch returns a new tensor and leaves x unchanged; the same for mint.index_add and "
        "ops.index_add), and it refuses int64 indices (IndexAdd takes Int32 only), torch's usual index dtype"),
    # Found by the signature scan run over the ops/nn-era rows (targets for MindSpore < 2.5, which the hand samples'
    # population leaves out) and by running mstrain's regression program: the default reductions differ.
    ("torch.nn.functional.smooth_l1_loss", "r2.4.10"): (
        "correction: the doc calls this consistent, but mindspore.ops.smooth_l1_loss defaults to reduction='none' "
        "(torch: 'mean'): smooth_l1_loss(x, y) gives the element-wise losses, not their mean (run in mindspore 2.10.0 "
        "on the CPU: [0.02, 1.0, 2.5] against torch's 1.1733; pass reduction='mean')"),
    ("torch.vander", "r2.4.10"): (
        "correction: the doc calls this consistent, but mindspore.ops.vander(x, N=None) has no increasing: "
        "torch.vander(x, increasing=True) raises TypeError after a rename (run in mindspore 2.10.0 on the CPU; vander(x) "
        "and vander(x, N=2) agree)"),
})

# (api, MindSpore target) → why: differences the battery calls "edge" (NaN where the other side gives a number, read
# as out of the function's domain) that are the function's ordinary use. xlogy exists for x = 0: torch gives
# xlogy(0, 0) = 0 (the entropy of a zero probability), MindSpore 2.10.0 NaN (run on the CPU).
# Tensor methods the reference renames that mindspore 2.10.0 also has under the torch name (checked in a venv with
# mindspore 2.10.0: `mindspore.Tensor.dim` and `mindspore.Tensor.numpy` exist and give what torch's give): the code
# needs no change, so the entry stays as knowledge and is not reported (issue 15).
NOT_REPORTED = {
    "torch.Tensor.dim": "mindspore 2.10.0 also has Tensor.dim(), so x.dim() needs no change.",
    "torch.Tensor.numpy": "mindspore 2.10.0 also has Tensor.numpy(), so x.numpy() needs no change.",
}

EDGE_IS_ORDINARY = {
    # the third hand check: mindspore 2.10.0's float32 nextafter on the CPU returns its input (nextafter(1.5, 0) is 1.5,
    # torch gives the next float down); the battery's tolerance (rtol 1e-4) cannot see a one-ulp function
    ("torch.nextafter", "mindspore.ops.nextafter"): "on float32 MindSpore returns the input itself (nextafter(1.5, 0) is "
                                                    "1.5, torch 1.4999999); float64 agrees",
    ("torch.Tensor.nextafter", "mindspore.Tensor.nextafter"): "on float32 MindSpore returns the input itself "
                                                              "(x.nextafter(0) of 1.5 is 1.5, torch 1.4999999); float64 "
                                                              "agrees",
    ("torch.xlogy", "mindspore.mint.xlogy"): "xlogy(0, 0) is 0 in torch and NaN in MindSpore, and x = 0 is what xlogy "
                                             "is for (entropy terms of zero probabilities)",
    ("torch.Tensor.xlogy", "mindspore.Tensor.xlogy"): "x.xlogy(y) with x = 0 and y = 0 is 0 in torch and NaN in "
                                                      "MindSpore, and x = 0 is what xlogy is for",
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
    # The r2.4.10 diff page (TensorSum) pairs the parameters by position and calls both pairs `type` ("the relative
    # order of keepdim and dtype are different"): torch's x.sum(dim, keepdim, *, dtype) against mindspore 2.4's
    # Tensor.sum(axis, dtype, keepdims, initial). A keepdim passed by position lands in dtype (position 1); torch's
    # dtype is keyword-only (x.sum(0, False, torch.float64) raises TypeError in torch 2.13.0) and MindSpore's dtype
    # takes the same keyword. So x.sum() and x.sum(dtype=...) are unchanged (methods._unchanged_on_mindspore).
    ("torch.Tensor.sum", "r2.4.10"): {"keepdim": ("type", "dtype", 1), "dtype": ("same", "dtype", None)},
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


# Parameter names the doc tables give that the real signatures contradict (`kb verify` lists them). Read in the
# installed torch 2.13.0 and mindspore 2.10.0, and in the sources of the mindspore 2.0.0 and 2.7.0 wheels and the
# torch 2.6.0, 2.7.0 and 2.8.0 wheels from PyPI (zips read, nothing installed; no MindSpore between 2.0.0 and 2.7.0
# is on PyPI). Where an old release agrees with the doc, the doc's entry keeps the releases before the first one
# checked that does not (`since`), and the corrected entry applies from there.
@dataclass(frozen=True)
class ParameterFix:
    """One doc parameter row, found by its (source, target) names, and what it really is."""

    source: str | None
    target: str | None
    becomes: dict | None  # the corrected row (schema keys, note aside); None: the row is wrong and is left out
    reason: str  # the row's note, or for a row left out, a sentence of the entry's note


@dataclass(frozen=True)
class ParameterCorrection:
    """Doc parameter rows of one entry corrected from the real signatures."""

    fixes: tuple[ParameterFix, ...]
    note: str  # the entry's note: what was wrong
    checked: str  # the entry's `verified`: what was read or run, in which releases
    since: str = ""  # the first release checked with the corrected names; the doc's entry keeps the ones before
    side: str = "target"  # which range `since` splits: "target" (MindSpore) or "source" (torch)
    added: tuple[dict, ...] = ()  # rows the doc lacks that the same check found
    equivalent: bool = False  # no difference is left: ms-equivalent with a safe fix, as FALSE_DIFFERENCES


def _row(source: str | None, target: str | None, change: str, **defaults: str) -> dict:
    row = {"source": source, "target": target, "change": change, **defaults}
    return {key: value for key, value in row.items() if value is not None}


_READ_IN = "signatures read in the mindspore 2.0.0, 2.7.0 and 2.10.0 sources"


def _receiver(api: str, target: str) -> ParameterCorrection:
    """Tensor methods whose rows come from the function's diff page: `input` is the receiver, not a keyword."""
    method = target.rsplit(".", 1)[1]
    return ParameterCorrection(
        fixes=(ParameterFix("input", "x", None, f"the doc's row input -> x is the function's ({api} shares its diff "
                                                 f"page): for the method the tensor is the receiver on both sides"),),
        note=f"correction: {target}(self, axis=None, keepdims=False, *, initial=None, where=None) has no x; the "
             f"tensor is the receiver",
        checked=f"{_READ_IN}: {target}(self, axis=None, keepdims=False, *, initial=None, where=None) in all three; "
                f"run in mindspore 2.10.0 on the CPU: x.{method}(axis=1, keepdims=True) works, x.{method}(dim=1) and "
                f"keepdim= raise TypeError",
    )


def _same_name(source: str, wrong: str, target: str, signature: str) -> ParameterCorrection:
    """A row the doc calls a rename whose two names are in fact the same."""
    return ParameterCorrection(
        fixes=(ParameterFix(source, wrong, _row(source, source, "same"),
                            f"the doc renames {source} to {wrong}; {target} takes {source} too"),),
        note=f"correction: the doc renames {source} to {wrong}, but {signature} keeps the name",
        checked=f"{_READ_IN}: {signature} in all three",
    )


_VERBOSE_GONE = ("torch 2.7 removed the deprecated verbose parameter of the schedulers (its lr_scheduler.py has none; "
                 "2.6.0 has it), so the doc's difference applies to torch before 2.7")


def _scheduler(name: str) -> ParameterCorrection:
    return ParameterCorrection(
        fixes=(ParameterFix("verbose", None, None, "torch 2.7 removed verbose"),),
        note="correction: torch 2.7 removed verbose (2.6.0 has it); from torch 2.7 no difference is left: torch 2.13.0 "
             "and mindspore 2.10.0 take the same __init__ parameters with the same defaults",
        checked=f"torch.optim.lr_scheduler.py read in the torch 2.6.0, 2.7.0 and 2.8.0 wheels; __init__ signatures of "
                f"torch.optim.lr_scheduler.{name} (torch 2.13.0) and mindspore.experimental.optim.lr_scheduler.{name} "
                f"(mindspore 2.10.0) read: the same names and defaults",
        since="2.7", side="source", equivalent=True,
    )


_CYCLIC_ROWS = tuple(_row(name, None, "removed", source_default=default)
                     for name, default in (("cycle_momentum", "True"), ("base_momentum", "0.8"), ("max_momentum", "0.9")))

_CORRECTED_ROWS: dict[tuple[str, str], ParameterCorrection] = {
    ("torch.Tensor.amax", "r2.4.10"): _receiver("torch.amax", "mindspore.Tensor.amax"),
    ("torch.Tensor.amin", "r2.4.10"): _receiver("torch.amin", "mindspore.Tensor.amin"),
    ("torch.Tensor.bernoulli", "r2.4.10"): ParameterCorrection(
        fixes=(
            ParameterFix(None, "input", None, "the method has no input parameter (the tensor is the receiver)"),
            ParameterFix("input", "p", None, "MindSpore's Tensor.bernoulli no longer takes p"),
            ParameterFix("generator", "seed", _row("generator", "generator", "same", source_default="None",
                                                   target_default="None"),
                         "mindspore 2.7.0 and 2.10.0: Tensor.bernoulli(self, *, generator=None), as torch's"),
            ParameterFix("out", None, None, "torch's Tensor.bernoulli has no out (x.bernoulli(out=...) raises TypeError "
                                            "in torch 2.13.0)"),
        ),
        added=(_row("p", None, "removed", note="torch's x.bernoulli(p) overload; mindspore 2.7.0 and 2.10.0 take no p "
                                              "(x.bernoulli(0.5) and x.bernoulli(p=0.5) raise TypeError in 2.10.0)"),),
        note="correction: from MindSpore 2.7 Tensor.bernoulli(self, *, generator=None) takes no p or seed (2.0.0 had "
             "bernoulli(self, p=0.5, seed=None), as the doc says; no release between 2.0.0 and 2.7.0 was checked)",
        checked="signatures read in the mindspore 2.0.0, 2.7.0 and 2.10.0 sources; run on the CPU: torch 2.13.0 accepts "
                "x.bernoulli(0.5), x.bernoulli(p=0.5) and generator=, refuses out=; mindspore 2.10.0 refuses p and seed "
                "and accepts generator=",
        since="2.7",
    ),
    ("torch.nn.GRUCell", "r2.4.10"): ParameterCorrection(
        fixes=(ParameterFix("hidden", "hx", _row("hx", "hx", "same"),
                            "(input) torch's forward(input, hx) calls it hx, as MindSpore's construct(x, hx)"),),
        note="correction: the doc's torch input hidden is hx: torch.nn.GRUCell.forward(input, hx=None) in torch 2.13.0, "
             "mindspore.nn.GRUCell.construct(x, hx)",
        checked=f"torch.nn.GRUCell.forward signature read in torch 2.13.0; {_READ_IN}: "
                f"mindspore.nn.GRUCell.construct(self, x, hx) in all three",
    ),
    ("torch.nn.RNNCell", "r2.4.10"): ParameterCorrection(
        fixes=(ParameterFix("hidden", "hx", _row("hx", "hx", "same"),
                            "(input) torch's forward(input, hx) calls it hx, as MindSpore's construct(x, hx)"),),
        note="correction: the doc's torch input hidden is hx: torch.nn.RNNCell.forward(input, hx=None) in torch 2.13.0, "
             "mindspore.nn.RNNCell.construct(x, hx)",
        checked=f"torch.nn.RNNCell.forward signature read in torch 2.13.0; {_READ_IN}: "
                f"mindspore.nn.RNNCell.construct(self, x, hx) in all three",
    ),
    ("torch.nn.LocalResponseNorm", "r2.4.10"): ParameterCorrection(
        fixes=(ParameterFix("input", "x", _row("input", "input_x", "renamed"),
                            "(input) mindspore.nn.LRN.construct(self, input_x)"),),
        note="correction: the doc names mindspore.nn.LRN's input x; its construct(self, input_x) calls it input_x",
        checked=f"{_READ_IN}: mindspore.nn.LRN.construct(self, input_x) in all three",
    ),
    ("torch.nn.Sigmoid", "r2.4.10"): ParameterCorrection(
        fixes=(ParameterFix("input", "input_x", _row("input", "x", "renamed"),
                            "(input) mindspore.nn.Sigmoid.construct(self, x)"),),
        note="correction: the doc names mindspore.nn.Sigmoid's input input_x; its construct(self, x) calls it x",
        checked=f"{_READ_IN}: mindspore.nn.Sigmoid.construct(self, x) in all three; run in mindspore 2.10.0 on the CPU: "
                f"nn.Sigmoid()(x=t) works, input_x= raises TypeError",
    ),
    ("torch.nn.functional.adaptive_max_pool1d", "r2.4.10"): _same_name(
        "input", "x", "mindspore.ops.adaptive_max_pool1d", "mindspore.ops.adaptive_max_pool1d(input, output_size)"),
    ("torch.nn.functional.triplet_margin_loss", "r2.4.10"): _same_name(
        "anchor", "x", "mindspore.ops.triplet_margin_loss",
        "mindspore.ops.triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-06, swap=False, "
        "reduction='mean')"),
    ("torch.nn.functional.upsample", "r2.4.10"): _same_name(
        "input", "x", "mindspore.ops.upsample",
        "mindspore.ops.upsample(input, size=None, scale_factor=None, mode='nearest', align_corners=None, "
        "recompute_scale_factor=None)"),
    ("torch.randint_like", "master"): ParameterCorrection(
        fixes=(ParameterFix("low", "low", _row("low", "low", "position", source_default="0", target_default="0"),
                            "positional only in MindSpore: randint_like(*args, dtype=None, device=None); low defaults "
                            "to 0 as in torch"),),
        added=(_row("high", "high", "position", note="positional only in MindSpore: randint_like(*args, dtype=None, "
                                                     "device=None)"),),
        note="correction: from MindSpore 2.7 mint.randint_like(*args, dtype=None, device=None) takes low and high "
             "positionally only, and low defaults to 0 as in torch (randint_like(input, high) sets low=0); torch's "
             "low= and high= keywords are refused (2.5 and 2.6, which the doc describes, were not checked)",
        checked="randint_like_ext read in the mindspore 2.7.0 and 2.10.0 sources; run in mindspore 2.10.0 on the CPU: "
                "mint.randint_like(x, 10) and (x, 0, 10) work, low= and high= raise TypeError",
        since="2.7",
    ),
    **{(f"torch.optim.lr_scheduler.{name}", "r2.4.10"): _scheduler(name) for name in (
        "ConstantLR", "CosineAnnealingLR", "CosineAnnealingWarmRestarts", "ExponentialLR", "LRScheduler", "LambdaLR",
        "LinearLR", "MultiStepLR", "MultiplicativeLR", "PolynomialLR", "ReduceLROnPlateau", "SequentialLR", "StepLR")},
    ("torch.optim.lr_scheduler.CyclicLR", "r2.4.10"): ParameterCorrection(
        fixes=(ParameterFix("verbose", None, None, "torch 2.7 removed verbose"),),
        note=f"correction: {_VERBOSE_GONE}",
        checked="torch.optim.lr_scheduler.py read in the torch 2.6.0, 2.7.0 and 2.8.0 wheels; __init__ signatures of "
                "torch.optim.lr_scheduler.CyclicLR (torch 2.13.0) and mindspore.experimental.optim.lr_scheduler.CyclicLR "
                "(mindspore 2.10.0) read",
        since="2.7", side="source",
    ),
}

def _transformer_layer(name: str) -> ParameterCorrection:
    """The doc compares with torch 1.8.1, whose Transformer layers lacked the parameters it calls MindSpore-only."""
    gone = "torch 2.13.0's __init__ has it too"
    return ParameterCorrection(
        fixes=tuple(ParameterFix(None, parameter, None, gone)
                    for parameter in ("layer_norm_eps", "batch_first", "norm_first", "dtype")),
        added=(_row("bias", None, "removed", source_default="True",
                    note=f"torch's bias=True; mindspore.nn.{name}.__init__ has no bias (2.10.0), so bias=False has no "
                         f"counterpart"),),
        note=f"correction: the doc (written against torch 1.8.1) calls layer_norm_eps, batch_first, norm_first and "
             f"dtype MindSpore-only, but torch.nn.{name} takes all four (torch 2.13.0); torch's bias has no counterpart",
        checked=f"__init__ signatures of torch.nn.{name} (torch 2.13.0: d_model, nhead, dim_feedforward, dropout, "
                f"activation, layer_norm_eps, batch_first, norm_first, bias, device, dtype) and mindspore.nn.{name} "
                f"(mindspore 2.10.0: the same without bias and device) read",
    )


def _multihead_attention() -> ParameterCorrection:
    gone = "torch 2.13.0 has it too"
    return ParameterCorrection(
        fixes=(ParameterFix(None, "batch_first", None, gone), ParameterFix(None, "dtype", None, gone),
               ParameterFix(None, "average_attn_weights", None, f"(input) {gone}")),
        added=(_row("is_causal", None, "removed", source_default="False",
                    note="(input) torch's forward(..., is_causal=False); mindspore.nn.MultiheadAttention.construct has "
                         "no is_causal (2.10.0)"),),
        note="correction: the doc (written against torch 1.8.1) calls batch_first, dtype and average_attn_weights "
             "MindSpore-only, but torch.nn.MultiheadAttention takes all three (torch 2.13.0); torch's forward "
             "is_causal has no counterpart",
        checked="torch.nn.MultiheadAttention __init__ and forward (torch 2.13.0) and mindspore.nn.MultiheadAttention "
                "__init__ and construct (mindspore 2.10.0) signatures read",
    )


def _inplace_from_2_10(signature: str) -> ParameterCorrection:
    """mint layers and functions the doc (MindSpore 2.5/2.6) says lack inplace; mindspore 2.10.0 takes it."""
    return ParameterCorrection(
        fixes=(ParameterFix("inplace", None, _row("inplace", "inplace", "same", source_default="False",
                                                  target_default="False"),
                            f"mindspore 2.10.0: {signature}; the in-place form has no CPU kernel, so it was not run"),),
        note=f"correction: from mindspore 2.10.0 (the first release checked) {signature} takes inplace, which the doc "
             f"calls torch-only; still unsafe: the in-place form was not run (no CPU kernel)",
        checked=f"signature of mindspore.{signature.split('(')[0]} read in mindspore 2.10.0",
        since="2.10",
    )


_TRIPLET_POSITIONS = ParameterCorrection(
    fixes=(ParameterFix("margin", None, None, "mindspore 2.10.0 takes margin third, as torch"),
           ParameterFix(None, "margin", None, "mindspore 2.10.0 takes margin third, as torch"),
           ParameterFix("eps", "swap", None, "eps and swap are in torch's order in mindspore 2.10.0"),
           ParameterFix("swap", "eps", None, "eps and swap are in torch's order in mindspore 2.10.0")),
    note="correction: from mindspore 2.10.0 (the first release checked) triplet_margin_loss(anchor, positive, "
         "negative, margin=1.0, p=2, eps=1e-06, swap=False, reduction='mean') takes margin, eps and swap in torch's "
         "positions; only torch's deprecated size_average and reduce are left",
    checked="signatures of torch.nn.functional.triplet_margin_loss (torch 2.13.0) and mindspore.ops.triplet_margin_loss "
            "(mindspore 2.10.0) read; no CPU kernel in mindspore 2.10.0 (Unsupported op [TripletMarginLoss] on CPU)",
    since="2.10",
)

_CORRECTED_ROWS.update({
    # A scan of every parameter row against the installed signatures after the hand checks: rows calling a
    # parameter MindSpore-only that torch 2.13.0 takes too, or torch-only that mindspore 2.10.0 takes too.
    ("torch.nn.Transformer", "r2.4.10"): _transformer_layer("Transformer"),
    ("torch.distributed.new_group", "master"): ParameterCorrection(
        fixes=(ParameterFix(None, "group_desc", _row("group_desc", "group_desc", "same", source_default="None",
                                                     target_default="None"),
                            "torch 2.13.0's new_group takes group_desc too"),),
        note="correction: the doc calls group_desc MindSpore-only; torch.distributed.new_group has it too",
        checked="signatures of torch.distributed.new_group (torch 2.13.0) and mindspore.mint.distributed.new_group "
                "(mindspore 2.10.0) read: both end with group_desc=None",
    ),
    ("torch.nn.utils.clip_grad_norm_", "r2.4.10"): ParameterCorrection(
        fixes=(ParameterFix(None, "error_if_nonfinite", _row("error_if_nonfinite", "error_if_nonfinite", "same",
                                                             source_default="False", target_default="False"),
                            "torch 2.13.0's clip_grad_norm_ takes error_if_nonfinite too"),),
        note="correction: the doc calls error_if_nonfinite MindSpore-only; torch's clip_grad_norm_ has it too",
        checked="signatures of torch.nn.utils.clip_grad_norm_ (torch 2.13.0) and mindspore.ops.clip_by_norm "
                "(mindspore 2.10.0) read",
    ),
    ("torch.utils.data.DataLoader", "master"): ParameterCorrection(
        fixes=(ParameterFix("batch_sampler", None, _row("batch_sampler", "batch_sampler", "same", source_default="None",
                                                        target_default="None"),
                            "GeneratorDataset(..., batch_sampler=None, collate_fn=None) in mindspore 2.10.0"),
               ParameterFix("collate_fn", None, _row("collate_fn", "collate_fn", "meaning", source_default="None",
                                                     target_default="None"),
                            "MindSpore applies collate_fn only with batch_sampler (GeneratorDataset docstring, 2.10.0); "
                            "torch's merges the batch_size batches too (else use Dataset.batch(per_batch_map=...))")),
        note="correction: from mindspore 2.10.0 (the first release checked) GeneratorDataset takes batch_sampler and "
             "collate_fn; collate_fn only together with batch_sampler",
        checked="mindspore.dataset.GeneratorDataset.__init__ signature and docstring read in mindspore 2.10.0",
        since="2.10",
    ),
    **{(f"torch.nn.{name}", "master"): _inplace_from_2_10(target) for name, target in (
        ("Dropout2d", "mint.nn.Dropout2d(p=0.5, inplace=False)"), ("ELU", "mint.nn.ELU(alpha=1.0, inplace=False)"),
        ("functional.dropout2d", "mint.nn.functional.dropout2d(input, p=0.5, training=True, inplace=False)"),
        ("functional.elu", "mint.nn.functional.elu(input, alpha=1.0, inplace=False)"),
        ("functional.silu", "mint.nn.functional.silu(input, inplace=False)"))},
    ("torch.nn.MultiheadAttention", "r2.4.10"): _multihead_attention(),
    ("torch.nn.TransformerEncoderLayer", "r2.4.10"): _transformer_layer("TransformerEncoderLayer"),
    ("torch.nn.TransformerDecoderLayer", "r2.4.10"): _transformer_layer("TransformerDecoderLayer"),
    ("torch.polygamma", "r2.4.10"): ParameterCorrection(
        fixes=(),
        added=(_row("n", "n", "type", note="torch takes an int; mindspore.ops.polygamma(n, input) takes a Tensor: "
                                           "ops.polygamma(1, x) raises TypeError, ops.polygamma(Tensor(1), x) runs"),),
        note="correction: mindspore.ops.polygamma takes n as a Tensor (an int raises TypeError in mindspore 2.10.0)",
        checked="run on the CPU: torch.polygamma(1, x) and mindspore.ops.polygamma(Tensor(1), x) agree on x = 1, 2, 3 "
                "(torch 2.13.0, mindspore 2.10.0); ops.polygamma(1, x) raises TypeError",
    ),
})

# Corrected in every range, before any split: torch's CyclicLR has never had `momentum`; the doc's "momentum related
# input params" are the three momentum parameters mindspore.experimental.optim.lr_scheduler.CyclicLR lacks.
CYCLIC_MOMENTUM = ParameterCorrection(
    fixes=(ParameterFix("momentum", None, None, "torch's CyclicLR has no momentum parameter"),),
    added=_CYCLIC_ROWS,
    note="correction: the doc's momentum is CyclicLR's cycle_momentum, base_momentum and max_momentum, which "
         "mindspore.experimental.optim.lr_scheduler.CyclicLR lacks",
    checked="__init__ signatures of torch.optim.lr_scheduler.CyclicLR (torch 2.13.0) and "
            "mindspore.experimental.optim.lr_scheduler.CyclicLR (mindspore 2.10.0) read",
)

# (api, branch) → the corrections of its parameter rows, applied in order; at most one has `since` (it splits the
# entry in two, and the ones before it apply to both halves).
PARAMETER_CORRECTIONS: dict[tuple[str, str], tuple[ParameterCorrection, ...]] = {
    key: (correction,) for key, correction in _CORRECTED_ROWS.items()}
PARAMETER_CORRECTIONS[("torch.nn.functional.triplet_margin_loss", "r2.4.10")] = (
    _CORRECTED_ROWS[("torch.nn.functional.triplet_margin_loss", "r2.4.10")], _TRIPLET_POSITIONS)
PARAMETER_CORRECTIONS[("torch.distributed.gather", "master")] = (ParameterCorrection(
    fixes=(),
    added=(_row("gather_list", "gather_list", "default", source_default="None", target_default="(required)"),
           _row("dst", "dst", "default", source_default="None", target_default="0")),
    note="correction: gather_list has no default in mindspore.mint.distributed.gather and dst defaults to 0",
    checked="signatures of torch.distributed.gather (torch 2.13.0) and mindspore.mint.distributed.gather "
            "(mindspore 2.10.0) read",
),)
PARAMETER_CORRECTIONS[("torch.distributed.scatter_object_list", "master")] = (ParameterCorrection(
    fixes=(),
    added=(_row("scatter_object_input_list", "scatter_object_input_list", "default", source_default="None",
                target_default="(required)"),
           _row("src", "src", "default", source_default="None", target_default="0"),
           _row("group_src", None, "removed", source_default="None")),
    note="correction: scatter_object_input_list has no default in mindspore.mint.distributed.scatter_object_list, src "
         "defaults to 0, and group_src has no counterpart",
    checked="signatures of torch.distributed.scatter_object_list (torch 2.13.0) and "
            "mindspore.mint.distributed.scatter_object_list (mindspore 2.10.0) read",
),)
PARAMETER_CORRECTIONS[("torch.vander", "r2.4.10")] = (ParameterCorrection(
    fixes=(),
    added=(_row("increasing", None, "removed", source_default="False",
                note="mindspore.ops.vander(x, N=None) has no increasing (2.10.0)"),),
    note="correction: torch's increasing has no counterpart in mindspore.ops.vander",
    checked="signatures of torch.vander (torch 2.13.0) and mindspore.ops.vander (mindspore 2.10.0) read; run on the CPU",
),)
# The third hand check: the doc's notes of AmplitudeToDB's ref_value and amin are swapped. torchaudio's AmplitudeToDB
# clamps at amin = 1e-10 and uses ref_value = 1.0 internally, the defaults mindspore.dataset.audio.AmplitudeToDB(stype,
# ref_value=1.0, amin=1e-10, top_db=80.0) gives them (signature read in mindspore 2.10.0).
_AMPLITUDE_TO_DB = ParameterCorrection(
    fixes=(ParameterFix(None, "ref_value", _row(None, "ref_value", "added", target_default="1.0"),
                        "reference value for db_multiplier = log10(max(ref_value, amin)); torchaudio uses 1.0 internally"),
           ParameterFix(None, "amin", _row(None, "amin", "added", target_default="1e-10"),
                        "lower bound the input is clamped to; torchaudio uses 1e-10 internally")),
    note="correction: the doc's notes of ref_value and amin are swapped (torchaudio uses ref_value 1.0 and amin 1e-10 "
         "internally, MindSpore's defaults)",
    checked="mindspore.dataset.audio.AmplitudeToDB signature read in mindspore 2.10.0; torchaudio 2.11.1's "
            "transforms/_transforms.py read in its PyPI wheel (not installed): self.amin = 1e-10, self.ref_value = 1.0",
)
PARAMETER_CORRECTIONS[("torchaudio.transforms.AmplitudeToDB", "master")] = (_AMPLITUDE_TO_DB,)
PARAMETER_CORRECTIONS[("torchaudio.transforms.AmplitudeToDB", "r2.4.10")] = (_AMPLITUDE_TO_DB,)

# The minors the third hand check left (mappings/verification/hand_check_3.yaml), each run in torch 2.13.0 and mindspore
# 2.10.0 on the CPU. amax/amin: torch's dim has a default (Tensor.amin(dim=None); x.amin() reduces every dimension).
_DIM_HAS_A_DEFAULT = ParameterCorrection(
    fixes=(ParameterFix("dim", "axis", _row("dim", "axis", "renamed", source_default="None", target_default="None"),
                        "both reduce every dimension by default: torch's x.amin() and MindSpore's x.amin() agree"),),
    note="correction: torch's dim has a default too",
    checked="run on the CPU: x.amin(), x.amax() agree with no argument (torch 2.13.0: amin(dim=None, keepdim=False))",
)
for _reduction in ("amax", "amin"):
    PARAMETER_CORRECTIONS[(f"torch.Tensor.{_reduction}", "r2.4.10")] += (_DIM_HAS_A_DEFAULT,)
for _optimizer in ("NAdam", "RAdam"):
    PARAMETER_CORRECTIONS[(f"torch.optim.{_optimizer}", "r2.4.10")] = (ParameterCorrection(
        fixes=(),
        added=(_row("decoupled_weight_decay", None, "removed", source_default="False"),
               _row("maximize", None, "removed", source_default="False")),
        note=f"correction: mindspore.experimental.optim.{_optimizer} has no decoupled_weight_decay and no maximize",
        checked=f"__init__ signatures of torch.optim.{_optimizer} (torch 2.13.0) and "
                f"mindspore.experimental.optim.{_optimizer} (mindspore 2.10.0) read",
    ),)
PARAMETER_CORRECTIONS[("torch.optim.lr_scheduler.CyclicLR", "r2.4.10")] = (
    CYCLIC_MOMENTUM, _CORRECTED_ROWS[("torch.optim.lr_scheduler.CyclicLR", "r2.4.10")])

# The TensorFlow table (r2.1 docs, MindSpore 2.1), keyed by the real TensorFlow name.
TENSORFLOW_PARAMETER_CORRECTIONS: dict[str, ParameterCorrection] = {
    "tensorflow.math.argmax": ParameterCorrection(
        fixes=(
            ParameterFix("input", "x", _row("input", "input", "meaning", source_default="(required)",
                                            target_default="(required)"),
                         "(input) both are input tensors; TensorFlow also takes a numpy.ndarray"),
            ParameterFix("axis", "axis", _row("axis", "dim", "renamed", source_default="None", target_default="None"),
                         "mindspore.ops.argmax(input, dim=None, keepdim=False) calls it dim"),
            ParameterFix(None, "keepdims", _row(None, "keepdim", "added", target_default="False"),
                         "mindspore.ops.argmax calls it keepdim"),
        ),
        note="correction: mindspore.ops.argmax(input, dim=None, keepdim=False) names its parameters input, dim and "
             "keepdim, not x, axis and keepdims",
        checked=f"{_READ_IN}: mindspore.ops.argmax(input, dim=None, keepdim=False) in all three; run in mindspore "
                f"2.10.0 on the CPU: argmax(input=t, dim=1, keepdim=True) works, axis= raises TypeError",
    ),
    "tensorflow.nn.dropout": ParameterCorrection(
        fixes=(
            ParameterFix("seed", "seed0", _row("seed", "seed", "same", source_default="None", target_default="None"),
                         "mindspore.ops.dropout(input, p=0.5, training=True, seed=None)"),
            ParameterFix(None, "seed1", None, "mindspore.ops.dropout has no seed1"),
        ),
        note="correction: mindspore.ops.dropout(input, p=0.5, training=True, seed=None) has one seed, not seed0 and seed1",
        checked=f"{_READ_IN}: mindspore.ops.dropout(input, p=0.5, training=True, seed=None) in all three; run in "
                f"mindspore 2.10.0 on the CPU: dropout(t, p=0.5, seed=1) works, seed0= raises TypeError",
    ),
    "tensorflow.nn.relu": ParameterCorrection(
        fixes=(ParameterFix("features", "x", _row("features", "input", "renamed", source_default="(required)"),
                            "(input) mindspore.nn.ReLU.construct(self, input) from 2.7"),),
        note="correction: from MindSpore 2.7 mindspore.nn.ReLU.construct(self, input) calls the input input (2.0.0 had "
             "construct(self, x), as the doc says; no release between 2.0.0 and 2.7.0 was checked)",
        checked="mindspore.nn.ReLU.construct read in the mindspore 2.0.0 (x), 2.7.0 and 2.10.0 (input) sources; run in "
                "mindspore 2.10.0 on the CPU: nn.ReLU()(input=t) works, x= raises TypeError",
        since="2.7",
    ),
    "tensorflow.nn.softmax": ParameterCorrection(
        fixes=(ParameterFix("logits", "x", _row("logits", "input", "renamed", source_default="(required)"),
                            "(input) mindspore.nn.Softmax.construct(self, input) from 2.7"),),
        note="correction: from MindSpore 2.7 mindspore.nn.Softmax.construct(self, input) calls the input input (2.0.0 "
             "had construct(self, x), as the doc says; no release between 2.0.0 and 2.7.0 was checked)",
        checked="mindspore.nn.Softmax.construct read in the mindspore 2.0.0 (x), 2.7.0 and 2.10.0 (input) sources",
        since="2.7",
    ),
    "tensorflow.keras.backend.dot": ParameterCorrection(
        fixes=(
            ParameterFix("x", "x1", _row("x", "input", "renamed", source_default="(required)", target_default="(required)"),
                         "mindspore.ops.dot(input, other)"),
            ParameterFix("y", "x2", _row("y", "other", "renamed", source_default="(required)", target_default="(required)"),
                         "mindspore.ops.dot(input, other)"),
        ),
        note="correction: mindspore.ops.dot(input, other) names its parameters input and other, not x1 and x2",
        checked=f"{_READ_IN}: mindspore.ops.dot(input, other) in all three; run in mindspore 2.10.0 on the CPU: "
                f"ops.dot(input=a, other=b) works",
    ),
}


# (api, branch) → a sentence the doc's entry lacks, found by the hand checks (run in torch 2.13.0 and mindspore 2.10.0 on
# the CPU); the category and fix stay as they are. torch's max, min, median (with dim) and topk return a named result,
# MindSpore's the plain tuple (values, indices): unpacking and [0] work, .values and .indices raise AttributeError.
_PLAIN_PAIR = ("{call} returns the plain tuple (values, indices) in MindSpore ({how}), where torch's has .values and "
               ".indices: unpack it or index it")
ADDED_NOTES = {
    ("torch.max", "master"): _PLAIN_PAIR.format(call="mint.max(x, dim)", how="run"),
    ("torch.min", "master"): _PLAIN_PAIR.format(call="mint.min(x, dim)", how="run"),
    ("torch.Tensor.max", "master"): _PLAIN_PAIR.format(call="x.max(dim)", how="run"),
    ("torch.Tensor.min", "master"): _PLAIN_PAIR.format(call="x.min(dim)", how="run"),
    ("torch.Tensor.median", "r2.4.10"): _PLAIN_PAIR.format(call="x.median(axis)", how="run"),
    ("torch.median", "master"): _PLAIN_PAIR.format(call="mint.median(x, dim)", how="docstring; no CPU kernel"),
    ("torch.Tensor.topk", "master"): _PLAIN_PAIR.format(call="x.topk(k)", how="run"),
    ("torch.topk", "master"): _PLAIN_PAIR.format(call="mint.topk(x, k)", how="docstring; no CPU kernel"),
    ("torch.logspace", "r2.4.10"): ("integer start and end, torch's common logspace(0, 2, 3), raise TypeError in "
                                    "ops.logspace (LogSpace wants tensors of one type): pass floats"),
    ("torchaudio.transforms.Vad", "master"): ("mindspore.dataset.audio.Vad takes torchaudio's parameters and defaults, "
                                              "but is a dataset transform on numpy arrays (eagerly or in .map), not a "
                                              "module on tensors"),
}

# (api, branch) → parameter rows for entries that stay ms-equivalent: a rarely used form of the torch call the target
# refuses. The fix stays unsafe (the form is not exercised); other calls are a plain rename.
EQUIVALENT_ROWS = {
    ("torch.bernoulli", "master"): (
        _row("p", None, "removed", position=1,  # torch.bernoulli(x, 0.3) passes p by position
             note="correction: torch's bernoulli(input, p) overload; mindspore.mint.bernoulli("
                  "input, *, generator=None) takes no p (bernoulli(x, 0.0) raises TypeError in "
                  "mindspore 2.10.0)"),),
    ("torch.nn.SELU", "master"): (
        _row("inplace", None, "removed", source_default="False",
             note="correction: mindspore.mint.nn.SELU() refuses inplace= (TypeError in mindspore 2.10.0); SELU(True) is "
                  "accepted and ignored"),),
}

# The signature scan's leads on entries called equivalent, re-judged by running both sides (torch 2.13.0, mindspore
# 2.10.0 on the CPU); docs/knowledge-base-verification.md says why the others stand.
# randint stays ms-equivalent (the positional call, the usual form, is a rename) with rows for the keywords MindSpore
# refuses, so a call that passes none is not warned about; a `position` row keeps the fix unsafe (numeric.exercised).
EQUIVALENT_ROWS[("torch.randint", "master")] = tuple(
    _row(name, name, "position", note=f"correction: positional only in mindspore.mint.randint: {name}= raises TypeError "
                                      f"(run in mindspore 2.10.0)")
    for name in ("low", "high", "size"))
ADDED_NOTES[("torch.randint", "master")] = (
    "mint.randint takes low, high and size by position only: torch.randint(0, 10, size=(3,)) and low=/high= keywords "
    "raise TypeError after a rename (run in mindspore 2.10.0; the docstring's randint(low=0, high, size) suggests "
    "keywords it refuses)")
_INDICES_OR_SECTIONS = tuple(
    _row(name, "indices_or_sections", "renamed", note=f"correction: torch's overload keyword {name}=; MindSpore's one "
                                                      f"parameter is indices_or_sections ({name}= raises TypeError)")
    for name in ("sections", "indices"))
EQUIVALENT_ROWS.update({
    ("torch.hsplit", "r2.4.10"): _INDICES_OR_SECTIONS,
    ("torch.vsplit", "r2.4.10"): _INDICES_OR_SECTIONS,
    ("torch.dot", "master"): (
        _row("tensor", "other", "renamed", note="correction: torch.dot(input, tensor) takes tensor= (run in torch "
                                                "2.13.0); mindspore.mint.dot(input, other)"),),
    ("torch.set_rng_state", "r2.4.10"): (
        _row("new_state", "state", "renamed", note="correction: torch.set_rng_state(new_state) takes new_state= (run "
                                                   "in torch 2.13.0); mindspore.set_rng_state(state)"),),
})

# Found by the fourth hand check (mappings/verification/hand_check_4.yaml), run in torch 2.13.0 and mindspore 2.10.0 on
# the CPU.
NOT_A_RENAME.update({
    ("torch.nn.functional.ctc_loss", "r2.4.10"): (
        "correction: the doc calls this consistent, but mindspore.ops.ctc_loss returns a tuple (loss, log_alpha) where "
        "torch returns the loss: loss = ctc_loss(...) then loss.backward() or loss.item() breaks after a rename; take "
        "[0] (the losses agree when run, 2.2479 on the same inputs)"),
    ("torch.special.round", "master"): (
        "correction: the doc calls this consistent, but mindspore.mint.special.round(input) has no decimals: "
        "torch.special.round(x, decimals=1) raises TypeError after a rename (run; round(x) agrees)"),
    **{("torchaudio.transforms.Fade", branch): (
        "correction: the doc calls this consistent, but mindspore.dataset.audio.Fade takes fade_shape as a FadeShape "
        "(FadeShape.LINEAR), not torchaudio's string: Fade(fade_shape='linear') raises TypeError in mindspore 2.10.0; it "
        "is a dataset transform run on numpy arrays (eagerly or in .map), not a module on tensors")
       for branch in ("master", "r2.4.10")},
})
PARAMETER_CORRECTIONS[("torch.special.round", "master")] = (ParameterCorrection(
    fixes=(),
    added=(_row("decimals", None, "removed", source_default="0",
                note="mindspore.mint.special.round(input) has no decimals (2.10.0)"),),
    note="correction: torch's decimals has no counterpart in mindspore.mint.special.round",
    checked="run on the CPU: torch.special.round(x, decimals=1) (torch 2.13.0); mint.special.round(x, decimals=1) raises "
            "TypeError and mint.round(x, decimals=1) refuses decimals other than 0 (mindspore 2.10.0)",
),)
_FRESH_CELL = ("a fresh MindSpore Cell is not in training mode (mint.nn.{name}(3).training is False, torch's True: run): "
               "without set_train() on the network it normalises with the running statistics")
ADDED_NOTES.update({
    ("torch.Tensor.scatter_", "r2.4.10"): (
        "ops.tensor_scatter_elements returns a new tensor and leaves x unchanged (run): assign the result; mindspore "
        "2.10.0 also has Tensor.scatter_(dim, index, src), in place, with no CPU kernel"),
    ("torch.nn.BatchNorm2d", "master"): _FRESH_CELL.format(name="BatchNorm2d"),
    ("torch.nn.BatchNorm3d", "master"): _FRESH_CELL.format(name="BatchNorm3d"),
})
for _extreme, _elementwise in (("max", "maximum"), ("min", "minimum")):
    ADDED_NOTES[(f"torch.Tensor.{_extreme}", "master")] += (
        f"; torch's elementwise overload x.{_extreme}(y) raises TypeError (use mint.{_elementwise})")
EQUIVALENT_ROWS[("torch.nn.RReLU", "r2.4.10")] = (
    _row("inplace", None, "removed", source_default="False",
         note="correction: mindspore.nn.RReLU(lower=0.125, upper=1/3) has no inplace (RReLU(inplace=False) raises "
              "TypeError in mindspore 2.10.0)"),)

# Found by the fifth hand check (mappings/verification/hand_check_5.yaml), run in torch 2.13.0 and mindspore 2.10.0 on
# the CPU (torchvision 0.28.0's transforms read from its wheel: torchvision is not installed there).
_ATTRIBUTE_NOT_METHOD = ("correction: torch's x.{name} is an attribute (a tensor), mindspore.Tensor.{name} a method (run in "
                         "mindspore 2.10.0: x.{name} gives a bound method): write x.{name}()")
_GAUSSIAN_BLUR = ("correction: the doc calls this consistent, but torchvision's GaussianBlur(k, sigma=(0.1, 2.0)) draws "
                  "sigma from (min, max) on every call; mindspore.dataset.vision.GaussianBlur(k, sigma=None) blurs with "
                  "one fixed sigma and reads a pair as (sigma_x, sigma_y) (run in mindspore 2.10.0): GaussianBlur(5) is "
                  "no longer a random augmentation")
_RESIZE = ("correction: the doc calls this consistent, but torchvision's Resize antialiases (antialias=True) and "
           "mindspore.dataset.vision.Resize does not: shrinking 64 to 16 differs by 24/255 on average on a noise image "
           "(run in mindspore 2.10.0); interpolation is an Inter, not an InterpolationMode (TypeError); no max_size")
NOT_A_RENAME.update({
    ("torch.Tensor.cummax", "r2.4.10"): (
        "correction: besides the parameter names, torch returns a named result (.values, .indices) and "
        "mindspore.Tensor.cummax a plain tuple (run in mindspore 2.10.0 on the CPU): x.cummax(dim=1).values breaks "
        "after the dim → axis rename; unpack or index the result instead (the values and int64 indices agree)"),
    ("torch.Tensor.real", "r2.4.10"): _ATTRIBUTE_NOT_METHOD.format(name="real"),
    ("torch.Tensor.imag", "r2.4.10"): _ATTRIBUTE_NOT_METHOD.format(name="imag"),
    ("torch.signbit", "r2.4.10"): (
        "correction: the doc calls this consistent, but mindspore.ops.signbit computes input < 0 (its docstring; run in "
        "mindspore 2.10.0 on the CPU): signbit(-0.0) and signbit(-nan) are False where torch reads the sign bit (True), "
        "e.g. after rounding -0.3; other inputs agree"),
    ("torch.Tensor.signbit", "r2.4.10"): (
        "correction: the doc calls this consistent, but mindspore.Tensor.signbit computes x < 0 (run in mindspore "
        "2.10.0 on the CPU): x.signbit() of -0.0 and -nan is False where torch reads the sign bit (True); other inputs "
        "agree"),
    **{("torchvision.transforms.GaussianBlur", branch): _GAUSSIAN_BLUR for branch in ("master", "r2.4.10")},
    **{("torchvision.transforms.Resize", branch): _RESIZE for branch in ("master", "r2.4.10")},
})
_BORDER = ("fill is fill_value and padding_mode a Border (Border.REFLECT), not torchvision's string: Pad(2, "
           "padding_mode='reflect') and Pad(2, fill=1) raise TypeError (run in mindspore 2.10.0)")
ADDED_NOTES.update({
    ("torch.range", "r2.4.10"): ("torch.range includes end (torch.range(0, 4) has 5 elements) and ops.range excludes it, "
                                 "as torch.arange does (ops.range(0, 4, 1) has 4; run): pass end + step to keep the last "
                                 "element"),
    ("torch.Tensor.cummin", "r2.4.10"): _PLAIN_PAIR.format(call="x.cummin(axis)", how="run"),
    ("torch.Tensor.narrow", "r2.4.10"): ("A negative start (torch counts it from the end) or a tensor start raises in "
                                         "mindspore.Tensor.narrow (run: x.narrow(0, -1, 1) raises ValueError)"),
    ("torch.igammac", "r2.4.10"): "igammac(0, x) is 0 in torch and NaN in MindSpore too (run)",
    ("torch.nn.HingeEmbeddingLoss", "r2.4.10"): ("With targets of 1 and -1, the loss's domain, it agrees (margin=0.5, "
                                                 "reduction='none' and 'sum' run); the run below used other targets"),
    ("torchvision.transforms.Pad", "master"): _BORDER,
    ("torchvision.transforms.Pad", "r2.4.10"): _BORDER,
})
FALSE_DIFFERENCES.update({
    ("torch.Tensor.inner", "r2.4.10"): (
        "correction: the doc says the parameter names differ, but mindspore.Tensor.inner(other) takes torch's name: "
        "x.inner(other=y) on float32 and x.inner(y) on int64 run in mindspore 2.10.0 on the CPU and agree with torch"),
    ("torch.isnan", "r2.4.10"): (
        "correction: the doc says the parameter names differ, but mindspore.ops.isnan(input) takes torch's name: "
        "isnan(input=x) and isnan of an int64 tensor run in mindspore 2.10.0 on the CPU and agree with torch"),
})
EQUIVALENT_ROWS.update({
    ("torch.Tensor.sum_to_size", "r2.4.10"): (
        _row("size", "size", "position", note="correction: torch's x.sum_to_size(size=(2, 1)); "
                                              "mindspore.Tensor.sum_to_size(*size) refuses size= (TypeError in mindspore "
                                              "2.10.0)"),),
    ("torch.scatter", "master"): (
        _row("value", "value", "position",
             note="correction: torch.scatter(x, dim, index, value=5.0); mindspore.mint.scatter takes the value by "
                  "position only (value= raises TypeError in mindspore 2.10.0)"),
        _row("reduce", None, "removed",
             note="correction: mindspore.mint.scatter(input, dim, index, src) has no reduce (reduce='add' raises "
                  "TypeError in mindspore 2.10.0)")),
    ("torch.Tensor.scatter", "master"): (
        _row("value", "value", "position",
             note="correction: torch's x.scatter(dim, index, value=5.0); mindspore.Tensor.scatter takes the value by "
                  "position only (value= raises TypeError in mindspore 2.10.0; reduce= is accepted)"),),
})

# torchtext 0.18.0's source (read from its wheel): a tuple split returns one datapipe per split; mindspore 2.10.0's usage
# takes one string (a tuple raises TypeError, run) and None reads every split into one dataset.
_SPLITS = ("torchtext's default split={default} gives one datapipe per split; usage takes one string ('train', {other} "
           "or 'all'; a tuple raises TypeError, run) and None reads all splits as one dataset")
for _dataset, _default, _other in (("DBpedia", "('train', 'test')", "'test'"), ("SQuAD1", "('train', 'dev')", "'dev'"),
                                   ("YahooAnswers", "('train', 'test')", "'test'"),
                                   ("YelpReviewPolarity", "('train', 'test')", "'test'")):
    for _branch in ("master", "r2.4.10"):
        ADDED_NOTES[(f"torchtext.datasets.{_dataset}", _branch)] = _SPLITS.format(default=_default, other=_other)
# The sweeps after the fourth hand check (issue 16), across every entry instead of a sample.
# tools/transform_enums.py: constructor parameters of mindspore.dataset.vision/audio transforms typed as an enum of
# mindspore.dataset (Inter, Border, FadeShape, WindowType, ...) where torchvision takes its own InterpolationMode and
# torchaudio a string or a window function. Each was run in mindspore 2.10.0: the constructor with torch's value raises
# TypeError ("Argument interpolation with value InterpolationMode.BICUBIC is not of type [<enum 'Inter'>]"). A `type`
# row says so; a fix on such an entry is never safe, and a call passing the parameter gets MS102 (names.py).
# (source, target, enum, torch default, MindSpore default, the torch value run, the doc row it replaces or None)
_ENUM_TYPED = {
    "torchaudio.transforms.AmplitudeToDB": (("stype", "stype", "ScaleType", "'power'", "ScaleType.POWER", "'power'",
                                              ("stype", "stype")),),
    "torchaudio.transforms.Fade": (("fade_shape", "fade_shape", "FadeShape", "'linear'", "FadeShape.LINEAR", "'linear'",
                                     None),),
    "torchaudio.transforms.GriffinLim": (("window_fn", "window_type", "WindowType", "torch.hann_window",
                                           "WindowType.HANN", "torch.hann_window", ("window_fn", "window_type")),),
    "torchaudio.transforms.InverseMelScale": (("norm", "norm", "NormType", "None", "NormType.NONE", "'slaney'",
                                                ("norm", "norm")),),
    "torchaudio.transforms.MFCC": (("norm", "norm", "NormMode", "'ortho'", "NormMode.ORTHO", "'ortho'", None),),
    "torchaudio.transforms.MelScale": (("norm", "norm", "NormType", "None", "NormType.NONE", "'slaney'",
                                         ("norm", "norm")),),
    "torchaudio.transforms.MelSpectrogram": (
        ("window_fn", "window", "WindowType", "torch.hann_window", "WindowType.HANN", "torch.hann_window",
         ("window_fn", "window")),
        ("pad_mode", "pad_mode", "BorderType", "'reflect'", "BorderType.REFLECT", "'reflect'", None),
        ("norm", "norm", "NormType", "None", "NormType.NONE", "'slaney'", None),
        # the doc calls mel_scale MindSpore's own; torchaudio's MelSpectrogram has mel_scale='htk' too
        ("mel_scale", "mel_scale", "MelType", "'htk'", "MelType.HTK", "'htk'", (None, "mel_scale"))),
    "torchaudio.transforms.Resample": (("resampling_method", "resample_method", "ResampleMethod", "'sinc_interp_hann'",
                                         "ResampleMethod.SINC_INTERPOLATION", "'sinc_interp_hann'",
                                         ("resampling_method", "resample_method")),),
    "torchaudio.transforms.SpectralCentroid": (("window_fn", "window", "WindowType", "torch.hann_window",
                                                 "WindowType.HANN", "torch.hann_window", ("window_fn", "window")),),
    "torchaudio.transforms.Spectrogram": (
        ("window_fn", "window", "WindowType", "torch.hann_window", "WindowType.HANN", "torch.hann_window",
         ("window_fn", "window")),
        ("pad_mode", "pad_mode", "BorderType", "'reflect'", "BorderType.REFLECT", "'reflect'", None)),
    "torchvision.transforms.Resize": (("interpolation", "interpolation", "Inter", "InterpolationMode.BILINEAR",
                                       "Inter.BILINEAR", "InterpolationMode.BICUBIC", None),),
    "torchvision.transforms.Pad": (("padding_mode", "padding_mode", "Border", "'constant'", "Border.CONSTANT",
                                     "'reflect'", None),),
    "torchvision.transforms.RandomCrop": (("padding_mode", "padding_mode", "Border", "'constant'", "Border.CONSTANT",
                                            "'reflect'", None),),
    "torchvision.transforms.RandomAffine": (("interpolation", "resample", "Inter", "InterpolationMode.NEAREST",
                                              "Inter.NEAREST", "InterpolationMode.BILINEAR",
                                              ("interpolation", "resample")),),
    "torchvision.transforms.RandomPerspective": (("interpolation", "interpolation", "Inter",
                                                   "InterpolationMode.BILINEAR", "Inter.BICUBIC",
                                                   "InterpolationMode.BILINEAR", ("interpolation", "interpolation")),),
    "torchvision.transforms.RandomResizedCrop": (("interpolation", "interpolation", "Inter",
                                                   "InterpolationMode.BILINEAR", "Inter.BILINEAR",
                                                   "InterpolationMode.BICUBIC", ("interpolation", "interpolation")),),
    "torchvision.transforms.RandomRotation": (("interpolation", "resample", "Inter", "InterpolationMode.NEAREST",
                                                "Inter.NEAREST", "InterpolationMode.BILINEAR",
                                                ("interpolation", "resample")),),
}
# Entries called equivalent: the usual call (Resize(224), Vol(0.5)) is a rename; the parameter gets a `type` row with
# its position in torch's constructor (Resize(size, interpolation, ...), Vol(gain, gain_type)).
_ENUM_TYPED_EQUIVALENT = {
    "torchaudio.transforms.Vol": (("gain_type", "gain_type", "GainType", "'amplitude'", "GainType.AMPLITUDE", "'db'",
                                   None),),
}


def _article(word: str) -> str:
    return "an" if word[0] in "AEIOU" else "a"


def _enum_reason(target: str, enum_name: str, target_default: str, ran: str) -> str:
    return (f"MindSpore's {target} is {_article(enum_name)} {enum_name} ({target_default}): {target}={ran}, torch's kind "
            f"of value, raises TypeError (run in mindspore 2.10.0); pass the {enum_name} member")


def _enum_row(source: str, target: str, enum_name: str, torch_default: str, target_default: str, ran: str) -> dict:
    return _row(source, target, "type", source_default=torch_default, target_default=target_default,
                note=_enum_reason(target, enum_name, target_default, ran))


for _api, _parameters in _ENUM_TYPED.items():
    _enum_correction = ParameterCorrection(
        # a replaced row carries its reason as its note (parameter_corrections.corrected_rows)
        fixes=tuple(ParameterFix(*replaced, _row(source, target, "type", source_default=torch_default,
                                                 target_default=target_default),
                                 _enum_reason(target, enum_name, target_default, ran))
                    for source, target, enum_name, torch_default, target_default, ran, replaced in _parameters
                    if replaced is not None),
        added=tuple(_enum_row(*parameter[:6]) for parameter in _parameters if parameter[6] is None),
        note="correction: MindSpore's " + ", ".join(f"{parameter[1]} is {_article(parameter[2])} {parameter[2]}"
                                                   for parameter in _parameters),
        checked="constructor run in mindspore 2.10.0 with torch's value of " + ", ".join(
            f"{parameter[1]}={parameter[5]}" for parameter in _parameters) + " (TypeError); torch's defaults read in "
            "torchvision 0.28.0 and torchaudio 2.11.1's sources (wheels from PyPI, not installed)",
    )
    for _branch in ("master", "r2.4.10"):
        PARAMETER_CORRECTIONS[(_api, _branch)] = PARAMETER_CORRECTIONS.get((_api, _branch), ()) + (_enum_correction,)
for _api, _parameters in _ENUM_TYPED_EQUIVALENT.items():
    for _branch in ("master", "r2.4.10"):
        EQUIVALENT_ROWS[(_api, _branch)] = tuple(
            _row(*parameter[:2], "type", source_default=parameter[3], target_default=parameter[4], position=1,
                 note="correction: " + _enum_reason(parameter[1], parameter[2], parameter[4], parameter[5]))
            for parameter in _parameters)

# tools/result_kinds.py: the battery's probe call of every entry it can call (532 of 824 ran on both sides in torch
# 2.13.0 and mindspore 2.10.0 on the CPU), the kind of each side's result compared (tensor, tuple, named tuple, Python
# scalar, None, receiver changed); the entries that could not run compared by their docstrings' Returns.
NOT_A_RENAME.update({
    # Tensor.cummax: corrected by the fifth sample above
    ("torch.geqrf", "r2.4.10"): _PLAIN_TUPLE.format(fields=".a, .tau", target="ops.geqrf",
                                                    example="torch.geqrf(a).tau"),
})
# x.median() with no dim: torch gives the median of all elements (a 0-d tensor), MindSpore 2.10.0's Tensor.median(
# axis=-1, keepdims=False) the medians of the last axis and their indices, a tuple (run: 3.0 against ([2, 4, 2], [2, 0, 3])).
PARAMETER_CORRECTIONS[("torch.Tensor.median", "r2.4.10")] = (ParameterCorrection(
    fixes=(ParameterFix("dim", "axis", _row("dim", "axis", "default", source_default="None", target_default="-1"),
                        "x.median() is the median of all elements in torch; MindSpore's axis defaults to -1 and returns "
                        "(values, indices) of the last axis"),),
    note="correction: x.median() with no dim returns the median of all elements in torch and a tuple (values, indices) "
         "along the last axis in MindSpore",
    checked="run on the CPU: x.median() of a 3x4 tensor is tensor(3.) in torch 2.13.0 and a tuple of two shape-[3] "
            "tensors in mindspore 2.10.0 (Tensor.median(axis=-1, keepdims=False) -> tuple[Tensor], its docstring)",
),)
ADDED_NOTES.update({
    ("torch.Tensor.stride", "r2.4.10"): ("MindSpore's x.stride() returns a list ([4, 1]) where torch returns a tuple "
                                         "((4, 1)): indexing and unpacking agree, x.stride() == (4, 1) is False (run)"),
    ("torch.svd", "r2.4.10"): ("ops.svd returns the plain tuple (s, u, v), singular values first, where torch returns the "
                               "named result (U, S, V): u, s, v = torch.svd(a) unpacks in the wrong order after a rename "
                               "(run)"),
    ("torch.Tensor.svd", "r2.4.10"): ("x.svd() returns the plain tuple (s, u, v), singular values first, where torch "
                                      "returns the named result (U, S, V): u, s, v = a.svd() unpacks in the wrong order "
                                      "(run)"),
    ("torch.Tensor.sort", "master"): _PLAIN_PAIR.format(call="x.sort()", how="run"),
    ("torch.Tensor.cummin", "r2.4.10"): _PLAIN_PAIR.format(call="x.cummin(axis)", how="run"),
    ("torch.Tensor.nanmedian", "r2.4.10"): ("x.nanmedian() with no dim is the median of all elements in torch (a 0-d "
                                            "tensor) and the tuple (values, indices) along the last axis in MindSpore "
                                            "(run: 3.0 against ([2, 4, 2], [2, 0, 3]))"),
})

# tools/signature_scan.py --era 2.4: the ops/nn-era entries (MindSpore range holds 2.4, not 2.10; outside the hand
# samples' population), whose targets mindspore 2.10.0 still has: the leads on entries called equivalent, run there
# (2.4 itself is not installed; the signatures are 2.10.0's). Keyword forms torch takes and the target refuses:
_ERA_REFUSED = "run in mindspore 2.10.0 on the CPU: {call} raises TypeError, {works} works"
EQUIVALENT_ROWS.update({
    ("torch.nansum", "r2.4.10"): tuple(
        _row(source, target, "renamed", note="correction: " + _ERA_REFUSED.format(
            call=f"ops.nansum(x, {source}=...)", works=f"{target}= (and the positional call)"))
        for source, target in (("dim", "axis"), ("keepdim", "keepdims"))),
    ("torch.permute", "r2.4.10"): (
        _row("dims", "axis", "renamed", note="correction: " + _ERA_REFUSED.format(
            call="ops.permute(x, dims=(1, 0))", works="axis=(1, 0) (and the positional call)")),),
    ("torch.transpose", "r2.4.10"): tuple(
        _row(source, target, "renamed", note="correction: " + _ERA_REFUSED.format(
            call=f"ops.swapaxes(x, {source}=0)", works=f"{target}= (and the positional call)"))
        for source, target in (("dim0", "axis0"), ("dim1", "axis1"))),
    ("torch.add", "r2.4.10"): (
        _row("alpha", None, "removed", source_default="1", note="correction: " + _ERA_REFUSED.format(
            call="ops.add(x, y, alpha=2)", works="ops.add(x, 2 * y)")),),
})
ADDED_NOTES[("torch.topk", "r2.4.10")] = _PLAIN_PAIR.format(call="ops.topk(x, k)", how="run in mindspore 2.10.0")


# (api, branch) → what differs, checked, where the doc's row says only "see the diff page" and its page has no table a
# parameter row could come from (the lead, session 7: pages read in mindspore-ai/docs, calls run in torch 2.13.0 and
# mindspore 2.10.0 on the CPU). The entry's category and fix stay as they are.
PAGE_DIFFERENCES = {
    ("torch.Tensor.item", "r2.4.10"): (
        "before MindSpore 2.5, Tensor.item(index=None) returns a 0-d Tensor, not a Python number (the diff page item.md, "
        "r2.1-r2.3), and takes an index for tensors of several elements; where a number is needed (printing, a "
        "float sum, an f-string format) write x.asnumpy().item(). mindspore 2.10.0 returns a Python number (run)"),
    ("torch.optim.Optimizer", "r2.4.10"): (
        "not a rename of the base class: torch's Optimizer(params, defaults) keeps param_groups and state and its "
        "subclasses write step(closure=None); mindspore.nn.Optimizer(learning_rate, parameters, weight_decay=0.0, "
        "loss_scale=1.0) is a Cell whose subclasses write construct(gradients): a custom optimizer is rewritten"),
}
_TYPECAST_NO_SCALING = (
    "torchvision's ConvertImageDtype scales the values to the new dtype's range (uint8 255 becomes 1.0 in float32), "
    "TypeCast only casts (run in mindspore 2.10.0: TypeCast(float32) on uint8 [0, 128, 255] gives [0., 128., 255.]); "
    "divide by 255 after it (vision.Rescale(1 / 255, 0)) to get torch's values")
PAGE_DIFFERENCES.update({
    ("torchvision.transforms.ConvertImageDtype", "master"): _TYPECAST_NO_SCALING,
    ("torchvision.transforms.ConvertImageDtype", "r2.4.10"): _TYPECAST_NO_SCALING,
})
# The page says MindSpore adds -1 in the shape, but torch's broadcast_to takes -1 too; what differs is the keyword:
# torch's is `size` (its docstring says shape), MindSpore's `shape`.
CHECKED_KEYWORD_RENAMES.update({
    ("torch.broadcast_to", "r2.4.10"): _called_both((("size", "shape"),)),
    ("torch.Tensor.broadcast_to", "r2.4.10"): _called_both((("size", "shape"),)),
})

# (api, branch) → why: entries whose renamed call cannot work, so no fix renames them (the finding stays, with this
# reason first). torch's clip_grad_norm_(model.parameters(), max_norm) clips the .grad of each parameter in place;
# ops.clip_by_norm(x, max_norm) returns clipped copies of the tensors it is given, so the rename clipped the weights
# and dropped the result (run: mindspore 2.10.0 raised TypeError on the Parameter generator). The grads exist only
# inside a training step rewritten to value_and_grad, whose fix writes the clipping there.
NO_RENAME = {
    ("torch.nn.utils.clip_grad_norm_", "r2.4.10"): (
        "correction: no rename can serve this call: torch clips the parameters' .grad in place; in MindSpore clip the grads value_and_grad returns, "
        "grads = mindspore.ops.clip_by_global_norm(grads, max_norm) (the training-step fix writes it)"),
}

# wt-transforms (issue 16): `kb verify` now checks the names of `type` rows too (kb/verify.py), and found three rows
# naming parameters no MindSpore signature has. ger: mindspore.ops.ger(input, vec2) and Tensor.ger(self, vec2) in
# 2.10.0 (ger(a, vec2=b) runs, other= raises TypeError); MindSpore's own API docs
# (mindspore-ai/mindspore docs/api/api_python/ops/mindspore.ops.func_ger.rst) name them x1, x2 in older releases and
# input, vec2 in newer ones, never other, so the rows are corrected in every range. The method's input row is the
# receiver, not a keyword. tensorflow.eye: ops.eye(n, m=None, dtype=None) in 2.10.0 (t= raises TypeError); the same
# docs file names the dtype t in older releases (the r1.9 docs it links), so the doc's row stands before 2.10.
_GER_VEC2 = ParameterFix("vec2", "other", _row("vec2", "vec2", "type", source_default="(required)",
                                               target_default="(required)"),
                         "PyTorch supports all data types of uint, int and float, and MindSpore only supports "
                         "float16/32/64; both call the second vector vec2")
_GER_CHECKED = ("signature read in mindspore 2.10.0 ({signature}); run on the CPU: {call}(vec2=b) works, other= raises "
                "TypeError; older MindSpore releases' docs (func_ger.rst) name the parameters x1, x2, never other")
PARAMETER_CORRECTIONS[("torch.ger", "r2.4.10")] = (ParameterCorrection(
    fixes=(_GER_VEC2,),
    note="correction: mindspore.ops.ger(input, vec2) calls the second vector vec2, as torch does, not other",
    checked=_GER_CHECKED.format(signature="ops.ger(input, vec2)", call="ops.ger(a, ...)"),
),)
PARAMETER_CORRECTIONS[("torch.Tensor.ger", "r2.4.10")] = (ParameterCorrection(
    fixes=(ParameterFix("input", "input", None, "the doc's row input -> input is the function's (torch.Tensor.ger "
                                                "shares its diff page): for the method the tensor is the receiver"),
           _GER_VEC2),
    note="correction: mindspore.Tensor.ger(self, vec2) calls the second vector vec2, as torch does, not other",
    checked=_GER_CHECKED.format(signature="Tensor.ger(self, vec2)", call="a.ger"),
),)
TENSORFLOW_PARAMETER_CORRECTIONS["tensorflow.eye"] = ParameterCorrection(
    fixes=(ParameterFix("num_columns", "m", _row("num_columns", "m", "renamed", source_default="None",
                                                 target_default="None"),
                        "both default to a square matrix (ops.eye(2) is 2 x 2)"),
           ParameterFix("dtype", "t", _row("dtype", "dtype", "type", source_default="tf.dtypes.float32",
                                           target_default="None"),
                        "a TensorFlow dtype against a MindSpore one; None means mindspore.float32")),
    note="correction: from MindSpore 2.10 (the first release checked) ops.eye(n, m=None, dtype=None) calls the dtype "
         "dtype, not t, and m is optional",
    checked="signature read in mindspore 2.10.0: ops.eye(n, m=None, dtype=None); run on the CPU: ops.eye(2, 3, "
            "dtype=mindspore.int32) and ops.eye(2) work, t= raises TypeError",
    since="2.10",
)

# wt-transforms (issue 16): every transform entry the tables call equivalent, run side by side with torchvision 0.28.0
# and torchaudio 2.11.1 (their PyPI wheels unpacked beside torch 2.13.0, CUDA extensions left out) and mindspore 2.10.0
# on the CPU, on small real inputs, for what one numeric call cannot show (python -m tools.transform_review;
# mappings/verification/transforms_reviewed.yaml records every verdict). Wrong ones:
_PIL_ONLY = ("correction: the doc calls this consistent, but mindspore.dataset.vision.{name} takes PIL images only: a "
             "numpy HWC image, what Decode() and the other vision transforms give, raises TypeError (run); put ToPIL() "
             "before it. On PIL images it equals torchvision's")
_VAD = ("correction: the doc calls this consistent, but mindspore.dataset.audio.Vad (a dataset transform on numpy arrays) "
        "trims at other points than torchaudio's on the same waveform (run: noise, then a tone from 0.8 s of 4 s at 16 "
        "kHz: torchaudio keeps 52,800 samples, MindSpore 17,600): compare the trimmed audio")
_RUN_BY = "run side by side on the CPU with torchvision 0.28.0 / torchaudio 2.11.1 (torch 2.13.0) and mindspore 2.10.0"
NOT_A_RENAME.update({
    **{(f"torchvision.transforms.{name}", branch): _PIL_ONLY.format(name=name)
       for name in ("FiveCrop", "Grayscale") for branch in ("master", "r2.4.10")},
    **{("torchaudio.transforms.Vad", branch): _VAD for branch in ("master", "r2.4.10")},
})
ADDED_NOTES.pop(("torchaudio.transforms.Vad", "master"))  # the third sample's note, now part of _VAD
for _branch in ("master", "r2.4.10"):
    VERIFIED[("torchvision.transforms.FiveCrop", _branch)] = (
        f"{_RUN_BY} (tools/transform_review.py): FiveCrop(16) of a 33x41 PIL image gives torchvision's five crops in its "
        f"order, equal; on the numpy array TypeError 'img should be PIL image'")
    VERIFIED[("torchvision.transforms.Grayscale", _branch)] = (
        f"{_RUN_BY} (tools/transform_review.py): Grayscale(1) and Grayscale(3) of a 33x41 PIL image equal torchvision's "
        f"(torchvision's tensor path differs from its own PIL path by 1 at most); on the numpy array TypeError")
    VERIFIED[("torchaudio.transforms.Vad", _branch)] = (
        f"{_RUN_BY} (tools/transform_review.py): Vad(16000) on noise then a 440 Hz tone: onset at 0.8 s of 2 s, "
        f"torchaudio keeps 20,800 samples, MindSpore 17,600; of 4 s, 52,800 and 17,600; onset at 2.5 s of 4 s, 25,600 "
        f"and 17,600; a 2 s tone from the start, 0 and 17,600; the kept tails agree where both keep them")
    EQUIVALENT_ROWS[("torchvision.transforms.RandomChoice", _branch)] = (
        _row("p", None, "removed", source_default="None", position=1,
             note="correction: torchvision's RandomChoice(transforms, p=None) weights the choice; "
                  "mindspore.dataset.transforms.RandomChoice(transforms) has no p (p= raises TypeError in mindspore "
                  "2.10.0) and picks uniformly, as torchvision does without p"),)
# SpecAugment masks: torchaudio draws the width from [0, param) and the start on every call (its iid_masks=False only
# shares one draw across a batch); MindSpore's default iid_masks=False masks the fixed band [mask_start, mask_start +
# param) on every call, and takes iid_masks first, so torchaudio's positional FrequencyMasking(10) raises TypeError.
_MASKING = ("With the default iid_masks=False MindSpore masks the same band [mask_start, mask_start + {param}) on every "
            "call (run), where torchaudio draws width and start per call: pass iid_masks=True. iid_masks comes first, "
            "so {name}(10) raises TypeError: pass {param}= by keyword")
for _branch in ("master", "r2.4.10"):
    for _name, _param, _axis in (("FrequencyMasking", "freq_mask_param", "frequency rows"),
                                 ("TimeMasking", "time_mask_param", "time columns")):
        ADDED_NOTES[(f"torchaudio.transforms.{_name}", _branch)] = _MASKING.format(name=_name, param=_param)
        VERIFIED[(f"torchaudio.transforms.{_name}", _branch)] = (
            f"{_RUN_BY} (tools/transform_review.py): 300 calls of {_name}({_param}=10) on a 40x50 spectrogram of ones "
            f"masked the first 10 {_axis} every time; with iid_masks=True widths 0-10 and starts across the axis, as "
            f"torchaudio's widths 0-9 and starts; {_name}(10) raises TypeError (iid_masks must be a bool)"
            + ("; torchaudio's p (the largest share of the time axis masked) has no counterpart"
               if _name == "TimeMasking" else ""))
# Entries already ms-differs whose notes missed the input kind or the filter (tools/transform_review.py, run).
_PIL_ONLY_NOTE = ("mindspore.dataset.vision.{name} takes PIL images only: a numpy HWC image, Decode()'s default output, "
                  "raises {error} (run); put ToPIL() before it")
_NUMPY_FILTER = ("on numpy images MindSpore resizes without antialiasing (64 to 32 bilinear: 14.8/255 from torchvision "
                 "on average, run); on PIL images it equals torchvision")
for _branch in ("master", "r2.4.10"):
    for _name, _error in (("TenCrop", "TypeError"), ("RandomGrayscale", "AttributeError"),
                          ("RandomPerspective", "ValueError")):
        ADDED_NOTES[(f"torchvision.transforms.{_name}", _branch)] = _PIL_ONLY_NOTE.format(name=_name, error=_error)
    ADDED_NOTES[("torchvision.transforms.RandomResizedCrop", _branch)] = _NUMPY_FILTER
    PARAMETER_CORRECTIONS[("torchvision.transforms.RandomResizedCrop", _branch)] += (ParameterCorrection(
        fixes=(),
        added=(_row("antialias", None, "removed", source_default="True",
                    note="mindspore.dataset.vision.RandomResizedCrop has no antialias (2.10.0)"),),
        note="correction: torchvision's antialias has no counterpart",
        checked="signatures read in torchvision 0.28.0 and mindspore 2.10.0; RandomResizedCrop(32, scale=(1, 1), "
                "ratio=(1, 1)) of a 64x64 image run side by side (tools/transform_review.py)",
    ),)
    # the fifth sample's note said vision.Resize never antialiases; on PIL images it does, as torchvision (run)
    NOT_A_RENAME[("torchvision.transforms.Resize", _branch)] = (
        "correction: the doc calls this consistent, but " + _NUMPY_FILTER + "; interpolation is an Inter, not an "
        "InterpolationMode (TypeError); no max_size")

# Found by the sixth hand check (mappings/verification/hand_check_6.yaml), run in torch 2.13.0 and mindspore 2.10.0 on
# the CPU (torchaudio 2.11.1's and torchvision 0.28.0's sources read from their wheels: not installed beside mindspore).
# The masking transforms: MindSpore's iid_masks=False is not torchaudio's (a fixed band, not a random one); the
# transforms review above writes the note, these are the rows.
for _name, _param, _unit, _extra in (("FrequencyMasking", "freq_mask_param", "frequency rows", ()),
                                     ("TimeMasking", "time_mask_param", "time columns",
                                      (_row("p", None, "removed", source_default="1.0",
                                            note="torchaudio's TimeMasking(time_mask_param, iid_masks=False, p=1.0) "
                                                 "caps the width at p times the length; MindSpore has no p"),))):
    _masking = ParameterCorrection(
        fixes=(),
        added=(_row("iid_masks", "iid_masks", "meaning", source_default="False", target_default="False",
                    note=f"False is one random mask per call in torchaudio, a fixed mask of {_param} {_unit} from "
                         f"mask_start in MindSpore (run)"), *_extra),
        note="correction: iid_masks means another thing",  # what it means: the transforms review's note below
        checked=f"run in mindspore 2.10.0 on the CPU: {_name}({_param}=4) masked the same {_unit} 0-3 on every call "
                f"(eagerly and in a dataset .map); torchaudio 2.11.1's _AxisMasking read from its wheel",
    )
    for _branch in ("master", "r2.4.10"):
        PARAMETER_CORRECTIONS[(f"torchaudio.transforms.{_name}", _branch)] = (
            PARAMETER_CORRECTIONS.get((f"torchaudio.transforms.{_name}", _branch), ()) + (_masking,))

# Rows the doc has wrong or lacks on entries already ms-differs (the minors of the sixth sample).
_AUDIO_ROWS = {
    "torchaudio.transforms.ComputeDeltas": ParameterCorrection(
        fixes=(),
        added=(_enum_row("mode", "pad_mode", "BorderType", "'replicate'", "BorderType.EDGE", "'replicate'"),),
        note="correction: torchaudio's mode (a string) is MindSpore's pad_mode, a BorderType; BorderType.EDGE pads as "
             "torchaudio's 'replicate' (the deltas agree to 3e-8, run); it is a dataset transform on numpy arrays",
        checked="run in mindspore 2.10.0 on the CPU: ComputeDeltas()(spectrogram) against torchaudio's formula "
                "(replicate padding, conv1d) in torch 2.13.0, and ComputeDeltas(pad_mode='replicate') (TypeError)",
    ),
    "torchaudio.transforms.MelScale": ParameterCorrection(
        fixes=(ParameterFix("n_stft", "n_stft", _row("n_stft", "n_stft", "same", source_default="201",
                                                      target_default="201"),
                            "torchaudio 2.11.1's MelScale(n_stft=201) has MindSpore's default (its source)"),
               ParameterFix(None, "mel_type", _row("mel_scale", "mel_type", "type", source_default="'htk'",
                                                    target_default="MelType.HTK"),
                            _enum_reason("mel_type", "MelType", "MelType.HTK", "'slaney'")
                            + "; torchaudio calls it mel_scale (mel_scale= raises TypeError)")),
        note="correction: torchaudio's mel_scale is MindSpore's mel_type, a MelType; n_stft defaults to 201 in both",
        checked="run in mindspore 2.10.0: MelScale(mel_type='slaney') and MelScale(mel_scale='slaney') raise TypeError; "
                "torchaudio 2.11.1's MelScale.__init__ read from its wheel",
    ),
    "torchaudio.transforms.Resample": ParameterCorrection(
        fixes=tuple(ParameterFix(None, name, _row(name, name, "same", source_default=default, target_default=default),
                                 f"torchaudio 2.11.1's Resample has {name}={default} too (its source)")
                    for name, default in (("lowpass_filter_width", "6"), ("rolloff", "0.99"), ("beta", "None"))),
        added=(_row("dtype", None, "removed", source_default="None",
                    note="torchaudio's dtype of the precomputed kernel; MindSpore has none"),),
        note="correction: lowpass_filter_width, rolloff and beta are torchaudio's too, with the same defaults",
        checked="torchaudio 2.11.1's Resample.__init__ read from its wheel; Resample(16000, 8000, "
                "lowpass_filter_width=8, rolloff=0.9) run in mindspore 2.10.0",
    ),
}
for _api, _correction in _AUDIO_ROWS.items():
    for _branch in ("master", "r2.4.10"):
        PARAMETER_CORRECTIONS[(_api, _branch)] = PARAMETER_CORRECTIONS.get((_api, _branch), ()) + (_correction,)
PARAMETER_CORRECTIONS[("torch.Tensor.std", "r2.4.10")] = PARAMETER_CORRECTIONS.get(("torch.Tensor.std", "r2.4.10"), ()) + (
    ParameterCorrection(
        fixes=(ParameterFix("unbiased", "ddof", _row("unbiased", "ddof", "type", source_default="True",
                                                      target_default="0"),
                            "ddof is an int: x.std(ddof=True) and ddof=False raise TypeError; ddof=1 is torch's "
                            "unbiased=True"),),
        note="correction: x.std() and x.std(dim) compute the biased estimator in MindSpore (2.58 where torch gives 2.83 "
             "on the same 2x3 input), torch the unbiased one: pass ddof=1 or correction=1 (the docstring's "
             "std(dim, *, correction=1) overload is not what x.std(dim=1) ran)",
        checked="run on the CPU in torch 2.13.0 and mindspore 2.10.0: x.std(), x.std(1), x.std(dim=1, correction=1), "
                "x.std(axis=1, ddof=1), x.std(ddof=True)",
    ),)
# tensor_split: torch's overload keywords; the fix renames them to MindSpore's one parameter (the signatures' dim → axis
# is kept); the battery never passed them, so the fix stays unsafe (numeric.exercised).
PARAMETER_CORRECTIONS[("torch.Tensor.tensor_split", "r2.4.10")] = (ParameterCorrection(
    fixes=(),
    added=(_row("dim", "axis", "renamed", source_default="0", target_default="0",
                note="mindspore.Tensor.tensor_split(indices_or_sections, axis=0): dim= raises TypeError"),
           *(_row(name, "indices_or_sections", "renamed",
                  note=f"torch's overload keyword {name}=; MindSpore's one parameter is indices_or_sections ({name}= "
                       f"raises TypeError; a tensor of indices too)")
             for name in ("sections", "indices"))),
    note="correction: besides dim → axis, torch's sections= and indices= keywords are MindSpore's indices_or_sections, "
         "which takes an int, a tuple or a list, not a tensor",
    checked="run on the CPU in torch 2.13.0 and mindspore 2.10.0: x.tensor_split(3, axis=1), a list of indices, "
            "sections=2, indices=[1], indices_or_sections=2 and a tensor of indices",
),)
# grid_sample: the doc's only row, align_corners' default, is not a difference (None means False in both); what differs
# is mode='bicubic', which mint's grid_sample refuses.
PARAMETER_CORRECTIONS[("torch.nn.functional.grid_sample", "master")] = (ParameterCorrection(
    fixes=(ParameterFix("align_corners", "align_corners",
                        _row("align_corners", "align_corners", "same", source_default="None", target_default="None"),
                        "None means False in both: the defaults and align_corners=True/False agree to 4e-7 (run)"),),
    added=(_row("mode", "mode", "meaning", source_default="'bilinear'", target_default="'bilinear'",
                note="'bilinear' and 'nearest' agree with every padding_mode; mode='bicubic' raises in mindspore 2.10.0 "
                     "(run)"),),
    note="correction: the align_corners defaults agree (18 combinations of mode, padding_mode and align_corners run on "
         "4-D and a 5-D input agree to 4e-7); mode='bicubic' is refused",
    checked="run on the CPU in torch 2.13.0 and mindspore 2.10.0: grid_sample with mode bilinear/nearest/bicubic, "
            "padding_mode zeros/border/reflection, align_corners None/True/False",
),)
_SCHEDULER_LAST_LR = ("get_last_lr() returns a list of MindSpore Tensors where torch returns floats: f'{lr:.4f}' and "
                      "json.dumps raise TypeError; use float(lr) (run in mindspore 2.10.0)")
_SIXTH_NOTES = {
    ("torch.Tensor.igammac", "r2.4.10"): "x.igammac(y) with x = 0 is 0 in torch and NaN in MindSpore, as for torch.igammac "
                                         "(run)",
    ("torch.addr", "r2.4.10"): ("With beta=0 torch ignores input (NaN or inf in it does not propagate, its documentation "
                                "says); ops.addr propagates NaN (run: NaN where torch gives 3.0)"),
    ("torch.nn.functional.margin_ranking_loss", "r2.4.10"): (
        "An int margin (margin=1) or an integer target raises TypeError in ops.margin_ranking_loss (margin must be a "
        "float, target the inputs' dtype) where torch computes them (run)"),
    ("torch.remainder", "master"): ("An integer remainder by 0 returns the dividend (3 % 0 gives 3) where torch raises "
                                    "ZeroDivisionError; -0.0 % 2 gives 0.0 (torch -0.0); float32 100000000 % 7 gives 0 "
                                    "(torch 2) (run)"),
    ("torch.initial_seed", "r2.4.10"): ("Unseeded, torch returns a random 64-bit seed drawn per process (and per "
                                        "DataLoader worker), MindSpore 0; after mindspore.manual_seed(s) both return s "
                                        "(mindspore.set_seed does not change it) (run)"),
    ("torch.std_mean", "master"): ("torch's unbiased overloads (std_mean(x, unbiased=False), std_mean(x, 1, True)) have "
                                   "no counterpart: mint.std_mean(input, dim=None, *, correction=1, keepdim=False) takes "
                                   "correction and keepdim by keyword only (TypeError otherwise; its docstring, Ascend "
                                   "only)"),
    **{(f"torch.optim.lr_scheduler.{name}", "r2.4.10"): _SCHEDULER_LAST_LR for name in (
        "ConstantLR", "CosineAnnealingLR", "CosineAnnealingWarmRestarts", "CyclicLR", "ExponentialLR", "LRScheduler",
        "LambdaLR", "LinearLR", "MultiStepLR", "MultiplicativeLR", "PolynomialLR", "ReduceLROnPlateau", "SequentialLR",
        "StepLR")},
}
for _key, _note in _SIXTH_NOTES.items():
    ADDED_NOTES[_key] = f"{ADDED_NOTES[_key]}; {_note}" if _key in ADDED_NOTES else _note
# Tensor conversions torch lets take memory_format=: mindspore 2.10.0's methods refuse it (TypeError, run for each). A
# `removed` row makes a call that passes it MS102 (methods._unchanged_on_mindspore); x.long() stays unreported.
_MEMORY_FORMAT = (_row("memory_format", None, "removed", source_default="torch.preserve_format",
                       note="correction: mindspore.Tensor.{name}() has no memory_format (memory_format= raises "
                            "TypeError in mindspore 2.10.0; MindSpore tensors have no memory format)"),)
for _method, _branch in (("long", "master"), ("int", "master"), ("float", "master"), ("half", "master"),
                         ("bool", "master"), ("short", "r2.4.10"), ("contiguous", "r2.4.10")):
    EQUIVALENT_ROWS[(f"torch.Tensor.{_method}", _branch)] = tuple(
        {**row, "note": row["note"].format(name=_method)} for row in _MEMORY_FORMAT)

# Session 7 (docs/precision.md, precision on real code): segmentation-models-pytorch's 72 nn.Sequential findings said only
# "see the diff page". What the page's one parameter row (the container passed) comes to, run in mindspore 2.10.0 on the
# CPU: SequentialCell(a, b), SequentialCell([a, b]) and SequentialCell(OrderedDict(...)) all build (the names become
# attributes), a slice is a SequentialCell and append exists; add_module, insert and extend raise AttributeError.
ADDED_NOTES[("torch.nn.Sequential", "r2.4.10")] = (
    "SequentialCell takes cells, a list or an OrderedDict (names become attributes) and has append, but not torch's "
    "add_module, insert or extend: insert_child_to_cell(name, cell) adds a named cell (run in mindspore 2.10.0)")

# The edge-input sweep (tools/edge_inputs.py; docs/knowledge-base-verification.md, "Edge-input sweep"): every entry the
# battery can call, run on -0.0 beside +0.0, NaN and ±inf, int64/int32/bool, 0-d and empty tensors and ranges whose end
# is hit exactly, in torch 2.13.0 and mindspore 2.10.0 on the CPU, results compared by kind, dtype, shape, NaN positions
# and the sign bit of zeros. (api, MindSpore target) → a difference only such inputs show: it goes into the entry's
# edge_difference (the hover's "Edge inputs" line, no warning on the call); category and fix stay as they are.
_SWEPT = " (edge-input sweep, run in torch 2.13.0 and mindspore 2.10.0 on the CPU)"
_ZERO_SIGN = ("{example}: a zero of the other sign, equal under == and in sums; only signbit, copysign, atan2 or 1/x "
              "see it" + _SWEPT)
_SIGNED_DIVISOR = ("{call} with a divisor of -0.0 gives +inf for a negative dividend in torch and -inf in MindSpore "
                   "(and -inf/+inf for a positive one): MindSpore ignores the sign of a zero divisor" + _SWEPT)
_UNSORTED_NAN = ("a column holding NaN comes back unsorted from MindSpore's {call} ([nan, -inf, 3.0] stays as it is; "
                 "torch gives [-inf, 3.0, nan], NaN last), and a 0-d input raises ValueError in MindSpore" + _SWEPT)
_NONZERO_0D = ("a 0-d input raises RuntimeError in MindSpore (NonZero wants at least one dimension); torch returns a "
               "[1, 0] index tensor" + _SWEPT)
_DIGAMMA_EMPTY = ("an empty input raises ValueError in MindSpore (\"the input must have value\"); torch returns an empty "
                  "tensor" + _SWEPT)
EDGE_INPUTS = {
    **{(api, target): _ZERO_SIGN.format(example=example) for api, target, example in (
        ("torch.expm1", "mindspore.mint.expm1", "expm1(-0.0) is -0.0 in torch and 0.0 in MindSpore"),
        ("torch.special.expm1", "mindspore.mint.special.expm1", "expm1(-0.0) is -0.0 in torch and 0.0 in MindSpore"),
        ("torch.Tensor.expm1", "mindspore.Tensor.expm1", "x.expm1() of -0.0 is -0.0 in torch and 0.0 in MindSpore"),
        ("torch.log1p", "mindspore.mint.log1p", "log1p(-0.0) is -0.0 in torch and 0.0 in MindSpore"),
        ("torch.special.log1p", "mindspore.mint.special.log1p", "log1p(-0.0) is -0.0 in torch and 0.0 in MindSpore"),
        ("torch.Tensor.log1p", "mindspore.Tensor.log1p", "x.log1p() of -0.0 is -0.0 in torch and 0.0 in MindSpore"),
        ("torch.Tensor.frac", "mindspore.Tensor.frac", "x.frac() of -0.0 is 0.0 in torch and -0.0 in MindSpore"),
        ("torch.nn.ReLU", "mindspore.mint.nn.ReLU", "ReLU of -0.0 is -0.0 in torch and 0.0 in MindSpore"),
        ("torch.nn.functional.relu", "mindspore.mint.nn.functional.relu", "relu(-0.0) is -0.0 in torch and 0.0 in MindSpore"),
        ("torch.clamp", "mindspore.mint.clamp", "clamp(-0.0, min=0.0) is -0.0 in torch and 0.0 in MindSpore"),
        ("torch.Tensor.clamp", "mindspore.Tensor.clamp", "x.clamp(min=0.0) of -0.0 is -0.0 in torch and 0.0 in MindSpore"),
        ("torch.clip", "mindspore.ops.clip", "clip(-0.0, min=0.0) is -0.0 in torch and 0.0 in MindSpore"),
        ("torch.Tensor.clip", "mindspore.Tensor.clip", "x.clip(min=0.0) of -0.0 is -0.0 in torch and 0.0 in MindSpore"),
        ("torch.fmod", "mindspore.mint.fmod", "fmod(-4.0, 2.0) is -0.0 in torch (the dividend's sign) and 0.0 in MindSpore"),
        ("torch.Tensor.fmod", "mindspore.Tensor.fmod", "x.fmod(2.0) of -4.0 is -0.0 in torch and 0.0 in MindSpore"),
        ("torch.remainder", "mindspore.mint.remainder", "remainder(-4.0, 2.0) is -0.0 in torch and 0.0 in MindSpore"),
        ("torch.Tensor.remainder", "mindspore.Tensor.remainder", "x.remainder(2.0) of -4.0 is -0.0 in torch and 0.0 in "
                                                                 "MindSpore"),
        ("torch.maximum", "mindspore.mint.maximum", "maximum(-0.0, 0.0) is -0.0 in torch and 0.0 in MindSpore (torch "
                                                    "keeps the first operand's zero, MindSpore the second's)"),
        ("torch.Tensor.maximum", "mindspore.Tensor.maximum", "x.maximum(y) of -0.0 and 0.0 is -0.0 in torch and 0.0 in "
                                                             "MindSpore"),
        ("torch.minimum", "mindspore.mint.minimum", "minimum(-0.0, 0.0) is -0.0 in torch and 0.0 in MindSpore (torch "
                                                    "keeps the first operand's zero, MindSpore the second's)"),
        ("torch.Tensor.minimum", "mindspore.Tensor.minimum", "x.minimum(y) of -0.0 and 0.0 is -0.0 in torch and 0.0 in "
                                                             "MindSpore"),
        ("torch.fmax", "mindspore.ops.fmax", "fmax(-0.0, 0.0) is -0.0 in torch and 0.0 in MindSpore (torch keeps the "
                                             "first operand's zero, MindSpore the second's)"),
        ("torch.Tensor.fmax", "mindspore.Tensor.fmax", "x.fmax(y) of -0.0 and 0.0 is -0.0 in torch and 0.0 in MindSpore"),
        ("torch.nn.Softshrink", "mindspore.mint.nn.Softshrink", "negative inputs inside [-lambd, lambd] (and -0.0) give "
                                                                "-0.0 in torch and 0.0 in MindSpore"),
        ("torch.nn.functional.softshrink", "mindspore.mint.nn.functional.softshrink", "negative inputs inside [-lambd, "
                                                                                      "lambd] (and -0.0) give -0.0 in "
                                                                                      "torch and 0.0 in MindSpore"),
        ("torch.nn.functional.prelu", "mindspore.mint.nn.functional.prelu", "a zero in the result has the other sign "
                                                                            "on -0.0 inputs"),
        ("torch.Tensor.cumsum", "mindspore.Tensor.cumsum", "x.cumsum(0) of [-0.0, -0.0] is [0.0, 0.0] in torch and "
                                                           "[-0.0, -0.0] in MindSpore"),
        ("torch.lerp", "mindspore.mint.lerp", "lerp(-0.0, -0.0, 0.5) is -0.0 in torch and 0.0 in MindSpore"),
        ("torch.Tensor.lerp", "mindspore.Tensor.lerp", "x.lerp(y, w) where x and y hold -0.0 gives zeros of the other "
                                                       "sign"),
        ("torch.logcumsumexp", "mindspore.ops.logcumsumexp", "logcumsumexp([-0.0, -0.0], 0) starts with 0.0 in torch and "
                                                             "-0.0 in MindSpore"),
        ("torch.Tensor.logcumsumexp", "mindspore.Tensor.logcumsumexp", "x.logcumsumexp(0) of [-0.0, -0.0] starts with 0.0 "
                                                                       "in torch and -0.0 in MindSpore"),
        ("torch.addr", "mindspore.ops.addr", "a zero in the result is -0.0 in torch and 0.0 in MindSpore on -0.0 inputs"),
        ("torch.Tensor.addr", "mindspore.Tensor.addr", "a zero in the result is -0.0 in torch and 0.0 in MindSpore on -0.0 "
                                                       "inputs"),
    )},
    **{(api, target): _SIGNED_DIVISOR.format(call=call) for api, target, call in (
        ("torch.div", "mindspore.mint.div", "div"), ("torch.Tensor.div", "mindspore.Tensor.div", "x.div(y)"),
        ("torch.divide", "mindspore.mint.divide", "divide"), ("torch.Tensor.divide", "mindspore.Tensor.divide", "x.divide(y)"),
        ("torch.true_divide", "mindspore.ops.true_divide", "true_divide"),
        ("torch.Tensor.true_divide", "mindspore.Tensor.true_divide", "x.true_divide(y)"),
        ("torch.floor_divide", "mindspore.ops.floor_divide", "floor_divide"),
        ("torch.Tensor.floor_divide", "mindspore.Tensor.floor_divide", "x.floor_divide(y)"),
        ("torch.addcdiv", "mindspore.ops.addcdiv", "addcdiv(x, t1, t2)"),
    )},
    ("torch.copysign", "mindspore.ops.copysign"): (
        "copysign(x, -0.0) is -|x| in torch and +|x| in MindSpore, which reads the sign as y < 0, not the sign bit "
        "(copysign(-1.0, -0.0): torch -1.0, MindSpore 1.0)" + _SWEPT),
    ("torch.Tensor.copysign", "mindspore.Tensor.copysign"): (
        "x.copysign(-0.0) is -|x| in torch and +|x| in MindSpore, which reads the sign as y < 0, not the sign bit" + _SWEPT),
    ("torch.msort", "mindspore.ops.msort"): _UNSORTED_NAN.format(call="msort"),
    ("torch.Tensor.msort", "mindspore.Tensor.msort"): _UNSORTED_NAN.format(call="x.msort()"),
    ("torch.nonzero", "mindspore.mint.nonzero"): _NONZERO_0D,
    ("torch.Tensor.nonzero", "mindspore.Tensor.nonzero"): _NONZERO_0D,
    ("torch.nn.LPPool2d", "mindspore.nn.LPPool2d"): "a window holding NaN pools to 0.0 in MindSpore and to NaN in torch" + _SWEPT,
    ("torch.digamma", "mindspore.ops.digamma"): _DIGAMMA_EMPTY,
    ("torch.Tensor.digamma", "mindspore.Tensor.digamma"): _DIGAMMA_EMPTY,
    ("torch.igamma", "mindspore.ops.igamma"): ("igamma(0.0, x) (and igamma(-0.0, x)) is 1.0 in torch and NaN in MindSpore "
                                               "(igamma(0.0, 1.0) run)" + _SWEPT),
    ("torch.Tensor.igamma", "mindspore.Tensor.igamma"): ("x.igamma(y) with x = 0.0 or -0.0 is 1.0 in torch and NaN in "
                                                         "MindSpore" + _SWEPT),
}
# A difference the sweep showed on ordinary inputs: torch.range(0, 4, 1) returns float32 (torch.range gives the default
# float dtype for integer arguments too), ops.range(0, 4, 1) int64; its inclusive end is noted above.
ADDED_NOTES[("torch.range", "r2.4.10")] += (
    "; integer arguments give float32 in torch (torch.range(0, 4, 1)) and int64 in ops.range, and ops.range has no "
    "default step (ops.range(0, 4) raises TypeError)" + _SWEPT)


# Session 8 (lead, from the missing-entries helper's report): cross products where one input must broadcast. torch
# broadcasts cross(a (4, 3), b (1, 3)); mindspore 2.10.0's ops.cross, mint.cross and Tensor.cross return rows of
# uninitialised memory past the first with no error (run on the CPU). Equal shapes agree (the battery's cases).
_CROSS_BROADCAST = ("correction: the doc calls this consistent, and it is for inputs of the same shape, but torch "
                    "broadcasts the two inputs and {target} does not: with shapes (4, 3) and (1, 3) it returns rows "
                    "of uninitialised memory past the first, with no error (mindspore 2.10.0, CPU); broadcast both "
                    "to one shape first (ops.broadcast_to)")
for _api, _target in (("torch.cross", "mindspore.mint.cross / mindspore.ops.cross"), ("torch.Tensor.cross", "mindspore.Tensor.cross")):
    for _branch in ("master", "r2.4.10"):
        NOT_A_RENAME[(_api, _branch)] = _CROSS_BROADCAST.format(target=_target)


# wt-tfpages (issue 21): the TensorFlow entries whose r2.1 doc row says only "see the diff page" (53; their pages are
# prose with no parameter table). What really differs, found by running both sides (tools/tensorflow_page_check.py:
# tensorflow 2.21.0 / keras 3.15.1 and mindspore 2.10.0, each in its own venv, outputs saved as .npy and compared) or,
# where a run needs what is not here (downloads), by reading the signatures. Keyed by (TensorFlow name, target); the
# entry's category and fix stay as they are.
# A note ends with how its difference was found, in short; the entry's `verified` says it in full (PAGE_CHECKS).
_RUN, _READ, _KERAS_LEGACY, _MNIST = " (run)", " (signatures read)", " (run, with scipy)", " (signature read; MindSpore run)"
PAGE_CHECKS = {
    _RUN: "difference run: tensorflow 2.21.0 (keras 3.15.1) / mindspore 2.10.0 on the CPU (tools/tensorflow_page_check.py)",
    _READ: "difference from the signatures and docstrings read in keras 3.15.1 / mindspore 2.10.0 (load_data downloads)",
    _KERAS_LEGACY: ("difference run: tensorflow 2.21.0 (keras 3.15.1, scipy 1.17.1 for its legacy image functions) / "
                    "mindspore 2.10.0 on the CPU (tools/tensorflow_page_check.py)"),
    _MNIST: ("difference from keras 3.15.1's load_data signature (it downloads) and MnistDataset run in mindspore "
             "2.10.0 on two images written in the idx format (tools/tensorflow_page_check.py)"),
}
_FIT = ("Model.train(epoch, train_dataset) takes the epoch count first and a batched mindspore.dataset (arrays raise "
        "AttributeError), has no batch_size or validation arguments (Model.fit(epoch, train_dataset, valid_dataset) "
        "validates) and returns None, not a History" + _RUN)
_EVAL = ("not a prediction: mindspore.train.Model.eval(valid_dataset) returns the metrics dict ({'mae': ...}) as Keras' "
         "evaluate does; Model.predict(Tensor) returns the outputs as Keras' predict does" + _RUN)
_LOAD_DATA = ("keras.datasets.{name}.load_data({arguments}) downloads the data and returns numpy arrays ((x_train, "
              "y_train), (x_test, y_test)){labels}; {target}(dataset_dir, usage=None) downloads nothing, reads the "
              "files already in a folder and yields {columns} columns")
_CLASS_ORDER = ("the same value ({value} both) with the arguments the other way round: update(y_pred, y) takes the "
                "scores first, Keras' update_state(y_true, y_pred) the truth first ({refused}); eval() is result()" + _RUN)
_FLIP = ("a transform class: {target}(prob=0.5)(image) flips an HWC image (or a batch) about half the calls, as "
         "TensorFlow does (200 calls each); it has no seed (mindspore.dataset.config.set_seed)" + _RUN)
_BY_CLASS = ("Keras' {name} thresholds scores at 0.5 and returns one number over all labels; mindspore.train.{name}"
             "('classification') takes the argmax of (N, C) scores, refuses 1-D scores (ValueError) and returns one "
             "value per class (one-hot labels: {keras} in Keras, {per_class} per class); '{mode}' on 0/1 predictions "
             "gives Keras' binary value" + _RUN)
_LEGACY_IMAGE = ("Keras' legacy {name}({arguments}) takes CHW by default (channel_axis=0; pass 0, 1, 2 for HWC) and "
                 "fills with the nearest pixel; {target} works on HWC and fills with 0 ({zeros} of 192 values 0, "
                 "Keras' none){more}" + _KERAS_LEGACY)
TENSORFLOW_PAGE_DIFFERENCES: dict[tuple[str, str], str] = {
    ("tensorflow.data.Dataset.from_generator", "mindspore.dataset.GeneratorDataset"): (
        "GeneratorDataset(source, column_names) needs the column names (without them it raises ValueError) where "
        "from_generator needs output_signature; the same callable gives the same rows" + _RUN),
    ("tensorflow.data.Dataset.from_tensor_slices", "mindspore.dataset.NumpySlicesDataset"): (
        "NumpySlicesDataset(data) shuffles the rows by default (shuffle=None is a global shuffle), from_tensor_slices "
        "keeps their order: pass shuffle=False; then a (features, labels) tuple gives the same rows, as numpy arrays"
        + _RUN),
    ("tensorflow.data.Dataset.prefetch", "mindspore.dataset.config.set_prefetch_size"): (
        "not a dataset method: set_prefetch_size(size) sets one global size for every pipeline and returns None, so "
        "data = data.prefetch(n) written with it loses the dataset; drop the call or set the size once" + _RUN),
    ("tensorflow.data.Dataset.shuffle", "mindspore.dataset.GeneratorDataset.shuffle"): (
        "shuffle(buffer_size) only: no seed (seed= raises TypeError; use mindspore.dataset.config.set_seed) and no "
        "reshuffle_each_iteration; the same elements come out" + _RUN),
    ("tensorflow.data.TextLineDataset", "mindspore.dataset.TextFileDataset"): (
        "TextFileDataset(dataset_files) shuffles the lines by default (shuffle=Shuffle.GLOBAL), TextLineDataset keeps "
        "the file's order: pass shuffle=False; it yields numpy strings in a 'text' column and has no compression_type"
        + _RUN),
    ("tensorflow.data.TFRecordDataset", "mindspore.dataset.TFRecordDataset"): (
        "MindSpore's parses each tf.train.Example into columns itself (columns_list or schema) where TensorFlow's yields "
        "the serialized bytes for tf.io.parse_single_example, and it shuffles by default (shuffle=Shuffle.GLOBAL): "
        "pass shuffle=False for the file's order" + _RUN),
    ("tensorflow.data.experimental.bucket_by_sequence_length", "mindspore.dataset.GeneratorDataset.bucket_batch_by_length"): (
        "a dataset method, not a function for data.apply(): bucket_batch_by_length(column_names, bucket_boundaries, "
        "bucket_batch_sizes, element_length_function=None) takes the column names first and measures the first "
        "dimension when no length function is given; the same padded batches come out" + _RUN),
    ("tensorflow.data.experimental.CsvDataset", "mindspore.dataset.CSVDataset"): (
        "CSVDataset(dataset_files, field_delim, column_defaults, column_names) reads the first line as the column names "
        "when column_names is not given (TensorFlow's header=False reads it as data: 3 rows against 2) and shuffles by "
        "default: pass column_names and shuffle=False; record_defaults is column_defaults" + _RUN),
    ("tensorflow.image.central_crop", "mindspore.dataset.vision.CenterCrop"): (
        "CenterCrop(size) takes the crop's height and width in pixels, not a central_fraction: central_crop(image, 0.5) "
        "of an 8 x 6 image is CenterCrop((4, 4)) (TensorFlow rounds the margins down), a transform on numpy HWC images"
        + _RUN),
    ("tensorflow.image.convert_image_dtype", "mindspore.dataset.transforms.TypeCast"): (
        "TypeCast only casts; convert_image_dtype scales to the new dtype's range (uint8 255 becomes 1.0 in float32): "
        "TypeCast(mindspore.float32) followed by vision.Rescale(1 / 255, 0) gives TensorFlow's values" + _RUN),
    ("tensorflow.image.crop_to_bounding_box", "mindspore.dataset.vision.Crop"): (
        "Crop(coordinates, size) takes the four numbers as two pairs, (offset_height, offset_width) and "
        "(target_height, target_width), and gives the same pixels" + _RUN),
    ("tensorflow.image.grayscale_to_rgb", "mindspore.dataset.vision.ConvertColor"): (
        "ConvertColor(ConvertMode.COLOR_GRAY2RGB) gives the same pixels on an H x W x 1 image, and also takes an "
        "H x W one, which TensorFlow refuses" + _RUN),
    ("tensorflow.image.pad_to_bounding_box", "mindspore.dataset.vision.Pad"): (
        "Pad(padding) takes (left, top, right, bottom) widths, not offsets and a target size: "
        "pad_to_bounding_box(image, 1, 2, 10, 9) of an 8 x 6 image is Pad((2, 1, 1, 1)), zeros in both" + _RUN),
    ("tensorflow.image.per_image_standardization", "mindspore.dataset.vision.Normalize"): (
        "Normalize(mean, std) applies fixed per-channel numbers; per_image_standardization computes each image's own "
        "mean and max(std, 1 / sqrt(pixel count)): Normalize gives TensorFlow's values only with those two numbers "
        "of each image" + _RUN),
    ("tensorflow.image.random_crop", "mindspore.dataset.vision.RandomCrop"): (
        "RandomCrop(size) takes (height, width) only: random_crop's size with the channel count, (4, 4, 3), raises "
        "TypeError; the crop's shape is the same" + _RUN),
    ("tensorflow.image.random_flip_left_right", "mindspore.dataset.vision.RandomHorizontalFlip"): _FLIP.format(
        target="RandomHorizontalFlip"),
    ("tensorflow.image.random_flip_up_down", "mindspore.dataset.vision.RandomVerticalFlip"): _FLIP.format(
        target="RandomVerticalFlip"),
    ("tensorflow.image.resize", "mindspore.dataset.vision.Resize"): (
        "Resize keeps the image's dtype (uint8 in, uint8 out, rounded) where tf.image.resize returns float32 for "
        "bilinear; on float32 images the values agree; an int size resizes the shorter side keeping the aspect ratio "
        "(TensorFlow refuses it); no antialias or preserve_aspect_ratio" + _RUN),
    ("tensorflow.image.rgb_to_grayscale", "mindspore.dataset.vision.ConvertColor"): (
        "ConvertColor(ConvertMode.COLOR_RGB2GRAY) returns H x W, without TensorFlow's last dimension of 1, and rounds "
        "differently (7 of 48 pixels 1 apart)" + _RUN),
    ("tensorflow.image.rot90", "mindspore.dataset.vision.Rotate"): (
        "Rotate(degrees) takes degrees, not k quarter turns: Rotate(90, expand=True) gives rot90(image)'s pixels, "
        "while without expand=True a non-square image keeps its shape and loses its corners" + _RUN),
    ("tensorflow.gradients", "mindspore.grad"): (
        "mindspore.grad(fn) returns a function giving the gradient of fn with respect to its inputs, where "
        "tf.gradients(ys, xs) differentiates tensors already computed, only inside a tf.function (eager raises "
        "RuntimeError); written as a function the values agree" + _RUN),
    ("tensorflow.arg_max", "mindspore.Tensor.argmax"): (
        "x.argmax(axis) on the tensor: the keyword is axis, not dimension (dimension= raises TypeError); the result is "
        "int64 in both" + _RUN),
    ("tensorflow.arg_min", "mindspore.Tensor.argmin"): (
        "x.argmin(axis) on the tensor: the keyword is axis, not dimension; the result is int32, TensorFlow's int64 "
        "(output_type=tf.int64), and argmin has no output_type" + _RUN),
    ("tensorflow.clip_by_value", "mindspore.Tensor.clip"): (
        "x.clip(min, max) on the tensor: the bounds are min and max, not clip_value_min and clip_value_max; the values "
        "agree for float32 and int32" + _RUN),
    ("tensorflow.io.decode_image", "mindspore.dataset.vision.Decode"): (
        "Decode() is a transform applied to the encoded bytes (bytes or a uint8 numpy array) and gives the same HWC "
        "uint8 pixels of a PNG; it has no channels or dtype (channels= raises TypeError)" + _RUN),
    ("tensorflow.keras.Model.fit", "mindspore.train.Model.train"): _FIT,
    ("tensorflow.keras.Model.fit_generator", "mindspore.train.Model.train"): _FIT,
    ("tensorflow.keras.Model.predict", "mindspore.train.Model.eval"): _EVAL,
    ("tensorflow.keras.Model.predict_generator", "mindspore.train.Model.eval"): _EVAL,
    ("tensorflow.keras.initializers.Constant", "mindspore.common.initializer.Constant"): (
        "Constant(value) has no default (Keras' value=0.0; Constant() raises TypeError); through "
        "initializer(Constant(0.5), shape, dtype) it gives the same values" + _RUN),
    ("tensorflow.keras.initializers.RandomNormal", "mindspore.common.initializer.Normal"): (
        "Normal(sigma=0.01, mean=0.0): the standard deviation is called sigma and defaults to 0.01, Keras' stddev to "
        "0.05 (40,000 draws: std 0.0100 against 0.050); Normal(sigma=0.2, mean=1.0) matches stddev=0.2; no seed"
        + _RUN),
    ("tensorflow.keras.initializers.RandomUniform", "mindspore.common.initializer.Uniform"): (
        "Uniform(scale=0.07) draws from [-scale, scale]: Keras' default [-0.05, 0.05] is Uniform(0.05), and an "
        "asymmetric [minval, maxval] has no Uniform form; no seed" + _RUN),
    ("tensorflow.keras.initializers.TruncatedNormal", "mindspore.common.initializer.TruncatedNormal"): (
        "TruncatedNormal(sigma=0.01, mean=0.0, a=-2.0, b=2.0): sigma defaults to 0.01 (Keras' stddev 0.05), and a, b "
        "are absolute bounds, not two standard deviations: sigma=0.05 reaches ±0.2 where Keras stops at ±0.1; "
        "a=-0.1, b=0.1 matches" + _RUN),
    ("tensorflow.keras.initializers.VarianceScaling", "mindspore.common.initializer.XavierUniform"): (
        "XavierUniform(gain=1) is VarianceScaling(1.0, 'fan_avg', 'uniform') (a 400 x 100 kernel, MindSpore's shape "
        "100 x 400: both within ±0.1095); Keras' default VarianceScaling() is fan_in and truncated normal (std 0.050), "
        "which XavierUniform does not give" + _RUN),
    ("tensorflow.keras.metrics.Accuracy", "mindspore.train.Accuracy"): (
        "Keras' Accuracy counts predictions equal to the labels (two label arrays); mindspore.train.Accuracy"
        "('classification') takes (N, C) scores and refuses 1-D predictions (ValueError), and its update(y_pred, y) "
        "takes the prediction first, Keras' update_state(y_true, y_pred) the truth" + _RUN),
    ("tensorflow.keras.metrics.BinaryAccuracy", "mindspore.train.Accuracy"): (
        "Accuracy('classification') refuses 1-D probabilities (ValueError); Accuracy('multilabel') on predictions "
        "thresholded at 0.5, one label per row (N, 1), gives BinaryAccuracy's value (0.667 both), while one row of 6 "
        "labels counts only exact rows (0.0); update(y_pred, y) takes the prediction first" + _RUN),
    ("tensorflow.keras.metrics.CategoricalAccuracy", "mindspore.train.Accuracy"): _CLASS_ORDER.format(
        value="0.75", refused="one-hot labels"),
    ("tensorflow.keras.metrics.SparseCategoricalAccuracy", "mindspore.train.Accuracy"): _CLASS_ORDER.format(
        value="0.75", refused="in Keras' order it raises ValueError"),
    ("tensorflow.keras.metrics.AUC", "mindspore.train.auc"): (
        "mindspore.train.auc(x, y) is the area under given curve points, not a metric of labels and scores "
        "(auc(scores, labels) raises ValueError); ROC(pos_label=1) then auc(fpr, tpr) gives Keras' AUC (0.778 both)"
        + _RUN),
    ("tensorflow.keras.metrics.CosineSimilarity", "mindspore.train.CosineSimilarity"): (
        "not the same measure: Keras' metric averages the cosine between each truth row and its prediction row; "
        "mindspore.train.CosineSimilarity().update(x) takes one input and returns the N x N similarities of its rows "
        "(zero diagonal)" + _RUN),
    ("tensorflow.keras.metrics.Precision", "mindspore.train.Precision"): _BY_CLASS.format(
        name="Precision", keras="1.0", per_class="[0.5, 1, 1]", mode="multilabel"),
    ("tensorflow.keras.metrics.Recall", "mindspore.train.Recall"): _BY_CLASS.format(
        name="Recall", keras="0.75", per_class="[1, 0.5, 1]", mode="multilabel"),
    ("tensorflow.keras.preprocessing.image.random_rotation", "mindspore.dataset.vision.RandomRotation"): (
        _LEGACY_IMAGE.format(name="random_rotation", arguments="x, rg", target="RandomRotation(degrees)", zeros="36",
                             more="; both draw from [-rg, rg] degrees")),
    ("tensorflow.keras.preprocessing.image.random_shear", "mindspore.dataset.vision.RandomAffine"): (
        _LEGACY_IMAGE.format(name="random_shear", arguments="x, intensity", target="RandomAffine(0, shear=intensity)",
                             zeros="36", more="")),
    ("tensorflow.keras.preprocessing.image.random_shift", "mindspore.dataset.vision.RandomAffine"): (
        _LEGACY_IMAGE.format(name="random_shift", arguments="x, wrg, hrg", target="RandomAffine(0, translate=(wrg, hrg))",
                             zeros="48", more="")),
    ("tensorflow.math.reduce_std", "mindspore.Tensor.std"): (
        "x.std(axis, keepdims) on the tensor gives TensorFlow's population value (float32, also with dim=), and it also "
        "takes int32 input, which TensorFlow refuses" + _RUN),
    ("tensorflow.math.reduce_sum", "mindspore.Tensor.sum"): (
        "x.sum(axis, keepdims) (or dim, keepdim) on the tensor gives the same float values, but int32 input sums to "
        "int64 (TensorFlow keeps int32), and a bool tensor is counted (int64) where TensorFlow refuses it" + _RUN),
    ("tensorflow.math.reduce_variance", "mindspore.Tensor.var"): (
        "x.var(axis, keepdims) on the tensor gives TensorFlow's population variance; the var(dim=...) form raises "
        "RuntimeError on the CPU (kernel Var unregistered)" + _RUN),
}
# The Keras datasets: load_data downloads, so only MnistDataset's side was run.
_MNIST_COLUMNS = "image (28 x 28 x 1 uint8) and label (uint32)"
for _name, _target, _arguments, _labels, _columns, _how in (
        ("cifar10", "Cifar10Dataset", "", " with labels shaped (N, 1)", "image (HWC uint8) and label (uint32)", _READ),
        ("cifar100", "Cifar100Dataset", "label_mode='fine'", " with one kind of label",
         "image, coarse_label and fine_label", _READ),
        ("fashion_mnist", "FashionMnistDataset", "", ", images 28 x 28", _MNIST_COLUMNS, _READ),
        ("imdb", "IMDBDataset", "num_words=None, ...", " of word-index sequences",
         "text (the review as a string, to tokenize yourself) and label", _READ),
        ("mnist", "MnistDataset", "path='mnist.npz'", ", images 28 x 28", _MNIST_COLUMNS, _MNIST)):
    TENSORFLOW_PAGE_DIFFERENCES[(f"tensorflow.keras.datasets.{_name}", f"mindspore.dataset.{_target}")] = _LOAD_DATA.format(
        name=_name, arguments=_arguments, labels=_labels, target=_target, columns=_columns) + _how

# The renames these entries offered (unsafe: the fixer keeps the TensorFlow arguments and changes the callee) do not do
# the TensorFlow call's job: run as written in mindspore 2.10.0 (tools/tensorflow_page_check.py, "... renamed"), each
# raises or reads the arguments as other parameters. No fix; the finding stays, with this sentence first.
_REFUSED = "No fix: {call}(TensorFlow's arguments), the renamed call, raises TypeError (run)"
TENSORFLOW_NO_RENAME: dict[tuple[str, str], str] = {
    (api, target): _REFUSED.format(call=target.rsplit(".", 1)[-1]) for api, target in (
        ("tensorflow.image.central_crop", "mindspore.dataset.vision.CenterCrop"),
        ("tensorflow.image.convert_image_dtype", "mindspore.dataset.transforms.TypeCast"),
        ("tensorflow.image.crop_to_bounding_box", "mindspore.dataset.vision.Crop"),
        ("tensorflow.image.grayscale_to_rgb", "mindspore.dataset.vision.ConvertColor"),
        ("tensorflow.image.pad_to_bounding_box", "mindspore.dataset.vision.Pad"),
        ("tensorflow.image.per_image_standardization", "mindspore.dataset.vision.Normalize"),
        ("tensorflow.image.random_crop", "mindspore.dataset.vision.RandomCrop"),
        ("tensorflow.image.random_flip_left_right", "mindspore.dataset.vision.RandomHorizontalFlip"),
        ("tensorflow.image.random_flip_up_down", "mindspore.dataset.vision.RandomVerticalFlip"),
        ("tensorflow.image.resize", "mindspore.dataset.vision.Resize"),
        ("tensorflow.image.rgb_to_grayscale", "mindspore.dataset.vision.ConvertColor"),
        ("tensorflow.image.rot90", "mindspore.dataset.vision.Rotate"),
        ("tensorflow.io.decode_image", "mindspore.dataset.vision.Decode"),
        ("tensorflow.keras.preprocessing.image.random_rotation", "mindspore.dataset.vision.RandomRotation"),
        ("tensorflow.keras.preprocessing.image.random_shear", "mindspore.dataset.vision.RandomAffine"),
        ("tensorflow.keras.preprocessing.image.random_shift", "mindspore.dataset.vision.RandomAffine"),
        ("tensorflow.gradients", "mindspore.grad"),
        ("tensorflow.keras.initializers.RandomUniform", "mindspore.common.initializer.Uniform"),
        ("tensorflow.keras.metrics.AUC", "mindspore.train.auc"),
        ("tensorflow.data.experimental.CsvDataset", "mindspore.dataset.CSVDataset"),
        ("tensorflow.data.experimental.bucket_by_sequence_length",
         "mindspore.dataset.GeneratorDataset.bucket_batch_by_length"),
    )}
TENSORFLOW_NO_RENAME.update({
    ("tensorflow.keras.initializers.RandomNormal", "mindspore.common.initializer.Normal"): (
        "No fix: the renamed call reads RandomNormal(mean, stddev) as Normal(sigma, mean): (0.0, 0.05) draws 0.05 "
        "every time (run)"),
    ("tensorflow.keras.initializers.TruncatedNormal", "mindspore.common.initializer.TruncatedNormal"): (
        "No fix: the renamed call reads (mean, stddev) as (sigma, mean): (0.0, 0.05) raises RuntimeError, sigma 0 (run)"),
})

# Session 8 (lead, from the fix-polish helper's report): mindspore 2.10.0's ops.full(size, fill_value) gives Int64
# for any Python number without dtype (2, 2.0 and 2.5 all gave Int64, run on the CPU), where torch.full gives float32
# for a float fill; the next matmul with a float tensor then fails. mint.full (from 2.5) has no CPU kernel to check.
NOT_A_RENAME[("torch.full", "r2.4.10")] = (
    "correction: the doc calls this consistent, but mindspore.ops.full(size, fill_value) without dtype gives Int64 for "
    "any Python number (2.0 and 2.5 too; mindspore 2.10.0, CPU), where torch.full gives float32 for a float fill; pass "
    "dtype=mindspore.float32 (or the dtype torch would give)")

# Session 8, second pass (docs/precision.md): a default difference that no call torch accepts can meet. Checked: torch
# 2.13.0 runs arange(5), arange(end=5), arange(2, end=5) and refuses arange(start=2); mindspore 2.10.0's mint.arange
# with its kernel replaced by a recorder passes (0, 5, 1), (0, 5, 1), (2, 5, 1) for them, and ops.arange runs them.
FALSE_DIFFERENCES.update({
    ("torch.arange", "master"): (
        "correction: the doc says the default of end differs, but no call torch accepts omits end (torch 2.13.0: "
        "arange(start=2) raises TypeError) and mint.arange reads a lone start as end (mindspore 2.10.0: `if end is "
        "None: start, end = 0, start`); ops.arange runs on the CPU and agrees, mint.arange has no CPU kernel"
    ),
})

# Session 9 (knowledge9 helper): the doc's only difference for nn.Linear -> mint.nn.Linear is its two extra parameters
# weight_init=None and bias_init=None. mindspore 2.10.0's mint.nn.Linear reads None as HeUniform(sqrt(5)) for the weight
# and Uniform(1/sqrt(in_features)) for the bias: torch's kaiming_uniform_(a=sqrt(5)) and bias bound 1/sqrt(fan_in).
# Drawn side by side (600,000 weights of Linear(300, 2000), 14,000 of Linear(7, 2000), 80,000 biases each): the same
# range, mean and standard deviation, two-sample Kolmogorov-Smirnov statistic 0.0023 and 0.0086 against 1 % critical
# values 0.0030 and 0.0195 (tests/execution/test_default_initialisation.py repeats the comparison).
FALSE_DIFFERENCES.update({
    ("torch.nn.Linear", "master"): (
        "correction: the doc's only difference is MindSpore's extra weight_init=None and bias_init=None, and with None "
        "mint.nn.Linear initialises as torch does (mindspore 2.10.0: HeUniform(sqrt(5)) weight, Uniform(1/sqrt(in_features)) "
        "bias, torch's kaiming_uniform_(a=sqrt(5)) and bias bound; drawn side by side, the distributions agree)"
    ),
})
ADDED_NOTES.update({
    ("torch.full", "r2.4.10"): (
        # tests/execution/test_fill_dtype.py runs what the fix writes (analysis/rules/fill_dtype.py)
        "It truncates too (2.5 gives 2); the fix adds the dtype to a literal fill"),
})
# F.interpolate -> mint.nn.functional.interpolate: when the stated difference matters, and the differences the doc does
# not state (run in torch 2.13.0 and mindspore 2.10.0 on the CPU; tests/execution/test_interpolate_differences.py).
ADDED_NOTES.update({
    ("torch.nn.functional.interpolate", "master"): (
        "antialias matters only where a call passes antialias=True (bilinear/bicubic; it changes every resize but "
        "plain bilinear upsampling). Run in mindspore 2.10.0: an int scale_factor raises TypeError (write 2.0), "
        "modes 'area' and 'nearest-exact' raise ValueError; nearest agrees; linear/bilinear/bicubic have no CPU kernel"),
})
# Session 10 (leftovers10 helper): meshgrid's indexing, run in torch 2.13.0 and mindspore 2.10.0 on the CPU with inputs of
# 3 and 4 elements: torch.meshgrid(a, b) and mint.meshgrid(a, b) (signature `(*tensors, indexing=None)`) both give (3, 4)
# grids ('ij'); ops.meshgrid (`(*inputs, indexing='xy')`) gives (4, 3) unless indexing='ij' is passed (then (3, 4)).
FALSE_DIFFERENCES.update({
    ("torch.meshgrid", "master"): (
        "correction: the doc says the default of indexing differs, but mint.meshgrid(*tensors, indexing=None) indexes as "
        "torch's default 'ij' (mindspore 2.10.0 on the CPU: inputs of 3 and 4 elements give (3, 4) grids, as torch 2.13.0)"),
})
ADDED_NOTES.update({
    ("torch.meshgrid", "r2.4.10"): (
        "ops.meshgrid's indexing defaults to 'xy' where torch's is 'ij' (mindspore 2.10.0 on the CPU: inputs of 3 and 4 "
        "elements give (4, 3) grids, torch (3, 4)): a call that omits indexing needs indexing='ij'; one that passes it "
        "agrees"),
})
# repeat_interleave (precision9's vague "PyTorch involves overloading"), run in torch 2.13.0 and mindspore 2.10.0 on the
# CPU: the overload is torch.repeat_interleave(repeats) (one tensor: each index repeated), which mint.repeat_interleave
# refuses with TypeError; (input, repeats, dim, output_size) with an int or a tensor of repeats reaches mint's kernel
# (none on the CPU: RepeatInterleaveInt/RepeatInterleaveTensor unregistered). ops.repeat_interleave(input, repeats,
# axis=None) runs on the CPU and gives torch's values; x.repeat_interleave(2, dim=1) -> ops.repeat_interleave(x, 2, dim=1)
# raised TypeError, axis=1 runs.
ADDED_NOTES.update({
    ("torch.repeat_interleave", "master"): (
        "The overload is torch.repeat_interleave(repeats), one tensor whose indices are each repeated, which "
        "mint.repeat_interleave refuses (TypeError in mindspore 2.10.0); repeat_interleave(input, repeats, dim, "
        "output_size) with an int or a tensor of repeats is taken as torch takes it (mint has no CPU kernel for it)"),
})
PARAMETER_CORRECTIONS[("torch.repeat_interleave", "r2.4.10")] = (ParameterCorrection(
    fixes=(),
    added=(_row("dim", "axis", "renamed", position=2,
                note="ops.repeat_interleave(input, repeats, axis=None) (2.10.0); dim= raises TypeError there"),
           _row("output_size", None, "removed",
                note="ops.repeat_interleave has no output_size; torch reads it only as the result's length")),
    note="correction: the doc names no parameter; torch's dim is ops.repeat_interleave's axis, and its output_size has "
         "none (torch's one-tensor overload repeat_interleave(repeats) has no ops counterpart)",
    checked="signatures of torch.repeat_interleave (torch 2.13.0) and mindspore.ops.repeat_interleave (mindspore 2.10.0) "
            "read; ops.repeat_interleave(x, 2, axis=1) run on the CPU gives torch's values",
),)
