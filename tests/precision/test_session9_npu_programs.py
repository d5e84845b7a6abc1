"""Noise found judging session 9's npu programs (docs/precision.md "Session 9, npu programs"), removed at its root:
each case both ways."""

TORCHSCRIPT = """
    import torch
    import torch_npu
    {auto_migration}


    def f2(x, y):
        return x + y


    script_f2 = torch.jit.script(f2)
"""


def test_jit_script_is_a_caveat_only_under_transfer_to_npu(scan):
    # a source rewritten for Ascend (what `fix` writes: import torch_npu) scripts as on CUDA: nothing to report
    assert [finding for finding in scan(TORCHSCRIPT.format(auto_migration="")) if finding.api == "torch.jit.script"] == []
    # transfer_to_npu turns jit.script into the identity: the caveat stays where it applies
    migrated = scan(TORCHSCRIPT.format(auto_migration="from torch_npu.contrib import transfer_to_npu"))
    [script] = [finding for finding in migrated if finding.api == "torch.jit.script"]
    assert (script.line, script.code) == (11, "NPU202") and "identity" in script.message


EMBEDDING = """
    import torch
    import torch_npu
    from torch import nn


    class Embedder(nn.Module):
        def __init__(self, vocab, width):
            super().__init__()
            self.tok_emb = nn.Embedding(vocab, width)
            self.proj = torch.nn.Linear(width, width)

        def forward(self, idx):
            return self.proj(self.tok_emb(idx))
"""


def test_precision_advice_asks_for_no_change_a_note_never_names(scan):
    found = {finding.api: finding for finding in scan(EMBEDDING) if finding.code == "NPU202"}
    # msfmktransplt's advice on Embedding names a risk, not a change: the suggestion says so
    assert found["torch.nn.Embedding"].suggestion.startswith("Nothing to change for the program to run on Ascend")
    # a caveat whose note says what changes keeps the generic advice (jit.script under transfer_to_npu)
    migrated = scan(TORCHSCRIPT.format(auto_migration="from torch_npu.contrib import transfer_to_npu"))
    [script] = [finding for finding in migrated if finding.api == "torch.jit.script"]
    assert script.suggestion.startswith("Change the call as the note says")
