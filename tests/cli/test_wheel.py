"""The built wheel works outside the source tree: the knowledge base ships inside it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    output = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(output), str(REPOSITORY)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    (built,) = output.glob("ascend_migrate-*.whl")
    return built


def test_wheel_contains_the_package_and_the_mappings(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    assert "ascend_migrate/cli.py" in names
    prefix = "ascend_migrate/mappings/"
    yaml_files = {name[len(prefix):] for name in names if name.startswith(prefix) and name.endswith(".yaml")}
    source_files = {path.relative_to(REPOSITORY / "mappings").as_posix() for path in (REPOSITORY / "mappings").rglob("*.yaml")}
    assert yaml_files == source_files and yaml_files
    assert not any(name.startswith(("tests/", "server/")) for name in names)


def test_installed_wheel_scans_outside_the_source_tree(wheel, tmp_path):
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(target), str(wheel)],
                   check=True, capture_output=True, timeout=300)
    work = tmp_path / "work"
    work.mkdir()
    (work / "train.py").write_text("import torch\nmodel = torch.nn.Linear(2, 2)\n", encoding="utf-8")
    environment = {key: value for key, value in os.environ.items() if key != "ASCEND_MIGRATE_MAPPINGS"}
    environment["PYTHONPATH"] = str(target)
    probe = subprocess.run(
        [sys.executable, "-c", "import ascend_migrate, ascend_migrate.kb.index as i; print(ascend_migrate.__file__); print(i.default_mappings_directory())"],
        cwd=work, env=environment, capture_output=True, text=True, check=True,
    )
    package_file, mappings_directory = probe.stdout.split()
    assert package_file.startswith(str(target)) and mappings_directory.startswith(str(target))
    completed = subprocess.run(
        [sys.executable, "-m", "ascend_migrate", "scan", "--target", "mindspore", "--format", "json", "train.py"],
        cwd=work, env=environment, capture_output=True, text=True, timeout=120,
    )
    assert "Traceback" not in completed.stderr, completed.stderr
    document = json.loads(completed.stdout)
    assert document["files_scanned"] == 1
    assert any(finding["api"] == "torch.nn.Linear" for finding in document["findings"])
