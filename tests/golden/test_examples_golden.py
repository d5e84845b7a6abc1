"""Golden tests: the exact (line, category, api) set found in each realistic script, for both targets."""

import pytest

from golden import TARGETS, expected_path, render, scripts


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("script", scripts(), ids=lambda path: path.stem)
def test_findings_match_the_golden_file(script, target):
    expected = expected_path(script, target).read_text(encoding="utf-8")
    assert render(script, target) == expected, f"run `python tests/golden/golden.py` and review the diff of {expected_path(script, target).name}"


def test_every_script_has_findings_for_its_framework():
    for script in scripts():
        route = "mindspore" if "keras" in script.stem else "npu"
        assert expected_path(script, route).read_text(encoding="utf-8").strip(), script.name


def test_no_finding_on_prose():
    """The scripts say "cuda" in help texts and log messages: never a finding on those lines."""
    for script in scripts():
        lines = script.read_text(encoding="utf-8").splitlines()
        flagged = {int(row.split()[0]) for row in expected_path(script, "npu").read_text(encoding="utf-8").splitlines()}
        for number in flagged:
            text = lines[number - 1]
            assert not ("help=" in text and "cuda" in text.split("help=", 1)[1] and "default=" not in text), text
            assert not text.lstrip().startswith(("print(", "#")), text
