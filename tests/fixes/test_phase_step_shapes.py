"""The text of the phase step's fix (MS245, analysis/rules/phase_step.py) in the shapes train/eval loops have, and the
reason given where no fix is written. What the fixes compute: tests/execution/test_phase_step_shapes.py."""

from __future__ import annotations

import ast
import textwrap

import pytest

from ascend_migrate.analysis.engine import analyze
from ascend_migrate.config import Settings
from ascend_migrate.fixes import fix_until_stable

SETTINGS = Settings(target="mindspore", mindspore_version="2.4")

LOOP = """
    def run_epoch(model, criterion, optimizer, scheduler, loader):
        for inputs, labels in loader:
            optimizer.zero_grad()
            outputs = model(inputs)
            loss = criterion(outputs, labels)
            if model.training:
    {branch}
            print(loss)
"""


def _source(*branch: str) -> str:
    return textwrap.dedent(LOOP).replace("{branch}", "\n".join(" " * 12 + line for line in branch).lstrip("\n"))


def fixed(source: str) -> str:
    text = fix_until_stable(source, lambda text: analyze(text, "train.py", SETTINGS), unsafe=True).text
    ast.parse(text)
    return text


def phase_findings(source: str):
    return [finding for finding in analyze(source, "train.py", SETTINGS) if finding.code == "MS245"]


def test_a_branch_under_model_training_becomes_the_differentiated_call():
    text = fixed(_source("loss.backward()", "optimizer.step()", "scheduler.step()"))
    assert text == textwrap.dedent("""
        import mindspore
        def run_epoch(model, criterion, optimizer, scheduler, loader):
            for inputs, labels in loader:
                def forward_fn(inputs, labels):
                    outputs = model(inputs)
                    loss = criterion(outputs, labels)
                    return loss, (outputs,)
                if model.training:
                    (loss, (outputs,)), grads = mindspore.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True)(inputs, labels)
                    optimizer(grads)
                    scheduler.step()
                else:
                    loss, (outputs,) = forward_fn(inputs, labels)
                print(loss)
    """)


def test_clipping_in_the_branch_clips_the_grads():
    text = fixed(_source("optimizer.zero_grad()", "loss.backward()", "clip_grad_norm_(model.parameters(), 1.0)",
                         "torch.nn.utils.clip_grad_norm_(model.parameters(), 2.0)", "optimizer.step()"))
    assert ("        optimizer(grads)" in text and "grads = mindspore.ops.clip_by_global_norm(grads, 1.0)\n"
            "            grads = mindspore.ops.clip_by_global_norm(grads, 2.0)\n            optimizer(grads)\n" in text)
    assert "zero_grad" not in text


@pytest.mark.parametrize(("branch", "reason"), [
    (("loss = loss / 4", "loss.backward()", "optimizer.step()"), "the training branch runs `loss = loss / 4` before backward()"),
    (("loss.backward()", "print(model.weight.grad)", "optimizer.step()"), "`print(model.weight.grad)` stands between backward() and step()"),
    (("loss.backward()", "optimizer.step()", "print(model.weight.grad)"), "after step() reads or resets gradients"),
    (("loss.backward()", "optimizer.step()", "optimizer.zero_grad()"), "after step() reads or resets gradients"),
])
def test_a_branch_that_does_more_says_what_is_in_the_way(branch, reason):
    [finding] = phase_findings(_source(*branch))
    assert finding.fix is None and reason in finding.message


def test_an_else_branch_and_a_loss_from_elsewhere_say_why():
    source = _source("loss.backward()", "optimizer.step()").replace("        print(loss)", "        else:\n            print(loss)")
    [finding] = phase_findings(source)
    assert finding.fix is None and "the `if` has an else branch" in finding.message
    source = textwrap.dedent("""
        def run_epoch(model, optimizer, losses):
            for loss in losses:
                if model.training:
                    loss.backward()
                    optimizer.step()
    """)
    [finding] = phase_findings(source)
    assert finding.fix is None and "`loss` is not computed before the training branch" in finding.message


def test_a_condition_on_what_the_forward_pass_computes_says_why():
    source = _source("loss.backward()", "optimizer.step()").replace("if model.training:", "if loss.requires_grad:")
    [finding] = phase_findings(source)
    assert finding.fix is None and "the condition reads `loss`, which the forward pass computes" in finding.message


def test_a_branch_without_a_step_is_not_a_phase_step():
    assert phase_findings(_source("loss.backward()")) == []
