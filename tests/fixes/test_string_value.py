"""The `string-value` family: device strings, backends and environment variable names inside literals."""

import pytest
from fix_builders import rewrite

from ascend_migrate.fixes import FixError, apply_edits, edits_for


def fixed(source: str, literal: str, old: str, new: str) -> str:
    finding = rewrite(source, literal, "string-value", {"old": old, "new": new}, key="span")
    return apply_edits(source, edits_for(finding.fix, source))


@pytest.mark.parametrize(
    ("source", "literal", "old", "new", "expected"),
    [
        ('device = "cuda"\n', '"cuda"', "cuda", "npu", 'device = "npu"\n'),
        ("x.to('cuda:1')\n", "'cuda:1'", "cuda", "npu", "x.to('npu:1')\n"),
        ('x.to(f"cuda:{rank}")\n', 'f"cuda:{rank}"', "cuda", "npu", 'x.to(f"npu:{rank}")\n'),
        ('torch.device("cuda", index)\n', '"cuda"', "cuda", "npu", 'torch.device("npu", index)\n'),
        ('dist.init_process_group(backend=r"nccl")\n', 'r"nccl"', "nccl", "hccl", 'dist.init_process_group(backend=r"hccl")\n'),
        ("os.environ['CUDA_VISIBLE_DEVICES'] = '0'\n", "'CUDA_VISIBLE_DEVICES'", "CUDA_VISIBLE_DEVICES", "ASCEND_RT_VISIBLE_DEVICES",
         "os.environ['ASCEND_RT_VISIBLE_DEVICES'] = '0'\n"),
        ('with torch.autocast(device_type="""cuda"""):\n    pass\n', '"""cuda"""', "cuda", "npu", 'with torch.autocast(device_type="""npu"""):\n    pass\n'),
    ],
)
def test_the_value_is_replaced_and_prefix_and_quotes_stay(source, literal, old, new, expected):
    assert fixed(source, literal, old, new) == expected


def test_a_literal_that_no_longer_starts_with_the_old_value_is_left_alone():
    source = 'device = "npu:0"\n'
    finding = rewrite(source, '"npu:0"', "string-value", {"old": "cuda", "new": "npu"}, key="span")
    assert edits_for(finding.fix, source) == []


def test_the_old_value_must_be_at_the_start_of_the_string():
    source = 'name = "my-cuda"\n'
    finding = rewrite(source, '"my-cuda"', "string-value", {"old": "cuda", "new": "npu"}, key="span")
    assert edits_for(finding.fix, source) == []


def test_a_span_that_is_not_a_literal_is_an_error():
    source = "device = cuda_name\n"
    finding = rewrite(source, "cuda_name", "string-value", {"old": "cuda", "new": "npu"}, key="span")
    with pytest.raises(FixError, match="is not a string literal"):
        edits_for(finding.fix, source)
