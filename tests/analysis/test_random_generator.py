"""MS239 on tensor methods: `generator=` of x.uniform_(...), x.cauchy_(...), x.multinomial(...) says what becomes of it."""

from textwrap import dedent

import pytest

from ascend_migrate.analysis.engine import analyze
from ascend_migrate.config import Settings

SOURCE = dedent("""
    import torch

    generator = torch.Generator().manual_seed(0)
    weight = torch.empty(4, 3)
    weight.{call}
""")


@pytest.mark.parametrize("call, said", [
    # mindspore 2.10.0: Tensor.uniform_(self, from_=0, to=1, *, generator=None) and the like (inspect.signature)
    ("uniform_(-0.1, 0.1, generator=generator)", "is kept: mindspore.Tensor.uniform_ takes generator="),
    ("normal_(0.0, 0.02, generator=generator)", "is kept: mindspore.Tensor.normal_ takes generator="),
    ("random_(0, 10, generator=generator)", "is kept: mindspore.Tensor.random_ takes generator="),
    ("exponential_(generator=generator)", "is kept: mindspore.Tensor.exponential_ takes generator="),
    # mindspore 2.10.0: Tensor.cauchy(median=0.0, sigma=1.0), generator= raises TypeError
    ("cauchy_(generator=generator)", "has no place: mindspore.Tensor.cauchy, the port of cauchy_, takes no generator"),
    ("log_normal_(generator=generator)", "has no place: mindspore.Tensor.log_normal, the port of log_normal_"),
    ("multinomial(2, generator=generator)", "has no counterpart: mindspore.Tensor.multinomial takes `seed=`"),
    ("geometric_(0.5, generator=generator)", "MindSpore has no Tensor.geometric_"),
])
def test_generator_of_a_tensor_method_says_what_becomes_of_it(call, said):
    findings = [finding for finding in analyze(SOURCE.format(call=call), "data.py", Settings(target="mindspore"))
                if finding.code == "MS239"]
    method = call.split("(", 1)[0]
    assert [(finding.line, finding.api) for finding in findings] == [(6, f"torch.Tensor.{method}")]
    assert f"`generator=` {said}" in findings[0].message or said in findings[0].message


def test_a_method_of_that_name_on_a_module_or_without_generator_is_left_alone():
    source = dedent("""
        import torch

        model = torch.nn.Linear(3, 4)
        model.normal_(generator=None)
        weight = torch.empty(4, 3)
        weight.uniform_(-0.1, 0.1)
    """)
    assert [finding for finding in analyze(source, "data.py", Settings(target="mindspore")) if finding.code == "MS239"] == []
