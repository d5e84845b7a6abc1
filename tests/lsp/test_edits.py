"""The server's own edits: the suppression comment and the top-of-file import block."""

from __future__ import annotations

from ascend_migrate.analysis.findings import TextEdit
from ascend_migrate.fixes import apply_edits
from ascend_migrate.lsp.documents import split_lines
from ascend_migrate.lsp.edits import add_imports_edit, suppression_edit

IMPORTS = ("import torch_npu", "from torch_npu.contrib import transfer_to_npu")


def suppress(text: str, line: int, code: str) -> str:
    edit = suppression_edit(split_lines(text), line, code)
    assert edit is not None
    return apply_edits(text, [edit])


def test_a_hash_inside_a_string_is_not_a_comment():
    text = 'print("# ascend-migrate: ignore[NPU101]"); torch.cuda.synchronize()\n'
    assert suppress(text, 1, "NPU101") == text.rstrip("\n") + "  # ascend-migrate: ignore[NPU101]\n"


def test_a_suppression_for_the_same_code_or_a_bare_one_needs_no_edit():
    assert suppression_edit(["x = 1  # ascend-migrate: ignore[NPU101]\n"], 1, "NPU101") is None
    assert suppression_edit(["x = 1  # ascend-migrate: ignore\n"], 1, "NPU101") is None


def test_trailing_spaces_are_replaced_and_crlf_kept():
    assert suppress("x.cuda()   \r\ny = 2\r\n", 1, "NPU105") == "x.cuda()  # ascend-migrate: ignore[NPU105]\r\ny = 2\r\n"


def test_imports_go_after_the_docstring_and_future_imports():
    text = '"""Doc\nstring."""\nfrom __future__ import annotations\n\nimport torch\n'
    assert apply_edits(text, [add_imports_edit(text, IMPORTS)]) == (
        '"""Doc\nstring."""\nfrom __future__ import annotations\nimport torch_npu\nfrom torch_npu.contrib import transfer_to_npu\n\nimport torch\n'
    )


def test_imports_go_below_a_shebang_and_licence_header():
    text = "#!/usr/bin/env python\n# Copyright 2024\nimport torch\n"
    edit = add_imports_edit(text, IMPORTS)
    assert edit == TextEdit(3, 1, 3, 1, "import torch_npu\nfrom torch_npu.contrib import transfer_to_npu\n")


def test_only_the_missing_import_is_added_and_a_file_without_final_newline_is_handled():
    text = '"""Only a docstring."""'
    assert apply_edits(text, [add_imports_edit(text, IMPORTS)]) == (
        '"""Only a docstring."""\nimport torch_npu\nfrom torch_npu.contrib import transfer_to_npu\n'
    )
    assert add_imports_edit("import torch_npu\nimport torch\n", IMPORTS) == TextEdit(
        1, 1, 1, 1, "from torch_npu.contrib import transfer_to_npu\n"
    )
    assert add_imports_edit("import torch_npu\nfrom torch_npu.contrib import transfer_to_npu\n", IMPORTS) is None


def test_plain_text_keeps_names_and_quotes_phrases():
    from ascend_migrate.lsp.convert import plain_text

    assert plain_text("`torch.cuda.synchronize` is CUDA-specific") == "torch.cuda.synchronize is CUDA-specific"
    assert plain_text("`'cuda'` is CUDA-specific; use `\"npu\"`") == "'cuda' is CUDA-specific; use \"npu\""
    assert plain_text("`import torch` without `import torch_npu`") == "'import torch' without 'import torch_npu'"
    assert plain_text("a lone ` stays") == "a lone ` stays"
