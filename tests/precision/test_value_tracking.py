"""Device and backend strings followed through local variables, `.format`, `%`, `+`, lists and membership tests
(issue 15): the finding sits at the literal and names the call the value reaches; the fix rewrites the literal."""

from __future__ import annotations

import textwrap
import types

from ascend_migrate.fixes.apply import fix_all

BUILT_DEVICE_STRINGS = """
    import torch
    import torch.distributed as dist


    def setup(rank, args):
        arg = "cuda:0"
        first = torch.device(arg)
        name = "cuda:{}".format(rank)
        moved = torch.zeros(2).to(name)
        location = "cuda:%d" % rank
        state = torch.load("weights.pt", map_location=location)
        other = "cuda:" + str(rank)
        again = moved.to(other)
        if args.device in ["cpu", "cuda"]:
            pass
        assert args.backend in ("gloo", "nccl")
        kind = "nccl"
        dist.init_process_group(kind)
        label = "cuda"
        print(label)
        replaced = "cuda"
        replaced = args.device
        last = torch.device(replaced)
        return first, again, state, last
"""


def test_a_device_string_is_followed_into_the_call_it_reaches(scan):
    findings = scan(BUILT_DEVICE_STRINGS)
    got = [(finding.line, finding.code) for finding in findings if finding.code in ("NPU102", "NPU103")]
    assert got == [(7, "NPU102"), (9, "NPU102"), (11, "NPU102"), (13, "NPU102"), (15, "NPU102"), (17, "NPU103"),
                   (18, "NPU103")]
    messages = {finding.line: finding.message for finding in findings}
    assert "`arg` reaches `torch.device(...)` on line 8" in messages[7]
    assert "`location` reaches `map_location=` of `torch.load(...)` on line 12" in messages[11]
    assert "`kind` reaches `torch.distributed.init_process_group(...)` on line 19" in messages[18]
    # "cuda" printed, and a variable whose string was replaced by another value before the call, are left alone.
    assert not any(finding.line in (20, 22) for finding in findings)


def test_the_fix_rewrites_only_the_literal_and_the_program_builds_npu_strings(scan):
    """Executed: the fixed function returns the strings torch_npu expects."""
    source = """
        import torch


        def names(rank, choice):
            arg = "cuda:0"
            torch.device(arg)
            name = "cuda:{}".format(rank)
            torch.device(name)
            location = "cuda:%d" % rank
            torch.load("w.pt", map_location=location)
            other = "cuda:" + str(rank)
            torch.device(other)
            chosen = f"cuda:{rank}" if choice else "cpu"
            torch.device(chosen)
            return arg, name, location, other, chosen
    """
    findings = scan(source)
    fixed = fix_all(textwrap.dedent(source), findings).text
    assert "import torch_npu" in fixed
    # Run without torch: the imports go, a stand-in records nothing; what matters is the strings built.
    program = "\n".join(line for line in fixed.splitlines() if not line.startswith("import "))
    stand_in = types.SimpleNamespace(device=lambda *arguments: None, load=lambda *arguments, **keywords: None)
    namespace: dict = {"torch": stand_in}
    exec(compile(program, "fixed.py", "exec"), namespace)
    assert namespace["names"](3, True) == ("npu:0", "npu:3", "npu:3", "npu:3", "npu:3")


def test_backend_comparisons_are_not_remapped_by_transfer_to_npu(scan):
    """The Ascend guide: transfer_to_npu replaces the backend only inside init_process_group; `backend == "nccl"`
    and `assert backend in [...]` must be edited by hand, so they stay warnings in a file that imports it."""
    source = """
        import torch
        import torch_npu
        from torch_npu.contrib import transfer_to_npu
        import torch.distributed as dist

        if __name__ == "__main__":
            dist.init_process_group(backend="nccl")
            assert dist.get_backend() in ["gloo", "nccl"]
            if dist.get_backend() == "nccl":
                pass
    """
    severities = {finding.line: (finding.severity, finding.message) for finding in scan(source) if finding.code == "NPU103"}
    assert severities[8][0] == "hint" and "remapped at run time" in severities[8][1]
    for line in (9, 10):
        assert severities[line][0] == "warning" and "remapped" not in severities[line][1]
