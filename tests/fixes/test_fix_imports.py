"""Import management: a needed import is added once beside its family; an import left unused goes."""

import pytest
from fix_builders import rename

from ascend_migrate.analysis.findings import Fix
from ascend_migrate.fixes import FixError, apply_edits, edits_for, fix_all


def fixed(source: str, old: str, new: str, **fix_fields) -> str:
    finding = rename(source, old, new, **fix_fields)
    return apply_edits(source, edits_for(finding.fix, source))


def test_torch_npu_goes_after_the_last_torch_import():
    source = '"""Train."""\nimport os\n\nimport torch\nimport torch.nn as nn\nimport yaml\n\ntorch.cuda.synchronize()\n'
    assert fixed(source, "torch.cuda", "torch.npu", add_imports=("import torch_npu",)) == (
        '"""Train."""\nimport os\n\nimport torch\nimport torch.nn as nn\nimport torch_npu\nimport yaml\n\ntorch.npu.synchronize()\n'
    )


def test_an_existing_equivalent_import_is_not_duplicated():
    source = "import torch\nimport torch_npu.contrib\n\ntorch.cuda.synchronize()\n"
    assert fixed(source, "torch.cuda", "torch.npu", add_imports=("import torch_npu",)) == (
        "import torch\nimport torch_npu.contrib\n\ntorch.npu.synchronize()\n"
    )


def test_an_import_inside_a_module_level_try_counts_as_existing():
    source = "import torch\ntry:\n    import torch_npu\nexcept ImportError:\n    torch_npu = None\ntorch.cuda.init()\n"
    assert fixed(source, "torch.cuda", "torch.npu", add_imports=("import torch_npu",)) == source.replace("torch.cuda", "torch.npu")


def test_an_import_inside_a_function_does_not_count():
    source = "import torch\n\ndef setup():\n    import torch_npu\n\ntorch.cuda.init()\n"
    assert fixed(source, "torch.cuda", "torch.npu", add_imports=("import torch_npu",)) == (
        "import torch\nimport torch_npu\n\ndef setup():\n    import torch_npu\n\ntorch.npu.init()\n"
    )


def test_mint_goes_after_the_docstring_and_future_imports_when_no_import_follows():
    source = '"""A layer."""\nfrom __future__ import annotations\nlayer = torch_layer(3)\n'
    assert fixed(source, "torch_layer", "mint.nn.Linear", add_imports=("from mindspore import mint",)) == (
        '"""A layer."""\nfrom __future__ import annotations\nfrom mindspore import mint\nlayer = mint.nn.Linear(3)\n'
    )


def test_an_import_with_another_spelling_but_the_same_binding_is_equivalent():
    source = "import mindspore.mint as mint\nlayer = Linear(3, 4)\n"
    assert fixed(source, "Linear", "mint.nn.Linear", add_imports=("from mindspore import mint",)) == (
        "import mindspore.mint as mint\nlayer = mint.nn.Linear(3, 4)\n"
    )


def test_an_import_that_would_rebind_a_name_is_refused():
    source = "from mylib import mint\nlayer = Linear(3, 4)\n"
    finding = rename(source, "Linear", "mint.nn.Linear", add_imports=("from mindspore import mint",))
    with pytest.raises(FixError, match="'mint' is already imported as mylib.mint"):
        edits_for(finding.fix, source)


def test_crlf_files_get_crlf_imports():
    source = "import torch\r\ntorch.cuda.init()\r\n"
    assert fixed(source, "torch.cuda", "torch.npu", add_imports=("import torch_npu",)) == "import torch\r\nimport torch_npu\r\ntorch.npu.init()\r\n"


def test_a_file_without_a_final_line_break():
    source = "import torch"
    finding = rename(source, "torch", "torch", add_imports=("import torch_npu",))
    assert edits_for(finding.fix, source) == []  # nothing to change: no import either
    import_only = Fix("add torch_npu", True, add_imports=("import torch_npu",))
    assert apply_edits(source, edits_for(import_only, source)) == "import torch\nimport torch_npu"


def test_several_imports_at_one_place_are_ordered():
    source = "import torch\nx = torch.save\ny = Linear\n"
    findings = [
        rename(source, "torch.save", "mindspore.save_checkpoint", add_imports=("import mindspore",)),
        rename(source, "Linear", "mint.nn.Linear", add_imports=("from mindspore import mint",)),
    ]
    assert fix_all(source, findings).text == "import torch\nimport mindspore\nfrom mindspore import mint\nx = mindspore.save_checkpoint\ny = mint.nn.Linear\n"


def test_an_import_the_fix_leaves_unused_is_removed_with_its_line():
    source = "import torch\nfrom apex.optimizers import FusedAdam\n\noptimizer = FusedAdam(model.parameters())\n"
    assert fixed(source, "FusedAdam", "torch_npu.optim.NpuFusedAdam", occurrence=2, add_imports=("import torch_npu",), remove_imports=("FusedAdam",)) == (
        "import torch\nimport torch_npu\n\noptimizer = torch_npu.optim.NpuFusedAdam(model.parameters())\n"
    )


def test_an_import_still_used_elsewhere_stays():
    source = "from apex.optimizers import FusedAdam\na = FusedAdam(p)\nb = FusedAdam(q)\n"
    assert fixed(source, "FusedAdam", "NpuFusedAdam", occurrence=2, remove_imports=("FusedAdam",)) == (
        "from apex.optimizers import FusedAdam\na = NpuFusedAdam(p)\nb = FusedAdam(q)\n"
    )


def test_only_the_unused_name_leaves_a_shared_import():
    source = "from apex.optimizers import (\n    FusedAdam,  # fast\n    FusedLAMB,\n)\nFusedLAMB(p)\n"
    import_only = Fix("drop FusedAdam", True, remove_imports=("FusedAdam",))
    assert apply_edits(source, edits_for(import_only, source)) == "from apex.optimizers import (\n    FusedLAMB,\n)\nFusedLAMB(p)\n"


def test_import_amp_c_removal():
    source = "import torch\nimport amp_C  # apex kernels\nimport os\n"
    import_only = Fix("Remove `import amp_C`", True, remove_imports=("amp_C",))
    assert apply_edits(source, edits_for(import_only, source)) == "import torch\nimport os\n"


def test_the_only_statement_of_a_block_becomes_pass():
    source = "try:\n    import amp_C\nexcept ImportError:\n    pass\n"
    import_only = Fix("Remove `import amp_C`", True, remove_imports=("amp_C",))
    assert apply_edits(source, edits_for(import_only, source)) == "try:\n    pass\nexcept ImportError:\n    pass\n"


def test_an_import_on_a_suppressed_line_stays():
    source = "import amp_C  # ascend-migrate: ignore\n"
    import_only = Fix("Remove `import amp_C`", True, remove_imports=("amp_C",))
    assert edits_for(import_only, source) == []


def test_a_name_listed_in_all_is_used():
    source = "import amp_C\n__all__ = ['amp_C']\n"
    import_only = Fix("Remove `import amp_C`", True, remove_imports=("amp_C",))
    assert edits_for(import_only, source) == []


def test_the_import_goes_above_module_level_code_that_needs_it():
    source = "import torch\ntorch.cuda.set_device(0)\nimport torch.nn as nn\n"
    assert fixed(source, "torch.cuda", "torch.npu", add_imports=("import torch_npu",)) == (
        "import torch\nimport torch_npu\ntorch.npu.set_device(0)\nimport torch.nn as nn\n"
    )


def test_a_fix_on_the_first_line_gets_its_import_above_it():
    source = "import torch; torch.cuda.init()\n"
    assert fixed(source, "torch.cuda", "torch.npu", add_imports=("import torch_npu",)) == "import torch_npu\nimport torch; torch.npu.init()\n"


def test_a_name_used_only_in_a_string_annotation_is_used():
    source = "import torch\n\ndef step(batch: 'torch.Tensor') -> None:\n    torch.cuda.synchronize()\n"
    assert fixed(source, "torch.cuda.synchronize", "torch_npu.npu.synchronize", add_imports=("import torch_npu",), remove_imports=("torch",)) == (
        "import torch\nimport torch_npu\n\ndef step(batch: 'torch.Tensor') -> None:\n    torch_npu.npu.synchronize()\n"
    )
