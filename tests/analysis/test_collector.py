"""The engine pauses the cyclic garbage collector while it parses and walks, and always gives it back."""

from __future__ import annotations

import gc

import pytest

from ascend_migrate.analysis.chunks import collector_paused
from ascend_migrate.analysis.engine import analyze_file
from ascend_migrate.config import Settings


def test_the_collector_is_off_inside_and_as_it_was_after():
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the inner pause does not switch it back on early
    assert gc.isenabled()


def test_a_collector_switched_off_by_the_host_stays_off():
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_an_error_inside_gives_the_collector_back():
    with pytest.raises(RuntimeError):
        with collector_paused():
            raise RuntimeError("a rule failed")
    assert gc.isenabled()


@pytest.mark.parametrize("source", ["import torch\ntorch.cuda.synchronize()\n", "def f(:\n", "x = (" * 300 + ")" * 300])
def test_analysing_good_bad_and_too_deep_code_leaves_the_collector_on(test_knowledge_base, source):
    analyze_file(source, "snippet.py", Settings(target="npu"), test_knowledge_base)
    assert gc.isenabled()
