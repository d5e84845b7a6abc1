"""Fixtures of the report tests: a hand-built scan result, and Microsoft's SARIF validator when it is installed."""

from __future__ import annotations

from pathlib import Path

import pytest

from ascend_migrate.analysis.findings import ScanResult
from report_samples import build_result, find_sarif_validator, skip_or_fail, validator_environment

VALIDATOR_CONFIG = Path(__file__).with_name("sarif-validator-config.xml")


@pytest.fixture
def sample_result() -> ScanResult:
    return build_result()


@pytest.fixture(scope="session")
def sarif_validator():
    """validate({name: document}, directory) → the validator's findings at level error or warning, as text lines."""
    import json
    import subprocess

    binary = find_sarif_validator()
    if binary is None:
        skip_or_fail("the SARIF validator is not installed (set SARIF_MULTITOOL, or run .ci/stages/40-reports.sh)")

    def validate(documents: dict[str, dict], directory: Path) -> list[str]:
        paths = []
        for name, document in documents.items():
            path = directory / f"{name}.sarif"
            path.write_text(json.dumps(document, ensure_ascii=False, indent=2), encoding="utf-8")
            paths.append(str(path))
        log = directory / "validation.sarif"
        completed = subprocess.run(
            [
                str(binary), "validate", *paths, "--output", str(log), "--log", "ForceOverwrite",
                "--level", "Error;Warning", "--config", str(VALIDATOR_CONFIG),
            ],
            capture_output=True, text=True, timeout=120, env=validator_environment(),
        )
        assert log.is_file(), f"the validator wrote no log (exit {completed.returncode}):\n{completed.stdout}\n{completed.stderr}"
        problems = []
        for run in json.loads(log.read_text(encoding="utf-8-sig"))["runs"]:
            for result in run.get("results", []):
                if result.get("level", "warning") in ("error", "warning"):
                    locations = result.get("locations") or [{}]
                    location = locations[0].get("physicalLocation", {}).get("artifactLocation", {}).get("uri", "?")
                    problems.append(f"{location}: {result['ruleId']} {result['level']}: {result['message']}")
            for invocation in run.get("invocations", []):
                for notification in invocation.get("toolExecutionNotifications", []):
                    if notification.get("level") == "error":
                        problems.append(f"validator error: {notification['message']['text']}")
        assert completed.returncode == 0 or problems, f"validator exit {completed.returncode}:\n{completed.stdout}"
        return problems

    return validate
