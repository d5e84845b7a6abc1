"""Turning a match (an entry, a place in the code, a confidence) into a `Finding` with its message and fix.

The factory also applies the user's filters (select, ignore, per-path ignores, minimum confidence,
suppression comments) before anything is built, so filtered matches cost almost nothing.
"""

from __future__ import annotations

import ast
import fnmatch
import os
import re
from functools import lru_cache
from pathlib import PurePosixPath
from typing import Protocol

from ascend_migrate.analysis.findings import Finding, Fix, TextEdit
from ascend_migrate.analysis.restrictions import RESTRICTION_CODE
from ascend_migrate.analysis.source import SourceLines
from ascend_migrate.config import Settings
from ascend_migrate.kb.schema import Entry
from ascend_migrate.taxonomy import CONFIDENCE_RANK, DEFAULT_CODE_FOR_CATEGORY, DEFAULT_SEVERITY, code_matches

Span = tuple[int, int, int, int]  # line, column, end_line, end_column in the engine's convention
# Renames that torch_npu.contrib.transfer_to_npu applies at run time (torch.cuda.*, device strings, 'nccl',
# .cuda()); environment variables and the torch_npu import itself still need the change.
_REMAPPED_BY_AUTO_MIGRATION = frozenset({"NPU101", "NPU102", "NPU103", "NPU105"})
_QUALIFIED_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")


class Located(Protocol):
    """What `span` reads: the position attributes ast gives expressions, statements, keywords and arguments."""

    @property
    def lineno(self) -> int: ...
    @property
    def end_lineno(self) -> int | None: ...
    @property
    def col_offset(self) -> int: ...
    @property
    def end_col_offset(self) -> int | None: ...


class FindingFactory:
    def __init__(self, path: str, settings: Settings, lines: SourceLines, import_names: dict[str, str]) -> None:
        self.path = path
        self.settings = settings
        self.lines = lines
        self.line_offset = 0  # set per chunk: added to ast line numbers
        # qualified name → the module-level name bound to it by an import (for rendering replacements)
        self.import_names = import_names
        self._minimum_confidence = CONFIDENCE_RANK[settings.min_confidence]
        self._ignored = settings.ignore + _per_path_ignores(path, settings)
        self._code_allowed: dict[str, bool] = {}
        # Tests are not where speed matters: no affinity advice in them.
        self._in_tests = is_test_path(path)
        # The file imports torch_npu.contrib.transfer_to_npu: CUDA names are remapped when it runs, so their
        # renames are hints, not warnings (set by the engine from the module's imports).
        self.auto_migration = False
        # Per-file memos: the same API is usually flagged many times in one file.
        # (id of the entry, api) → (headline, suggestion, the entry's key); entries live as long as the process
        self._messages: dict[tuple[int, str], tuple[str, str, str]] = {}
        self._renderings: dict[str, tuple[str, tuple[str, ...]] | None] = {}
        # category → the severity the user set for it (pyproject, CLI or editor); it outranks everything else
        self._user_severities = dict(settings.severity)

    def forget_renderings(self) -> None:
        """The file's imports changed: replacements must be rendered again."""
        self._renderings.clear()

    # --- positions -------------------------------------------------------------------------------------
    def span(self, node: Located) -> Span:
        offset = self.line_offset
        line = node.lineno + offset
        end_line = (node.end_lineno or node.lineno) + offset
        column = self.lines.character_column(line, node.col_offset)
        end_column = self.lines.character_column(end_line, node.end_col_offset or node.col_offset)
        return line, column, end_line, end_column

    def attribute_name_span(self, node: ast.Attribute) -> Span:
        """The span of `name` in `receiver.name` (the ast gives the whole expression)."""
        _, _, end_line, end_column = self.span(node)
        return end_line, end_column - len(node.attr), end_line, end_column

    def substring_span(self, node: Located, text: str) -> Span | None:
        """The span of the first occurrence of `text` inside a one-line node's source (e.g. 'cuda' in "cuda:0")."""
        line, column, end_line, end_column = self.span(node)
        if line != end_line:
            return None
        segment = self.lines.text(line)[column - 1:end_column - 1]
        index = segment.find(text)
        if index < 0:
            return None
        return line, column + index, line, column + index + len(text)

    # --- filters ---------------------------------------------------------------------------------------
    def allowed(self, code: str, confidence: str, line: int) -> bool:
        if CONFIDENCE_RANK[confidence] > self._minimum_confidence:
            return False
        allowed = self._code_allowed.get(code)
        if allowed is None:
            allowed = code_matches(code, self.settings.select) and not code_matches(code, self._ignored)
            self._code_allowed[code] = allowed
        return allowed and not self.lines.is_suppressed(line, code)

    # --- building --------------------------------------------------------------------------------------
    def finding(
        self,
        entry: Entry,
        span: Span,
        confidence: str,
        api: str | None = None,
        fix: Fix | None = None,
        code: str | None = None,
        message: str | None = None,
        remappable: bool = True,
    ) -> Finding | None:
        category = entry.category
        if not entry.reported or (category == "npu-affinity" and self._in_tests):
            return None
        code = code or entry.code or DEFAULT_CODE_FOR_CATEGORY[category]
        if not self.allowed(code, confidence, span[0]):
            return None
        api = api or entry.api
        texts = self._messages.get((id(entry), api))
        if texts is None:
            texts = self._messages[(id(entry), api)] = (headline(entry, api), suggestion(entry), entry.key)
        headline_text = message or texts[0]
        # The one place a finding's severity is decided (every face shows it as it is): the user's setting
        # for the category, else a hint for a rename transfer_to_npu does at run time, else the entry's own,
        # else the category's default.
        remapped = remappable and self.auto_migration and code in _REMAPPED_BY_AUTO_MIGRATION
        if remapped:
            headline_text += " (remapped at run time here: the file imports transfer_to_npu)"
        severity = self._user_severities.get(category) or ("hint" if remapped else entry.severity or DEFAULT_SEVERITY[category])
        # Positional: a scan builds tens of thousands of these (the order of Finding's fields).
        return Finding(self.path, span[0], span[1], span[2], span[3], code, category, severity, api,
                       headline_text, texts[1], confidence, entry.docs[0] if entry.docs else "", fix, texts[2])

    def rename_fix(self, entry: Entry, span: Span, replaced_root: str | None, also_remove: tuple[str, ...] = ()) -> Fix | None:
        """Replace a reference with the entry's target, rendered with the file's own import names; the import of
        `replaced_root` (and of the names in `also_remove`) goes once nothing uses it."""
        target = entry.target
        if entry.fix == "none" or not target:
            return None
        if target in self._renderings:
            rendering = self._renderings[target]
        else:  # None for a target that is not a dotted name (prose in a table): no rename then
            rendering = self._renderings[target] = render_name(target, self.import_names) if _QUALIFIED_NAME.match(target) else None
        if rendering is None:
            return None
        text, imports = rendering
        return Fix(
            title=f"Replace with `{entry.target}`",
            safe=entry.fix == "safe",
            edits=(TextEdit(span[0], span[1], span[2], span[3], text),),
            add_imports=imports,
            remove_imports=((replaced_root,) if replaced_root else ()) + also_remove,
        )

    def text_fix(self, entry: Entry, span: Span, new_text: str, title: str, add_imports: tuple[str, ...] = ()) -> Fix | None:
        if entry.fix == "none":
            return None
        return Fix(title=title, safe=entry.fix == "safe", edits=(TextEdit(span[0], span[1], span[2], span[3], new_text),),
                   add_imports=add_imports)


def is_test_path(path: str) -> bool:
    """A pytest file by its name: test_x.py, x_test.py or conftest.py (directories say nothing: a whole project
    may live under one named tests)."""
    name = path.replace("\\", "/").rsplit("/", 1)[-1]
    return name.startswith("test_") or name.endswith("_test.py") or name == "conftest.py"


def render_name(target: str, import_names: dict[str, str]) -> tuple[str, tuple[str, ...]]:
    """How to write `target` in this file, and the imports that makes necessary.

    The longest prefix of `target` that the file already imports is written with the file's own name for it
    (`import torch as T` makes torch.npu.synchronize `T.npu.synchronize`).
    """
    needs: list[str] = []
    if target.startswith("torch.npu.") or target.startswith("torch_npu."):
        needs.append("import torch_npu")
    parts = target.split(".")
    for length in range(len(parts), 0, -1):
        prefix = ".".join(parts[:length])
        bound = import_names.get(prefix)
        if bound:
            return ".".join([bound, *parts[length:]]), tuple(needs)
    if target.startswith("mindspore.mint."):
        return "mint." + target[len("mindspore.mint."):], ("from mindspore import mint",)
    root = parts[0]
    statement = f"import {root}"
    if statement not in needs:
        needs.insert(0, statement)
    return target, tuple(needs)


def headline(entry: Entry, api: str) -> str:
    target = f"`{entry.target}`" if entry.target else ""
    note = entry.note.strip()
    category = entry.category
    if category == "ms-equivalent":
        text = f"`{api}` maps to {target} in MindSpore" if target else f"`{api}` has a MindSpore equivalent"
    elif category == "ms-differs":
        text = f"`{api}` maps to {target}, which differs" if target else f"`{api}` differs in MindSpore"
    elif category == "ms-unsupported":
        # The fallback for a public name no table maps (api "*", rules/names.py) knows of no equivalent, which is not
        # knowing there is none (torch.linalg.svd: mindspore.ops.svd exists).
        text = f"`{api}` has no entry in the knowledge base" if entry.api == "*" else f"`{api}` has no MindSpore equivalent"
    elif category == "npu-rename":
        if target and not _CUDA_WORDS.search(api):
            # torch.profiler.profile → torch_npu.profiler.profile: a counterpart, but nothing of it is CUDA's
            text = f"`{api}` has an Ascend counterpart; on Ascend use {target}"
        else:
            text = f"`{api}` is CUDA-specific; on Ascend use {target}" if target else f"`{api}` is CUDA-specific"
    elif category == "npu-affinity":
        text = f"`{api}` has an NPU-affine replacement: {target}" if target else f"`{api}` has an NPU-affine replacement"
    elif category == "npu-dynamic-shape":
        if entry.condition in _INDEX_WRITES:  # the tensor keeps its shape: the cost is the write (IndexPut)
            text = f"`{api}` writes through an index tensor (IndexPut)"
        else:
            text = f"`{api}` has a data-dependent output shape"
    elif category == "npu-unsupported":
        text = f"`{api}` {_NPU_UNSUPPORTED_VERBS.get(entry.code or '', 'is not supported on Ascend NPU')}"
    elif category == "third-party":
        text = f"`{api}` is CUDA-only or needs an Ascend build"
    else:  # ms-structure
        text = f"`{api}`: program structure changes in MindSpore"
    if note:
        text = f"{text}: {full_note(note)}"
    return text


# Names of NVIDIA's stack: an npu-rename row's name with none of them (torch.profiler.ProfilerActivity.CPU) is not CUDA's.
_CUDA_WORDS = re.compile(r"cuda|gpu|nccl|nvtx|nvml|cudnn|cublas|nvidia", re.IGNORECASE)


# Pattern conditions of the npu-dynamic-shape rows that are writes (`x[mask] = 0`): the written tensor's shape does not
# change; the rows' notes say what IndexPut costs on Ascend (AI CPU, no graph-mode converter).
_INDEX_WRITES = frozenset({"boolean-mask-assignment", "integer-tensor-index-assignment"})


# What each npu-unsupported code claims (analysis/codes.py): only NPU201 says "not supported".
_NPU_UNSUPPORTED_VERBS = {
    "NPU201": "is not supported on Ascend NPU",
    "NPU202": "works differently on Ascend NPU",
    "NPU203": "has no effect or another meaning on Ascend NPU",
    # The row says "supported with restriction", and the call passes what the restriction concerns.
    RESTRICTION_CODE: "is supported on Ascend NPU with a restriction this call meets",
}


def full_note(note: str) -> str:
    """The note as one line, whole: nothing is cut (the first sentence says what to do, the rest why; reports,
    hover and the editor show the same text). A generated TensorFlow row whose doc gives no description gets a
    true one instead."""
    text = " ".join(note.split())
    if text.startswith(_UNDESCRIBED_TENSORFLOW_ROW):
        text = _UNDESCRIBED_TENSORFLOW_NOTE + text[len(_UNDESCRIBED_TENSORFLOW_ROW):].removeprefix(".")
    return text.rstrip(";, ")


# tools/generate_mappings/notes.py writes this for a row of MindSpore's TensorFlow mapping table that is marked
# as differing but has no description (its diff column is empty).
_UNDESCRIBED_TENSORFLOW_ROW = "the doc gives no description; see the mapping table"
_UNDESCRIBED_TENSORFLOW_NOTE = ("MindSpore's TensorFlow mapping table marks this pair as different without saying how; "
                                "compare the arguments and defaults of both before you replace the call.")

# What to do, for rows that carry no suggestion and no target (the code's meaning, applied to one call).
_ADVICE_BY_CODE = {
    "NPU101": "Replace the CUDA API as the note says.",
    "NPU102": "Pass 'npu' (or 'npu:<index>') where this call takes a CUDA device.",
    "NPU201": "Replace the call with one Ascend supports, or run this step on the CPU (inputs moved with .cpu()).",
    "NPU202": "Change the call as the note says: the same code behaves differently on Ascend.",
    "NPU401": "Keep shapes static on the NPU: compute this on the CPU, or use a fixed-shape form (masking, padding).",
    "TP101": "Replace the library, or install a build of it for the target (see the note).",
}


# msfmktransplt's precision advice (nn.Embedding: "may have an issue with uncertain backward calculation results"):
# the call runs on Ascend, so "change the call" asked for a change the note never names (minGPT-ddp, session 9).
_PRECISION_ADVICE = "Precision advice (msfmktransplt)"
_PRECISION_ADVICE_TO_DO = ("Nothing to change for the program to run on Ascend: if its results differ from the GPU "
                           "run's, look here first (the note says what may differ).")


def suggestion(entry: Entry) -> str:
    if entry.suggestion:
        return entry.suggestion
    if entry.target:
        return f"use `{entry.target}`"
    if entry.note.startswith(_PRECISION_ADVICE):
        return _PRECISION_ADVICE_TO_DO
    return _ADVICE_BY_CODE.get(entry.code or DEFAULT_CODE_FOR_CATEGORY[entry.category], "")


def _per_path_ignores(path: str, settings: Settings) -> tuple[str, ...]:
    if not settings.per_path_ignores:
        return ()
    candidates = {path, PurePosixPath(path).name}
    codes: list[str] = []
    for matches, pattern_codes in _compiled_per_path_ignores(settings.per_path_ignores):
        if any(matches(candidate) for candidate in candidates):
            codes.extend(pattern_codes)
    return tuple(codes)


@lru_cache(maxsize=16)
def _compiled_per_path_ignores(per_path_ignores: tuple[tuple[str, tuple[str, ...]], ...]):
    """Each glob compiled once per configuration (as `pattern` or `*/pattern`, fnmatch's meaning), not once per
    file and finding: the editor analyses on every keystroke."""
    compiled = []
    for pattern, pattern_codes in per_path_ignores:
        anywhere = "|".join(fnmatch.translate(os.path.normcase(glob)) for glob in (pattern, f"*/{pattern}"))
        compiled.append((_matcher(re.compile(anywhere)), pattern_codes))
    return tuple(compiled)


def _matcher(expression: re.Pattern):
    return lambda text: expression.match(os.path.normcase(text)) is not None
