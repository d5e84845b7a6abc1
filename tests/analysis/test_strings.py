"""Device, backend and environment-variable strings count only where they act as such; prose never does."""

from __future__ import annotations

import ast
import textwrap

import pytest


def test_device_strings_in_their_roles(run):
    source = '''
        import os
        import argparse
        import torch
        import torch.distributed as dist

        parser = argparse.ArgumentParser()
        parser.add_argument("--device", default="cuda", help="cuda or cpu")
        parser.add_argument("--dist-backend", default="nccl", type=str)
        device = "cuda" if torch.cuda.is_available() else "cpu"
        DEVICE = "cuda:0"

        def setup(rank, backend="nccl", device="cuda"):
            dist.init_process_group("nccl", rank=rank)
            dist.init_process_group(backend="nccl")
            x = torch.zeros(3, device=f"cuda:{rank}")
            y = x.to("cuda:1")
            z = torch.device("cuda", rank)
            state = torch.load(path, map_location="cuda")
            if args.backend == "nccl" or device.type == "cuda":
                print("running on cuda with nccl")
            os.environ["CUDA_VISIBLE_DEVICES"] = "0"
            return {"device": "cuda"}
    '''
    result = run(source)
    assert [(f.line, f.column, f.code, f.api) for f in result.findings] == [
        (8, 42, "NPU102", "'cuda'"),
        (9, 48, "NPU103", "'nccl'"),
        (10, 11, "NPU102", "'cuda'"),
        (10, 20, "NPU101", "torch.cuda.is_available"),
        (11, 11, "NPU102", "'cuda'"),
        (13, 26, "NPU103", "'nccl'"),
        (13, 41, "NPU102", "'cuda'"),
        (14, 30, "NPU103", "'nccl'"),
        (15, 38, "NPU103", "'nccl'"),
        (16, 33, "NPU102", "'cuda'"),
        (17, 15, "NPU102", "'cuda'"),
        (18, 23, "NPU102", "'cuda'"),
        (19, 44, "NPU102", "'cuda'"),
        (20, 25, "NPU103", "'nccl'"),
        (20, 50, "NPU102", "'cuda'"),
        (22, 17, "NPU104", "CUDA_VISIBLE_DEVICES"),
        (23, 24, "NPU102", "'cuda'"),
    ]


def test_device_string_fix_replaces_only_the_word(run):
    result = run('import torch\nx = torch.zeros(1, device=f"cuda:{rank}")\n')
    (finding,) = result.findings
    (edit,) = finding.fix.edits
    assert (edit.line, edit.column, edit.end_line, edit.end_column, edit.new_text) == (2, 29, 2, 33, "npu")
    assert finding.fix.safe and finding.fix.add_imports == ("import torch_npu",)


def test_prose_is_never_a_finding(found):
    source = '''
        """Train with nccl on cuda; set CUDA devices."""
        import logging
        import torch
        # device = "cuda"
        logging.info("moving the model to cuda")
        print(f"cuda:{0} is ready", "nccl")
        message = "cuda"
        parser.add_argument("--name", default="cuda", help="device: cuda")
    '''
    assert found(source) == []


def test_mindspore_route_has_no_npu_string_findings(found):
    assert found('x = t.to("cuda")\nbackend = "nccl"\n', target="mindspore") == []


def test_tensor_type_strings(run):
    result = run('import torch_npu\nimport torch\ny = x.type("torch.cuda.HalfTensor")\nz = x.type(torch.float16)\n')
    assert [(f.line, f.column, f.code, f.api) for f in result.findings] == [(3, 13, "NPU102", "'torch.cuda.HalfTensor'")]
    assert result.findings[0].fix.edits[0].new_text == "torch.npu"


def test_a_module_importing_torch_without_torch_npu(tmp_path):
    from ascend_migrate.analysis.engine import analyze_file
    from ascend_migrate.config import Settings
    from ascend_migrate.kb.index import KnowledgeBase

    (tmp_path / "imports.yaml").write_text(
        "provenance: test\nentries:\n"
        "  - {api: torch, match: import, condition: torch-npu-not-imported, category: npu-rename, code: NPU101,"
        " severity: info, target: torch_npu, fix: safe}\n",
        encoding="utf-8",
    )
    knowledge_base = KnowledgeBase.from_directory(tmp_path)

    def findings(source, target="npu"):
        return analyze_file(source, "a.py", Settings(target=target), knowledge_base).findings

    program = 'if __name__ == "__main__":\n    main()\n'
    (finding,) = findings("import os\nimport torch\nimport torch.nn as nn\nfrom torch import optim\n" + program)
    assert (finding.line, finding.code, finding.api, finding.severity) == (2, "NPU101", "torch", "info")
    assert finding.fix.add_imports == ("import torch_npu",) and finding.fix.edits == ()
    assert findings("import torch\nimport torch_npu\n" + program) == []
    assert findings("import torch\n" + program, target="mindspore") == []
    # a library module (no `__main__` guard, no top-level loop or call): the program importing it imports torch_npu
    assert findings("import os\nimport torch\n\ndef helper():\n    return torch.zeros(1)\n") == []


def test_renames_are_hints_where_transfer_to_npu_remaps_them_at_run_time(run):
    source = (
        "import torch\nimport torch_npu\nfrom torch_npu.contrib import transfer_to_npu\n"
        "torch.cuda.synchronize()\nx = torch.zeros(1, device='cuda')\nos.environ['CUDA_VISIBLE_DEVICES'] = '0'\n"
    )
    result = run(source)
    assert [(f.line, f.code, f.severity) for f in result.findings] == [
        (4, "NPU101", "hint"), (5, "NPU102", "hint"), (6, "NPU104", "warning"),
    ]
    assert result.findings[0].message.endswith("(remapped at run time here: the file imports transfer_to_npu)")
    plain_import = run("import torch\nimport torch_npu.contrib.transfer_to_npu\ntorch.cuda.synchronize()\n")
    assert [f.severity for f in plain_import.findings] == ["hint"]


def _fixed(run, source: str, target: str = "npu") -> str:
    from ascend_migrate.fixes import fix_all

    text = textwrap.dedent(source)
    return fix_all(text, run(source, target).findings, unsafe=True).text


@pytest.mark.parametrize("before, after", [
    ('x = x.to("cu" "da:0")', 'x = x.to("npu:0")'),
    ('x = x.to("\\x63uda")', 'x = x.to("npu")'),
    ('x = x.to(\'cuda:1\')', "x = x.to('npu:1')"),
    ('dist.init_process_group(backend="nc" "cl")', 'dist.init_process_group(backend="hccl")'),
    ('y = x.type("torch.cu" "da.FloatTensor")', 'y = x.type("torch.npu.FloatTensor")'),
    ('y = x.type("torch.\\x63uda.FloatTensor")', 'y = x.type("torch.npu.FloatTensor")'),
])
def test_a_string_is_rewritten_as_a_string_however_it_is_spelled(run, before, after):
    """Implicit concatenation and escapes used to give `x.to(npu)` or `backend=hccl`: code that parses and is
    wrong. Every rewrite is now read back as a literal before it is offered."""
    source = f"import torch\nimport torch_npu\nimport torch.distributed as dist\n\nx = torch.zeros(2)\n{before}\n"
    fixed = _fixed(run, source)
    assert fixed.splitlines()[-1] == after
    ast.parse(fixed)


def test_an_f_string_whose_text_is_not_spelled_out_is_reported_without_a_fix(run):
    result = run('import torch\nimport torch_npu\nx = torch.zeros(2).to(f"\\x63uda:{0}")\n')
    assert [(finding.code, finding.fix) for finding in result.findings] == [("NPU102", None)]


def test_a_case_of_a_match_statement_is_a_device_comparison(run):
    source = '''
        import torch
        import torch_npu

        def place(device, x):
            match device:
                case "cuda" | "cuda:0":
                    return x.to(device)
                case "cpu":
                    return x
    '''
    assert [(f.line, f.code, f.api) for f in run(source).findings] == [(7, "NPU102", "'cuda'"), (7, "NPU102", "'cuda'")]
    assert 'case "npu" | "npu:0":' in _fixed(run, source)


def test_an_environment_variable_counts_where_it_is_read_or_set_not_in_a_message(run):
    source = '''
        import os
        import subprocess

        print("CUDA_VISIBLE_DEVICES", "picks the card")
        logger.warning(f"CUDA_VISIBLE_DEVICES={os.environ.get('CUDA_VISIBLE_DEVICES')}")
        os.environ["CUDA_VISIBLE_DEVICES"] = "0"
        visible = os.getenv("CUDA_VISIBLE_DEVICES", "")
        if "CUDA_VISIBLE_DEVICES" not in os.environ:
            subprocess.run(["python", "train.py"], env={**os.environ, "CUDA_VISIBLE_DEVICES": "1"})
    '''
    assert [(f.line, f.code) for f in run(source).findings] == [(6, "NPU104"), (7, "NPU104"), (8, "NPU104"), (9, "NPU104"), (10, "NPU104")]
    fixed = _fixed(run, source)
    assert 'print("CUDA_VISIBLE_DEVICES", "picks the card")' in fixed
    assert fixed.count("ASCEND_RT_VISIBLE_DEVICES") == 5
