"""Incremental re-analysis gives exactly what a full analysis gives, and re-walks only what an edit touched."""

import textwrap

import pytest

from ascend_migrate.analysis.engine import ChunkRunner, analyze_module
from ascend_migrate.analysis.incremental import LineEdit, analyze_document
from ascend_migrate.config import Settings

SCRIPT = textwrap.dedent('''
    """Train a classifier on several GPUs."""
    import os
    import torch
    import torch.nn as nn
    import torch.distributed as dist

    os.environ["CUDA_VISIBLE_DEVICES"] = "0,1"


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(8, 2)

        def forward(self, x):
            return self.fc(x)


    def setup(rank):
        dist.init_process_group("nccl", rank=rank)
        torch.cuda.synchronize()


    def train(model, loader, rank):
        model = model.cuda()
        for batch in loader:
            batch = batch.to(f"cuda:{rank}")
            loss = model(batch).sum()
            loss.backward()
        torch.cuda.synchronize()


    if __name__ == "__main__":
        setup(0)
''')

EDITS = [
    "model = Net()",
    "def setup(rank, world):",
    "class Net:",
    "        torch.cuda.synchronize()",
    "x = torch.zeros(3, device='cuda')",
    "import torch.cuda as tc",
    "from mindspore import mint",
    "import torch_npu",
    "import torch.nn as nn",
    "def broken(:",
    "",
    "class Other(nn.Module):",
    "    model.train()",
    '"""',
]


def apply(lines: list[str], start: int, end: int, replacement: list[str]) -> list[str]:
    return lines[: start - 1] + replacement + lines[end:]


def as_tuples(analysis):
    return [(f.line, f.column, f.end_line, f.end_column, f.code, f.api, f.fix) for f in findings_of(analysis)]


def findings_of(analysis):
    return analysis if isinstance(analysis, list) else analysis.findings


def parsed_only(analysis):
    """The findings of the statements that parse (what a full analysis of the same text finds), with the module's
    own (unused imports: none while a statement does not parse)."""
    found = [finding for chunk in analysis.chunks if not chunk.error for finding in chunk.findings]
    return sorted(found + analysis.unused_imports, key=lambda finding: (finding.line, finding.column, finding.code))


def kept_only(analysis):
    return [finding for chunk in analysis.chunks if chunk.error for finding in chunk.findings]


def expected_kept(before, after, line, replacement):
    """What the statements that stopped parsing keep after line `line` became `replacement`: the earlier
    findings on their lines, moved by the change in line count, except those on a line whose text changed
    or across an inserted line (written out for these three kinds of edit, not with the engine's code)."""
    inserted = replacement[:1] == [before.lines[line - 1]] and len(replacement) == 2
    unchanged = replacement == [before.lines[line - 1]]
    delta = len(replacement) - 1
    kept = []
    for finding in before.findings:
        if inserted and finding.line <= line < finding.end_line:
            continue
        if not inserted and not unchanged and finding.line <= line <= finding.end_line:
            continue
        moved = finding.shifted(delta) if finding.line > line else finding
        if any(chunk.error and chunk.start <= moved.line and moved.end_line <= chunk.end for chunk in after.chunks):
            kept.append(moved)
    return as_tuples(kept)


@pytest.mark.parametrize("target", ["npu", "mindspore"])
def test_every_single_line_edit_matches_a_full_analysis(test_knowledge_base, target):
    settings = Settings(target=target)
    lines = SCRIPT.split("\n")
    before = analyze_module(SCRIPT, "train.py", settings, test_knowledge_base)
    checked = 0
    for line in range(1, len(lines) + 1):
        for replacement in ([], [EDITS[line % len(EDITS)]], [lines[line - 1], EDITS[(line + 3) % len(EDITS)]]):
            new_lines = apply(lines, line, line, replacement)
            new_text = "\n".join(new_lines)
            edit = LineEdit(line, line, line + len(replacement) - 1)
            incremental = analyze_document(new_text, "train.py", settings, before, edit, test_knowledge_base)
            full = analyze_module(new_text, "train.py", settings, test_knowledge_base)
            assert as_tuples(parsed_only(incremental)) == as_tuples(full), (line, replacement)
            assert as_tuples(kept_only(incremental)) == expected_kept(before, incremental, line, replacement), (line, replacement)
            assert [e.line for e in incremental.errors] == [e.line for e in full.errors], (line, replacement)
            checked += 1
    assert checked == 3 * len(lines)


def test_an_edit_in_a_function_body_reuses_the_other_chunks(test_knowledge_base):
    settings = Settings(target="npu")
    before = analyze_module(SCRIPT, "train.py", settings, test_knowledge_base)
    lines = SCRIPT.split("\n")
    sync_lines = [number for number, text in enumerate(lines, 1) if text == "    torch.cuda.synchronize()"]
    line = sync_lines[0]
    new_text = "\n".join(apply(lines, line, line, ["    torch.cuda.synchronize()", "    torch.cuda.synchronize()"]))
    after = analyze_document(new_text, "train.py", settings, before, LineEdit(line, line, line + 1), test_knowledge_base)
    untouched = [chunk for chunk in after.chunks if any(chunk is old for old in before.chunks)]
    edited_function = next(index for index, chunk in enumerate(before.chunks) if chunk.start <= line <= chunk.end)
    assert untouched == before.chunks[:edited_function]  # everything above the edit is reused as is
    assert len(after.chunks) == len(before.chunks)
    assert [f.line for f in after.findings if f.api == "torch.cuda.synchronize"] == [line, line + 1, sync_lines[1] + 1]


def test_a_new_module_level_name_re_walks_only_the_chunks_that_read_it(test_knowledge_base):
    settings = Settings(target="npu")
    source = "import torch\n\ndef make():\n    return helper()\n\ndef other():\n    torch.cuda.synchronize()\n"
    before = analyze_module(source, "a.py", settings, test_knowledge_base)
    after_text = "import torch\nhelper = torch.nn.Linear\ndef make():\n    return helper()\n\ndef other():\n    torch.cuda.synchronize()\n"
    after = analyze_document(after_text, "a.py", settings, before, LineEdit(2, 2, 2), test_knowledge_base)
    assert after.chunks[-1] is before.chunks[-1]  # `other` does not read `helper`: kept as it was
    assert after.chunks[-2] is not before.chunks[-2]  # `make` reads it: analysed again
    assert as_tuples(after) == as_tuples(analyze_module(after_text, "a.py", settings, test_knowledge_base))


def test_a_new_import_re_walks_the_chunks_that_use_it(test_knowledge_base):
    settings = Settings(target="npu")
    source = "import torch\n\ndef f():\n    tc.synchronize()\n"
    before = analyze_module(source, "a.py", settings, test_knowledge_base)
    assert before.findings == []
    after_text = "import torch\nimport torch.cuda as tc\ndef f():\n    tc.synchronize()\n"
    after = analyze_document(after_text, "a.py", settings, before, LineEdit(2, 2, 2), test_knowledge_base)
    assert [(f.line, f.api) for f in after.findings] == [(4, "torch.cuda.synchronize")]


def test_line_edits_compose():
    first = LineEdit(10, 10, 12)  # line 10 became three lines
    second = LineEdit(20, 21, 20)  # later, two lines became one (in the new numbering)
    assert first.then(second) == LineEdit(10, 19, 20)
    # Insert two lines after line 2, then edit line 10 of the new text (line 8 of the old one).
    assert LineEdit(2, 2, 4).then(LineEdit(10, 10, 10)) == LineEdit(2, 8, 10)
    # Edit inside the block the first edit produced.
    assert LineEdit(2, 2, 4).then(LineEdit(3, 3, 3)) == LineEdit(2, 2, 4)
    # Delete three lines, then type above them.
    assert LineEdit(5, 8, 5).then(LineEdit(1, 1, 1)) == LineEdit(1, 8, 5)


def test_a_statement_being_typed_keeps_its_findings_until_it_parses_again(test_knowledge_base):
    settings = Settings(target="npu")
    lines = SCRIPT.split("\n")
    sync = len(lines) - lines[::-1].index("    torch.cuda.synchronize()")  # the last line of train()
    cuda = lines.index("    model = model.cuda()") + 1
    before = analyze_module(SCRIPT, "train.py", settings, test_knowledge_base)
    in_train = [(f.line, f.api) for f in before.findings if cuda <= f.line <= sync]
    assert len(in_train) >= 3
    # Enter at the end of `model = model.cuda()`, then `mem = torch.` on the new line.
    typing = apply(lines, cuda, cuda, [lines[cuda - 1], "    mem = torch."])
    during = analyze_document("\n".join(typing), "train.py", settings, before, LineEdit(cuda, cuda, cuda + 1), test_knowledge_base)
    assert [e.line for e in during.errors] == [analyze_module("\n".join(typing), "train.py", settings).errors[0].line]
    assert [(f.line, f.api) for f in during.findings if cuda <= f.line <= sync + 1] == [
        (line + (line > cuda), api) for line, api in in_train
    ]
    # The next keystroke starts from the analysis that kept them: they stay.
    typing[cuda] = "    mem = torch.c"
    still = analyze_document("\n".join(typing), "train.py", settings, during, LineEdit(cuda + 1, cuda + 1, cuda + 1), test_knowledge_base)
    assert [(f.line, f.api) for f in still.findings] == [(f.line, f.api) for f in during.findings]
    # Once the line parses, the findings are the engine's own again, the new line's included.
    typing[cuda] = "    mem = torch.cuda.synchronize()"
    parsed = analyze_document("\n".join(typing), "train.py", settings, still, LineEdit(cuda + 1, cuda + 1, cuda + 1), test_knowledge_base)
    assert not parsed.errors
    assert as_tuples(parsed) == as_tuples(analyze_module("\n".join(typing), "train.py", settings, test_knowledge_base))
    assert (cuda + 1, "torch.cuda.synchronize") in [(f.line, f.api) for f in parsed.findings]


def test_a_file_that_does_not_parse_on_its_own_keeps_nothing(test_knowledge_base):
    """The CLI's view: without an earlier analysis, the function that does not parse has no findings and the
    syntax error is reported."""
    settings = Settings(target="npu")
    text = SCRIPT.replace("    model = model.cuda()\n", "    model = model.cuda()\n    mem = torch.\n")
    analysis = analyze_document(text, "train.py", settings, None, None, test_knowledge_base)
    (error,) = analysis.errors
    assert error.message.startswith("syntax error")
    assert not [f for f in analysis.findings if f.api == "torch.Tensor.cuda"]


def test_adding_or_removing_the_torch_npu_import_re_walks_only_the_chunks_that_may_import_torch(monkeypatch):
    """The `import torch` finding (torch_npu never imported, in a program) comes and goes with the torch_npu
    import (the shipped knowledge base has it); the other chunks are not walked again."""
    settings = Settings(target="npu")
    without = 'import torch\n\ndef f():\n    torch.cuda.synchronize()\n\nimport os\n\nif __name__ == "__main__":\n    f()\n'
    with_import = without.replace("import os", "import torch_npu")
    walked = []
    original_walk = ChunkRunner.walk

    def counted_walk(self, chunks, scope_for=None):
        chunks = list(chunks)
        walked.extend(chunk.start for chunk in chunks)
        return original_walk(self, chunks, scope_for)

    for old, new in ((without, with_import), (with_import, without)):
        before = analyze_module(old, "train.py", settings)
        monkeypatch.setattr(ChunkRunner, "walk", counted_walk)
        walked.clear()
        after = analyze_document(new, "train.py", settings, before, LineEdit(6, 6, 6))
        monkeypatch.undo()
        full = analyze_module(new, "train.py", settings)
        assert as_tuples(after) == as_tuples(full)
        assert walked == [3, 6, 1]  # the edited chunk (with the one above it), then `import torch`; not the rest
    assert [f.line for f in analyze_module(without, "train.py", settings).findings if f.api == "torch"] == [1]
    assert [f.line for f in analyze_module(with_import, "train.py", settings).findings if f.api == "torch"] == []


def test_an_unused_torch_import_follows_edits_anywhere_in_the_module():
    """MS231 is decided from every chunk's walk: a use added far below the import (a chunk the edit re-walks, not the
    import's) takes the finding away, and removing it brings the finding back, as a full analysis says."""
    settings = Settings(target="mindspore")  # the real knowledge base: MS231 is a pattern of mappings/structure.yaml
    source = "import torch\nimport torch.nn.functional as F\n\n\ndef act(x):\n    return torch.relu(x)\n"
    before = analyze_module(source, "a.py", settings)
    assert [(f.line, f.code) for f in before.findings if f.code == "MS231"] == [(2, "MS231")]
    used = source.replace("torch.relu(x)", "F.relu(x)")
    after = analyze_document(used, "a.py", settings, before, LineEdit(6, 6, 6))
    assert after.chunks[1] is before.chunks[1]  # the import's own chunk was not walked again
    # F is used now; `torch` is not looked up any more but the other import's text names it: left alone (say less)
    assert [f for f in after.findings if f.code == "MS231"] == []
    assert as_tuples(after) == as_tuples(analyze_module(used, "a.py", settings))
    again = analyze_document(source, "a.py", settings, after, LineEdit(6, 6, 6))
    assert as_tuples(again) == as_tuples(before)
