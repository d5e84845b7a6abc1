"""Methods on receivers whose type follows from local code, and method-name heuristics."""

import textwrap

from ascend_migrate.config import Settings

from tests.analysis.conftest import assert_every_edit_matches_a_full_analysis


def test_cuda_methods_on_known_and_unknown_receivers(run):
    source = """
        import torch
        import torch.nn as nn
        model = nn.Linear(3, 4).cuda()
        x = torch.zeros(3).cuda(non_blocking=True)
        batch = next(loader)
        batch = batch.cuda()
        on_gpu = x.is_cuda
        name = "a,b".split(",")
    """
    triples = [(f.line, f.code, f.api, f.confidence) for f in run(source).findings]
    assert triples == [
        (4, "NPU105", "torch.nn.Module.cuda", "inferred"),
        (5, "NPU105", "torch.Tensor.cuda", "inferred"),
        (7, "NPU105", "torch.Tensor.cuda", "heuristic"),
        (8, "NPU105", "torch.Tensor.is_cuda", "inferred"),
    ]


def test_min_confidence_filters_heuristic_matches(found):
    source = """
        import torch
        x = torch.zeros(3)
        y = x.cuda()
        z = batch.cuda()
    """
    assert found(source, min_confidence="inferred") == [(4, "NPU105", "torch.Tensor.cuda")]
    assert found(source, min_confidence="exact") == []


def test_types_from_local_assignments(found):
    source = """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F

        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(4, 2)

            def forward(self, x):
                return self.fc(x).view(-1)

        def train(loader):
            model = Net()
            optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
            model.train()
            for inputs, targets in loader:
                optimizer.zero_grad()
                loss = F.cross_entropy(model(inputs), targets)
                loss.backward()
                optimizer.step()
            model.eval()
            other = Helper()
            other.train()
            other.zero_grad()
    """
    assert found(source, target="mindspore") == [
        (6, "MS201", "torch.nn.Module"),
        (9, "MS101", "torch.nn.Linear"),
        (11, "MS202", "torch.nn.Module.forward"),
        (17, "MS203", "torch.nn.Module.train"),
        (21, "MS204", "torch.Tensor.backward"),
        (23, "MS203", "torch.nn.Module.eval"),
    ]
    assert (19, "NPU301", "torch.optim.Optimizer.zero_grad") in found(source)
    assert (16, "NPU301", "torch.optim.SGD") not in found(source)  # not in the test tables


def test_methods_are_never_flagged_on_receivers_of_another_known_type(found):
    source = """
        import torch
        import numpy as np
        opt = torch.optim.Adam(params)
        opt.view()
        values = np.zeros(3)
        mask = values.nonzero()
        tensor = torch.zeros(3)
        index = tensor.nonzero()
    """
    assert found(source) == [(4, "NPU301", "torch.optim.Adam"), (9, "NPU401", "torch.Tensor.nonzero")]


def test_tensor_methods_with_the_same_name_in_mindspore_need_no_change(found):
    source = "import torch\ndef f(x: torch.Tensor):\n    return x.view(-1)\n"
    assert found(source, target="mindspore") == []  # and the annotation runs nothing


def test_a_keyword_rename_matters_only_where_the_keyword_is_passed(found):
    source = "import torch\ndef f(x: torch.Tensor):\n    a = x.squeeze(1)\n    b = x.squeeze(dim=1)\n"
    assert found(source, target="mindspore") == [(4, "MS102", "torch.Tensor.squeeze")]


def test_a_same_row_never_matters_and_a_removed_one_only_where_it_may_be_passed(found):
    source = (
        "import torch\n"
        "def f(x: torch.Tensor, g):\n"
        "    a = x.bernoulli()\n"  # nothing passed: works as it is
        "    b = x.bernoulli(generator=g)\n"  # `same`: the name is the same in MindSpore
        "    c = x.bernoulli(p=0.5)\n"  # p is removed
        "    d = x.bernoulli(0.5)\n"  # a positional argument may be p (its position is not known)
        "    e = x.diag()\n"
        "    h = x.diag(1)\n"  # diagonal is the first parameter: passed, and removed
        "    k = x.cumsum(0)\n"  # a default that differs matters whatever is passed
    )
    assert found(source, target="mindspore") == [
        (5, "MS102", "torch.Tensor.bernoulli"),
        (6, "MS102", "torch.Tensor.bernoulli"),
        (8, "MS102", "torch.Tensor.diag"),
        (9, "MS102", "torch.Tensor.cumsum"),
    ]


def test_structure_fixes_for_train_and_eval(run):
    source = "import torch.nn as nn\nmodel = nn.Linear(2, 2)\nmodel.train()\nmodel.eval()\nmodel.train(False)\n"
    fixes = [(f.line, f.fix.edits[0].new_text, f.fix.safe) for f in run(source, target="mindspore").findings if f.code == "MS203"]
    assert fixes == [(3, "set_train(True)", True), (4, "set_train(False)", True), (5, "set_train", True)]


def test_boolean_mask_indexing(run):
    source = """
        import torch
        def select(x: torch.Tensor, scores, mask):
            kept = x[x > 0.5]
            other = scores[mask]
            x[~mask] = 0
            names = ["a", "b"][0]
    """
    # `scores` is not known to be a tensor: reported only with the untyped-receivers setting
    assert [(f.line, f.code, f.confidence) for f in run(source).findings] == [
        (4, "NPU402", "inferred"),
        (6, "NPU402", "inferred"),
    ]
    assert [(f.line, f.code, f.confidence) for f in run(source, untyped_receivers=True).findings] == [
        (4, "NPU402", "inferred"),
        (5, "NPU402", "heuristic"),
        (6, "NPU402", "inferred"),
    ]


def test_an_attribute_of_the_users_own_class_is_not_a_tensor_attribute(found):
    """`Pool.is_cuda` (a class of the file) and `pool.is_cuda` (annotated with it) used to become `is_npu`."""
    source = '''
        import torch

        class Pool:
            is_cuda = False

        def ready(pool: Pool, batch: torch.Tensor) -> bool:
            return Pool.is_cuda or pool.is_cuda or batch.is_cuda
    '''
    assert [code for _, code, _ in found(source)] == ["NPU105"]  # batch.is_cuda only


def test_forward_is_not_renamed_onto_a_construct_the_class_already_has(run):
    source = '''
        import torch
        from torch import nn

        class Block(nn.Module):
            def construct(self, x):
                return x

            def forward(self, x):
                return self.construct(x)

        class Head(nn.Module):
            def forward(self, x):
                return x
    '''
    findings = [finding for finding in run(source, "mindspore").findings if finding.code == "MS202"]
    assert [(finding.line, finding.fix is None) for finding in findings] == [(9, True), (13, False)]


def test_a_method_whose_target_is_a_function_is_reported_even_where_no_renamed_keyword_is_passed(tmp_path):
    # x.squeeze(1) stays as written: mindspore.Tensor.squeeze is the tensor's own method, and only the keyword's name
    # differs. x.dot(y) cannot: its target is the function mindspore.mint.dot (not the tensor's method of that name,
    # which is another operation), so a call on the tensor is reported whatever its rows (rules/methods.py).
    import textwrap

    from ascend_migrate.analysis.engine import analyze_file
    from ascend_migrate.config import Settings
    from ascend_migrate.kb.index import KnowledgeBase

    (tmp_path / "methods.yaml").write_text(textwrap.dedent("""
        table: methods-test
        provenance: written for this test (shapes of mappings/ entries)
        entries:
          - {api: torch.Tensor.squeeze, match: method, receiver: tensor, route: mindspore, category: ms-differs,
             target: mindspore.Tensor.squeeze, parameters: [{source: dim, target: axis, change: renamed}]}
          - {api: torch.Tensor.dot, match: method, receiver: tensor, route: mindspore, category: ms-differs,
             target: mindspore.mint.dot, parameters: [{source: tensor, target: other, change: renamed}]}
          - {api: torch.Tensor.relu, match: method, receiver: tensor, route: mindspore, category: ms-equivalent,
             target: mindspore.mint.nn.functional.relu}
          - {api: torch.Tensor.abs, match: method, receiver: tensor, route: mindspore, category: ms-equivalent,
             target: mindspore.Tensor.abs}
    """), encoding="utf-8")
    source = "import torch\ndef f(x: torch.Tensor, y):\n    a = x.squeeze(1)\n    b = x.dot(y)\n    c = x.relu()\n    d = x.abs()\n"
    findings = analyze_file(source, "snippet.py", Settings(target="mindspore"), KnowledgeBase.from_directory(tmp_path)).findings
    assert sorted((f.line, f.api) for f in findings) == [(4, "torch.Tensor.dot"), (5, "torch.Tensor.relu")]


GLOBALS_BELOW_FUNCTIONS = '''
    import torch
    import torch.nn as nn


    class Net(nn.Module):
        def forward(self, x):
            return x


    def evaluate(batches):
        total = 0
        for inputs, targets in batches:
            loss = criterion(model(inputs), targets)
            total = total + loss
        return total / len(batches)


    def report(batches):
        print(f"loss {evaluate(batches):.4f}")
        print(f"steps {steps(batches):.4f}")


    def steps(batches):
        return counter(batches)


    criterion = nn.CrossEntropyLoss().cuda()
    model = Net().cuda()
    counter = make_counter()
'''


def test_a_function_reads_the_type_of_an_object_constructed_below_it():
    """A script defines its functions first and the loss and model they use below them; a function runs after the
    module bound them, so `criterion(...)` in `evaluate` is a loss's tensor and its formatted mean needs `.item()`
    (MS230). `counter = make_counter()` (not a constructor the engine knows) stays unknown: its format is not reported."""
    from ascend_migrate.analysis.engine import analyze_module

    source = textwrap.dedent(GLOBALS_BELOW_FUNCTIONS)
    analysis = analyze_module(source, "train.py", Settings(target="mindspore"))
    assert [finding.line for finding in analysis.findings if finding.code == "MS230"] == [_line_of(source, 'print(f"loss')]


def test_an_edit_of_an_object_constructed_below_re_walks_the_functions_that_read_it():
    from ascend_migrate.analysis.engine import analyze_module
    from ascend_migrate.analysis.incremental import LineEdit, analyze_document

    settings = Settings(target="mindspore")
    source = textwrap.dedent(GLOBALS_BELOW_FUNCTIONS)
    lines = source.split("\n")
    line = lines.index("criterion = nn.CrossEntropyLoss().cuda()") + 1
    before = analyze_module(source, "train.py", settings)
    assert [f.line for f in before.findings if f.code == "MS230"] == [_line_of(source, 'print(f"loss')]
    edited = "\n".join(lines[:line - 1] + ["criterion = make_loss()"] + lines[line:])
    after = analyze_document(edited, "train.py", settings, before, LineEdit(line, line, line))
    assert [f.line for f in after.findings if f.code == "MS230"] == []  # the loss is no longer known: nothing to say
    assert [(f.line, f.code) for f in after.findings] == [(f.line, f.code) for f in analyze_module(edited, "train.py", settings).findings]
    assert_every_edit_matches_a_full_analysis(source, ["criterion = make_loss()", "model = 3", ""], "train.py", settings)


def _line_of(source: str, text: str) -> int:
    return next(number for number, line in enumerate(source.split("\n"), 1) if text in line)
