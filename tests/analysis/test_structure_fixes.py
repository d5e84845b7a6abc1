"""Fixes that change a call's shape (and DataParallel, which gets none): torch.save → save_checkpoint, fused gradient clipping.

Each is checked end to end: the engine's Fix, expanded and applied by the fixes room, gives the exact text.
"""

import textwrap

from ascend_migrate.fixes import fix_all


def fixed(run, source: str, target: str) -> str:
    source = textwrap.dedent(source)
    result = run(source, target)
    return fix_all(source, result.findings, unsafe=True).text


def test_data_parallel_is_reported_and_never_renamed_to_distributed_data_parallel(run):
    # the test knowledge base still says `fix: unsafe`: a bare DistributedDataParallel without a process group does not run
    source = """
        import torch
        model = torch.nn.DataParallel(net, device_ids=[0, 1])
    """
    (finding,) = [f for f in run(textwrap.dedent(source)).findings if f.api == "torch.nn.DataParallel"]
    assert finding.code == "NPU201" and finding.fix is None
    assert fixed(run, source, "npu") == textwrap.dedent(source)


def test_save_of_a_state_dict_becomes_save_checkpoint(run):
    source = """
        import torch
        torch.save(model.state_dict(), "net.pt")
        torch.save({"epoch": 3}, "meta.pt")
    """
    result = run(textwrap.dedent(source), "mindspore")
    assert [f.fix is not None for f in result.findings if f.code == "MS206"] == [True, False]
    assert fixed(run, source, "mindspore") == (
        "\nimport torch\nimport mindspore\nmindspore.save_checkpoint(model, \"net.ckpt\")\ntorch.save({\"epoch\": 3}, \"meta.pt\")\n"
    )


def test_clip_grad_norm_uses_the_fused_optimizer_of_the_function(run):
    source = """
        import torch
        import torch_npu
        from torch.nn.utils import clip_grad_norm_

        def step(model, loss):
            optimizer = torch_npu.optim.NpuFusedAdamW(model.parameters())
            loss.backward()
            clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()

        def unclear(model, a, b):
            first = torch_npu.optim.NpuFusedSGD(a)
            second = torch_npu.optim.NpuFusedSGD(b)
            clip_grad_norm_(model.parameters(), 1.0)

        def not_fused(model, loss):
            optimizer = torch.optim.AdamW(model.parameters())
            clip_grad_norm_(model.parameters(), 1.0)
    """
    clips = [f for f in run(textwrap.dedent(source)).findings if f.api == "torch.nn.utils.clip_grad_norm_"]
    assert [(f.line, f.fix is not None) for f in clips] == [(9, True), (15, False), (19, False)]
    assert clips[0].fix.rewrite.optimizer == "optimizer"
    assert "a torch.optim.AdamW" in clips[2].message  # clip_grad_norm_fused_ exists on NpuFused* optimizers only
