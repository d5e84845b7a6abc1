"""Module-level dicts followed across top-level statements (issue 17, vae): `kwargs = {...} if accel else {}` in one
statement, `DataLoader(..., **kwargs)` in another. Any use the tracker does not understand makes the keys unknown
(the finding stays, without a fix), and an edit of the statement that builds the dict gives what a full analysis
gives."""

from __future__ import annotations

import textwrap

import pytest
from tests.analysis.conftest import assert_every_edit_matches_a_full_analysis

from ascend_migrate.analysis.engine import analyze
from ascend_migrate.config import Settings

SETTINGS = Settings(target="mindspore", mindspore_version="2.4")

HEAD = textwrap.dedent("""
    import torch

    use_accel = torch.accelerator.is_available()
    kwargs = {'num_workers': 1, 'pin_memory': True} if use_accel else {}
""")
LOADER = textwrap.dedent("""
    loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(images, labels), batch_size=8, shuffle=True, **kwargs)
""")


def loader_finding(source: str):
    (finding,) = [f for f in analyze(source, "train.py", SETTINGS) if f.api == "torch.utils.data.DataLoader"]
    return finding


def test_a_dict_built_in_an_earlier_top_level_statement_gives_its_keys_to_the_loader():
    finding = loader_finding(HEAD + LOADER)
    assert finding.fix is not None
    (edit,) = finding.fix.edits
    assert 'num_parallel_workers=max(1, kwargs.get("num_workers", 0))' in edit.new_text


def test_updates_in_later_top_level_statements_add_their_keys():
    finding = loader_finding(HEAD + "kwargs.update({'drop_last': True})\nkwargs['batch_size'] = 4\n" + LOADER.replace("batch_size=8, ", ""))
    assert finding.fix is not None
    assert 'drop_remainder=kwargs.get("drop_last", False)' in finding.fix.edits[0].new_text
    finding = loader_finding(HEAD + "kwargs['sampler'] = sampler\n" + LOADER)
    assert finding.fix is None and "`**kwargs` may pass sampler" in finding.message


@pytest.mark.parametrize("use", [
    "configure(kwargs)\n",  # a call that receives the dict may add keys
    "options = kwargs\noptions['sampler'] = sampler\n",  # an alias written through
    "for key in names:\n    kwargs[key] = True\n",  # a key that is not a literal, in a loop
    "def configure():\n    kwargs['sampler'] = sampler\n",  # a write in a function (it may run before the loader)
    "def configure():\n    kwargs.update(sampler=sampler)\n",
    "def reset():\n    global kwargs\n    kwargs = make_options()\n",  # rebound in a function
    "kwargs = make_options()\n",  # rebound at module level to something else
    "del kwargs['num_workers']\n",
])
def test_a_use_the_tracker_does_not_understand_makes_the_keys_unknown(use):
    finding = loader_finding(HEAD + use + LOADER)
    assert finding.fix is None and "the keys `**kwargs` passes are not known here" in finding.message


@pytest.mark.parametrize("use", [
    "print(kwargs.get('num_workers'))\n",
    "def describe(**kwargs):\n    kwargs['sampler'] = None\n",  # the function's own kwargs
    "def show():\n    return dict(**kwargs)\n",
    "copied = {**kwargs}\n",
])
def test_reads_and_other_scopes_own_names_keep_the_keys(use):
    assert loader_finding(HEAD + use + LOADER).fix is not None


def test_a_later_use_does_not_change_an_earlier_loader():
    finding = loader_finding(HEAD + LOADER + "configure(kwargs)\n")
    assert finding.fix is not None


EDITS = [
    "kwargs = {'sampler': sampler}",
    "kwargs = {'shuffle': False}",
    "configure(kwargs)",
    "kwargs.update(drop_last=True)",
    "kwargs = make_options()",
    "",
    "def f():\n    kwargs['x'] = 1",
]


@pytest.mark.parametrize(("built", "between"), [
    ("kwargs = {'num_workers': 1, 'pin_memory': True} if use_accel else {}", "other = 1"),
    # a use that makes the keys unknown only once the statement above builds a dict: it must be walked again then
    ("kwargs = make_options()", "configure(kwargs)"),
])
def test_every_edit_of_the_statements_around_the_dict_matches_a_full_analysis(built, between):
    head = HEAD.replace("kwargs = {'num_workers': 1, 'pin_memory': True} if use_accel else {}", built)
    source = head + f"\n\n{between}\n\n" + LOADER + "\n\ndef f():\n    return 1\n" + LOADER
    assert_every_edit_matches_a_full_analysis(source, EDITS, "train.py", SETTINGS)
