"""The editor's fix-all re-analyses only what each pass edited, starting from the document's own analysis.

`fix_all_edits` gets the engine's analysis of the open document (the one that gave its diagnostics); the
passes after the first then follow their edits, as `ascend-migrate fix` does, and give the same edits as a
full re-analysis would.
"""

from __future__ import annotations

from ascend_migrate.analysis import engine
from ascend_migrate.analysis.incremental import analyze_document
from ascend_migrate.config import Settings
from ascend_migrate.lsp.edits import fix_all_edits

SOURCE = 'import torch\n\ndevice = torch.device("cuda")\ntorch.cuda.synchronize()\n' + "x = 1\n" * 20_000 + "torch.cuda.synchronize()\n"


def test_fix_all_from_the_documents_analysis_walks_only_the_edited_statements(monkeypatch):
    settings = Settings(target="npu")
    analysis = analyze_document(SOURCE, "train.py", settings)
    full = fix_all_edits(SOURCE, analysis.findings, settings)
    walked: list[int] = []
    original_walk = engine.ChunkRunner.walk

    def counted_walk(self, chunks, scope_for=None):
        chunks = list(chunks)
        walked.append(len(chunks))
        return original_walk(self, chunks, scope_for)

    monkeypatch.setattr(engine.ChunkRunner, "walk", counted_walk)
    following = fix_all_edits(SOURCE, analysis.findings, settings, analysis)
    assert following == full and len(following) >= 3
    assert walked and sum(walked) < 50  # the pass after the first: a few statements, not 20,004
