"""The `save-checkpoint` family: torch.save of a state dict becomes mindspore.save_checkpoint of the cell."""

from fix_builders import rewrite

from ascend_migrate.fixes import apply_edits, edits_for


def fixed(source: str, call: str) -> str:
    finding = rewrite(source, call, "save-checkpoint", {}, add_imports=("import mindspore",))
    return apply_edits(source, edits_for(finding.fix, source))


def test_a_state_dict_save_becomes_save_checkpoint_with_its_import():
    source = "import torch\n\ntorch.save(model.state_dict(), args.output)\n"
    assert fixed(source, "torch.save(model.state_dict(), args.output)") == (
        "import torch\nimport mindspore\n\nmindspore.save_checkpoint(model, args.output)\n"
    )


def test_the_receiver_expression_is_kept_as_written():
    source = "import torch\ntorch.save(self.net.module.state_dict(), path)\n"
    assert fixed(source, "torch.save(self.net.module.state_dict(), path)") == (
        "import torch\nimport mindspore\nmindspore.save_checkpoint(self.net.module, path)\n"
    )


def test_saving_anything_else_is_left_for_a_manual_change():
    source = "import torch\ntorch.save({'epoch': 3, 'model': model.state_dict()}, path)\n"
    finding = rewrite(source, "torch.save({'epoch': 3, 'model': model.state_dict()}, path)", "save-checkpoint", {})
    assert edits_for(finding.fix, source) == []


def test_extra_keywords_are_left_for_a_manual_change():
    source = "import torch\ntorch.save(model.state_dict(), path, pickle_protocol=4)\n"
    finding = rewrite(source, "torch.save(model.state_dict(), path, pickle_protocol=4)", "save-checkpoint", {})
    assert edits_for(finding.fix, source) == []
