"""`torch.optim.LBFGS` on the MindSpore route (MS235, issue 17), text for text: the constructor calls an L-BFGS
written into the file (fixes/templates/lbfgs.py, once per file, after the imports), and `optimizer.step(closure)`
hands it `mindspore.value_and_grad(closure, None, optimizer.parameters)` with zero_grad()/backward() gone from the
closure. What the written class does not cover stays advice and says why. tests/execution/test_lbfgs.py runs the
class beside torch's and the fixed time_sequence_prediction."""

from __future__ import annotations

import ast
import json
import textwrap

from ascend_migrate.analysis.engine import analyze
from ascend_migrate.config import Settings
from ascend_migrate.fixes import fix_until_stable
from ascend_migrate.fixes.templates import written_text

OPS_NN, MINT = "2.4", "2.10"

TRAINING = textwrap.dedent("""
    import torch
    import torch.nn as nn

    # the model
    model = nn.Linear(3, 1)
    criterion = nn.MSELoss()
    data, target = torch.randn(4, 3), torch.randn(4, 1)
    optimizer = torch.optim.LBFGS(model.parameters(), lr=0.8{arguments})
    for i in range(3):
        def closure():
            optimizer.zero_grad()
            loss = criterion(model(data), target)
            print('loss:', loss.item())
            loss.backward()
            return loss
        optimizer.step(closure)
""")


def findings(source: str, version: str = MINT):
    return analyze(textwrap.dedent(source), "train.py", Settings(target="mindspore", mindspore_version=version))


def fixed(source: str, version: str = MINT) -> str:
    settings = Settings(target="mindspore", mindspore_version=version)
    return fix_until_stable(textwrap.dedent(source), lambda text: analyze(text, "train.py", settings), unsafe=True).text


def test_the_optimizer_and_its_closure_step_are_rewritten():
    text = fixed(TRAINING.format(arguments=""))
    assert [node for node in ast.walk(ast.parse(text)) if isinstance(node, (ast.Import, ast.ImportFrom))
            and "torch" in ast.unparse(node)] == []
    assert "\noptimizer = LBFGS(model.get_parameters(), lr=0.8)\n" in text
    assert "optimizer.step(mindspore.value_and_grad(closure, None, optimizer.parameters))" in text
    closure = text[text.index("def closure():"):text.index("optimizer.step(")]
    assert "zero_grad" not in closure and "backward" not in closure and "print('loss:', loss.item())" in closure
    # the class is written once, whole, after the imports and above the comment of the first statement
    assert text.count("class LBFGS:") == 1
    assert written_text("lbfgs") + "\n\n# the model\n" in text
    assert text.index("import mindspore") < text.index("class LBFGS:")
    ast.parse(text)


def test_fixing_again_writes_nothing_more():
    once = fixed(TRAINING.format(arguments=""))
    assert fixed(once) == once


def test_each_era_gets_the_same_class():
    assert written_text("lbfgs") in fixed(TRAINING.format(arguments=""), OPS_NN)


def test_a_line_search_stays_advice_saying_why():
    found = findings(TRAINING.format(arguments=", line_search_fn='strong_wolfe'"))
    constructor = [finding for finding in found if finding.code == "MS235"]
    assert len(constructor) == 1 and constructor[0].fix is None
    assert "line_search_fn='strong_wolfe'" in constructor[0].message and "not written" in constructor[0].message
    # its step is not rewritten either (the written class has no line search, and torch's LBFGS stays), and says why
    steps = [finding for finding in found if finding.code == "MS204" and finding.api.endswith(".step")]
    assert len(steps) == 1 and steps[0].fix is None
    assert "`optimizer` is built at line 9 with line_search_fn='strong_wolfe'" in steps[0].message
    text = fixed(TRAINING.format(arguments=", line_search_fn='strong_wolfe'"))
    assert "optimizer.step(closure)" in text and "value_and_grad" not in text and "class LBFGS" not in text


def test_a_step_follows_its_optimizer_to_the_constructor_and_says_less_when_it_is_not_followed():
    source = """
        import torch


        def train(model, optimizer: torch.optim.LBFGS, loss_of):
            for i in range(3):
                def closure():
                    optimizer.zero_grad()
                    loss = loss_of(model)
                    loss.backward()
                    return loss
                optimizer.step(closure)


        class Trainer:
            def __init__(self, model, search):
                self.model = model
                self.optimizer = torch.optim.LBFGS(model.parameters(), line_search_fn=search)

            def train(self, loss_of):
                for i in range(3):
                    def closure():
                        self.optimizer.zero_grad()
                        loss = loss_of(self.model)
                        loss.backward()
                        return loss
                    self.optimizer.step(closure)
    """
    steps = {finding.line: finding for finding in findings(source) if finding.code == "MS204" and finding.api.endswith(".step")}
    assert steps[12].fix is None and "where `optimizer` is built is not followed here" in steps[12].message
    assert "line_search_fn" not in steps[12].message.split("Not rewritten")[-1]  # nothing said of what is not known
    assert steps[27].fix is None and "`self.optimizer` is built at line 18 with line_search_fn=search" in steps[27].message
    # built without line search in the class's __init__: the step in another method is rewritten
    text = fixed(source.replace(", line_search_fn=search", ""))
    assert "self.optimizer.step(mindspore.value_and_grad(closure, None, self.optimizer.parameters))" in text
    assert "        optimizer.step(closure)" in text  # the parameter's step stays


def test_unpacked_arguments_stay_advice():
    found = findings(TRAINING.format(arguments=", **options").replace("import torch\n", "import torch\noptions = {}\n"))
    constructor = [finding for finding in found if finding.code == "MS235"]
    assert len(constructor) == 1 and constructor[0].fix is None and "unpacked" in constructor[0].message


def test_an_imported_lbfgs_name_is_not_shadowed():
    source = TRAINING.format(arguments="").replace("import torch\n", "import torch\nfrom torch.optim import LBFGS\n") \
        .replace("torch.optim.LBFGS(", "LBFGS(")
    text = fixed(source)
    assert "class WrittenLBFGS:" in text and "optimizer = WrittenLBFGS(" in text
    assert "from torch.optim import LBFGS" not in text


def test_a_closure_given_to_another_optimizer_is_advice_saying_why():
    source = TRAINING.format(arguments="").replace("torch.optim.LBFGS(model.parameters(), lr=0.8)", "torch.optim.SGD(model.parameters(), lr=0.1)")
    steps = [finding for finding in findings(source) if finding.code == "MS204" and finding.line == 17]
    assert len(steps) == 1 and steps[0].fix is None
    assert "given a closure" in steps[0].message and "no L-BFGS optimizer" in steps[0].message


def test_a_closure_of_another_shape_is_advice_saying_why():
    source = TRAINING.format(arguments="").replace("        return loss\n", "        return loss * 1\n")
    steps = [finding for finding in findings(source) if finding.code == "MS204" and finding.line == 17]
    assert len(steps) == 1 and steps[0].fix is None
    assert "is not zero_grad(), the forward pass, `loss.backward()` and `return loss`" in steps[0].message


def test_a_closure_reading_grads_is_advice_saying_why():
    source = TRAINING.format(arguments="").replace("        return loss\n", "        print(model.weight.grad)\n        return loss\n")
    steps = [finding for finding in findings(source) if finding.code == "MS204" and finding.line == 18]
    assert len(steps) == 1 and steps[0].fix is None and "reads .grad after backward()" in steps[0].message


def test_the_change_list_shows_the_written_class_as_one_line_and_the_file_gets_it_whole(tmp_path, monkeypatch, capsys):
    from ascend_migrate.cli import main

    monkeypatch.chdir(tmp_path)
    (tmp_path / "train.py").write_text(TRAINING.format(arguments=""), encoding="utf-8")
    report = tmp_path / "changes.json"
    main(["fix", "--target", "mindspore", "--unsafe", "--write", "--report", str(report), "train.py"])
    listed = [line for line in capsys.readouterr().err.splitlines() if " MS235 " in line]
    lines = len(written_text("lbfgs").strip("\n").splitlines())
    assert listed == [f"train.py:5: MS235 (nothing) -> class LBFGS: {lines} lines written into the file (fixes/templates/lbfgs.py)",
                      "train.py:9: MS235 optimizer = torch.optim.LBFGS(model.parameters(), lr=0.8) -> optimizer = LBFGS(model.parameters(), lr=0.8)"]
    rows = [row for row in json.loads(report.read_text(encoding="utf-8"))["changes"] if row["code"] == "MS235"]
    assert [len(row["after"].splitlines()) for row in rows] == [1, 1]  # the report lists it the same way
    assert written_text("lbfgs") in (tmp_path / "train.py").read_text(encoding="utf-8")  # the file has the whole class


def test_a_class_taken_from_a_template_module_is_listed_with_that_module(tmp_path, monkeypatch, capsys):
    from ascend_migrate.cli import main

    monkeypatch.chdir(tmp_path)
    (tmp_path / "seq.py").write_text("import torch\nimport torch.nn as nn\n\ncell = nn.LSTMCell(1, 51)\ncell.double()\n", encoding="utf-8")
    main(["fix", "--target", "mindspore", "--unsafe", "--diff", "seq.py"])
    listed = [line for line in capsys.readouterr().err.splitlines() if " MS236 (nothing)" in line]
    assert len(listed) == 1 and listed[0].endswith("lines written into the file (fixes/templates/recurrent_cells.py)")
    assert listed[0].startswith("seq.py:4: MS236 (nothing) -> class LSTMCell: ")
