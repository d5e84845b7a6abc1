"""The `load-checkpoint` fix family: `torch.load("model.pth", map_location=...)` → `mindspore.load_checkpoint("model.ckpt")`.

The new path is the one `ascend-migrate weights convert model.pth` writes (the suffix becomes .ckpt), so the
fixed program reads the converted checkpoint, never the .pth that load_checkpoint cannot read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ascend_migrate.fixes.families.base import Rewrite, Span
from ascend_migrate.pickling import pickled_by_position

if TYPE_CHECKING:
    from ascend_migrate.fixes.text import LineIndex, TextEdit

DEFAULT_CALLEE = "mindspore.load_checkpoint"
# What `weights convert` reads; a literal path with one of these suffixes is what the fix rewrites.
CONVERTIBLE_SUFFIXES = (".pth", ".pt", ".bin", ".safetensors")


def converted_path(path: str) -> str | None:
    """`checkpoints/model.pth` → `checkpoints/model.ckpt` (what `weights convert` writes by default: SRC with the
    suffix .ckpt; tests/weights keeps the two equal); the same for a .ckpt; None for any other path."""
    stem, dot, suffix = path.rpartition(".")
    if not dot or "/" in suffix or "\\" in suffix:
        return None
    if f".{suffix.lower()}" in CONVERTIBLE_SUFFIXES:
        return f"{stem}.ckpt"
    return path if suffix.lower() == "ckpt" else None


@pickled_by_position
@dataclass(frozen=True, slots=True)
class LoadCheckpoint(Rewrite):
    """`call` is the `torch.load(...)` call, `path` the converted checkpoint's path, `callee` what replaces torch.load."""

    NAME = "load-checkpoint"
    SPAN_FIELDS = ("call",)

    call: Span
    path: str
    callee: str = DEFAULT_CALLEE

    def edits(self, source: str, index: LineIndex) -> list[TextEdit]:
        import libcst  # loaded only to fix

        from ascend_migrate.fixes.arguments import node_text, parse_call, parse_expression
        from ascend_migrate.fixes.errors import FixError
        from ascend_migrate.fixes.node_diff import rewrite_edits

        call, text = parse_call(index, self.call)
        callee = self.callee or DEFAULT_CALLEE
        if node_text(call.func) == callee:
            return []
        first = next((arg for arg in call.args if arg.keyword is None or arg.keyword.value == "f"), None)
        if first is None or first.star or not isinstance(first.value, libcst.SimpleString):
            return []  # the path is computed: which file convert wrote is not known here
        try:
            new_func = parse_expression(callee)
        except libcst.ParserSyntaxError:
            raise FixError(f"{callee!r} is not a Python expression") from None
        quote = first.value.quote
        literal = libcst.SimpleString(f"{first.value.prefix}{quote}{self.path}{quote}")
        # Only the path is kept: map_location, weights_only, mmap and pickle_module have no counterpart.
        rewritten = call.with_changes(func=new_func, args=[libcst.Arg(value=literal)])
        return rewrite_edits(call, rewritten, text, self.call[0], self.call[1])
