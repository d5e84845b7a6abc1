"""The one loop over files (scan, fix, the editor's workspace scan) and how many processes `--jobs` means."""

import os

from ascend_migrate.workspace import each_file, processes


def _length_of_name(item: tuple[str, int]) -> tuple[str, int]:
    path, weight = item
    return path, len(path) * weight


def test_jobs_zero_means_one_process_per_usable_core_even_without_sched_getaffinity(monkeypatch):
    assert processes(3) == 3
    monkeypatch.delattr(os, "sched_getaffinity", raising=False)  # macOS and Windows have no such call
    monkeypatch.setattr(os, "cpu_count", lambda: 6)
    assert processes(0) == 6
    monkeypatch.setattr(os, "cpu_count", lambda: None)
    assert processes(0) == 1


def test_every_item_once_with_its_index_in_one_process_or_in_two(tmp_path):
    items = [(str(tmp_path / f"{'x' * number}.py"), number) for number in range(1, 12)]
    for item in items[::3]:  # some exist (the pool starts with the largest), the others are read as empty
        with open(item[0], "w", encoding="utf-8") as handle:
            handle.write("#" * item[1])
    expected = [(index, _length_of_name(item)) for index, item in enumerate(items)]
    assert list(each_file(_length_of_name, items)) == expected
    assert sorted(each_file(_length_of_name, items, jobs=2)) == expected


def test_stopping_early_leaves_the_other_items_alone():
    seen = []

    def record(item):
        seen.append(item[0])
        return item[0]

    loop = each_file(record, [("a.py",), ("b.py",), ("c.py",)])
    assert next(loop) == (0, "a.py")
    loop.close()
    assert seen == ["a.py"]
