"""The knowledge-base schema: one entry shape for every table in mappings/ (documented in mappings/README.md)."""

from __future__ import annotations

from dataclasses import dataclass

from ascend_migrate.kb.versions import ANY_VERSION, VersionRange
from ascend_migrate.pickling import pickled_by_position

# How the engine recognises the source API of an entry in code.
MATCH_KINDS = (
    "name",  # a reference to the qualified name: call, attribute read or write, base class, decorator, annotation
    "method",  # `<receiver>.method(...)` / `<receiver>.attribute`; api is `Type.method`, e.g. torch.Tensor.view
    "import",  # importing the module (or any submodule): `import amp_C`, `from apex.optimizers import FusedAdam`
    "string",  # a string literal in a role the condition names: device, backend, environment variable
    "definition",  # defining a method in a subclass of a type: api `torch.nn.Module.forward`
    "pattern",  # a code shape the engine recognises by the pattern name in `condition`
)
FIX_SAFETY = ("safe", "unsafe", "none")
# `complement`: the target parameter holds 1 - the source value (torch Dropout p vs MindSpore keep_prob,
# BatchNorm momentum 0.1 vs 0.9 in mindspore.nn); a fix writes `1 - value` under the target name.
CHANGES = ("renamed", "removed", "added", "default", "meaning", "type", "position", "same", "complement")


@pickled_by_position
@dataclass(frozen=True, slots=True)
class ParameterDifference:
    """One parameter that differs between the source API and its target."""

    source: str | None  # the parameter in the source API; None when only the target has it
    target: str | None  # the parameter in the target API; None when the target has no counterpart
    change: str  # one of CHANGES
    source_default: str | None = None
    target_default: str | None = None
    note: str = ""
    # 0-based index of the source parameter in the source signature, so a positional argument is found
    position: int | None = None


@pickled_by_position
@dataclass(frozen=True, slots=True)
class CallCondition:
    """When an entry applies at a call: the argument is passed (and, with `values`, has one of those values; with
    `other_than`, any other value), or, with `missing`, it is not passed. Values are compared as written: a
    literal's value (`False`, `'cudagraphs'`, `0`) or a name's last part (`torch.preserve_format` →
    `preserve_format`, a variable `dtype` → `dtype`). `values` is met only by the value written at the call; a
    variable may hold anything, so it meets `other_than` unless it is named like an allowed value. `**options`
    and `*arguments` may or may not hold the argument: they meet nothing."""

    argument: str
    position: int | None = None  # 0-based position when the argument may be passed positionally
    values: tuple[str, ...] = ()
    other_than: tuple[str, ...] = ()
    missing: bool = False  # the condition also holds when the argument is not passed (its default is restricted)
    present: bool = True  # False: it holds only when the argument is not passed (torch.load without map_location)
    unless_number: bool = False  # a number literal never meets it (repeat_interleave(2): a static shape)
    # The dtypes the Ascend table lists for the op: a tensor of any other dtype passed as the argument meets it.
    # Only a run sees dtypes (`ascend-migrate run`); the static engine ignores such a condition.
    dtypes: tuple[str, ...] = ()
    derived_from: str = ""  # the reference text a derived condition was read from (the table's dtype list)


@pickled_by_position
@dataclass(frozen=True, slots=True)
class Entry:
    """What the knowledge base knows of one source API for one route (and one version range)."""

    api: str
    route: str  # "mindspore" or "npu"
    category: str
    table: str  # the file stem in mappings/ this entry comes from
    index: int  # position in its table; (table, index) is the entry's key
    line: int  # line in its YAML file, for error messages and `kb lookup`
    provenance: str
    match: str = "name"
    code: str | None = None
    target: str | None = None
    note: str = ""
    suggestion: str = ""
    parameters: tuple[ParameterDifference, ...] = ()
    source_versions: VersionRange = ANY_VERSION
    target_versions: VersionRange = ANY_VERSION
    docs: tuple[str, ...] = ()
    fix: str = "none"
    verified: str = ""
    curated: bool = False
    receiver: str = ""  # for match=method: tensor, module, optimizer; "any" matches by method name alone
    condition: str = ""
    severity: str | None = None
    # the calls the entry concerns (a restriction's argument or value); empty: every use of the api
    when: tuple[CallCondition, ...] = ()
    note_original: str = ""  # the note as the source wrote it (e.g. Chinese), when `note` is a translation
    # False: knowledge kept (lookup, coverage, provenance) that is no change a user must make, so never a finding
    reported: bool = True
    # match=pattern: a shape described for `kb lookup` and the docs that no matcher recognises (never reported)
    documentation_only: bool = False
    # For what cannot run side by side (optimizers, schedulers, data pipelines, distributed, randomness): the
    # difference a person found, or why there is none, and who checked it when and how
    review: str = ""
    # A difference the side-by-side run saw only on edge inputs (NaN and inf, masked rows, integer or float64 dtypes,
    # 0-d, empty): one sentence for the hover, so that real code gets no warning on every call for it
    edge_difference: str = ""

    @property
    def key(self) -> str:
        return f"{self.table}:{self.index}"

    @property
    def method_name(self) -> str:
        return self.api.rsplit(".", 1)[-1]

    @property
    def receiver_type(self) -> str:
        """For method entries: the type part of the api (`torch.Tensor` for `torch.Tensor.view`)."""
        return self.api.rsplit(".", 1)[0] if "." in self.api else ""
