#!/usr/bin/env bash
# Stage 20: static checks. `ruff check server` and `mypy` with the settings and pinned versions in
# pyproject.toml ([tool.ruff], [tool.mypy], the `lint` extra). mypy runs in a venv that has ascend-migrate
# and its dependencies installed, so pygls, lsprotocol and libcst are checked against their real types.
# SKIPPED only when the tools cannot be installed from PyPI; any finding fails the stage.
set -u
cd "$(dirname "$0")/../.."
venv="${XDG_CACHE_HOME:-$HOME/.cache}/ascend-migrate/static-venv"
export PIP_DISABLE_PIP_VERSION_CHECK=1

skip() { echo "stage 20-static: SKIPPED: $1"; exit 0; }
fail() { echo "stage 20-static: FAILED: $1"; exit 1; }

if [ ! -x "$venv/bin/python" ]; then
  mkdir -p "$(dirname "$venv")"
  python3 -m venv "$venv" || fail "python3 -m venv is not available"
fi
echo "+ pip install -e . (into $venv)"
"$venv/bin/pip" install -q -e . || fail "ascend-migrate does not install into the static-check venv"
echo "+ pip install -e .[lint]"
"$venv/bin/pip" install -q -e ".[lint]" || skip "ruff, mypy or types-PyYAML at the versions pinned in pyproject.toml could not be installed from PyPI"

echo "+ ruff check server ($("$venv/bin/ruff" --version))"
"$venv/bin/ruff" check server
ruff_status=$?
echo "+ mypy ($("$venv/bin/mypy" --version))"
mypy_output=$("$venv/bin/mypy" 2>&1)
mypy_status=$?
echo "$mypy_output"
mypy_summary=$(echo "$mypy_output" | tail -n 1)

if [ "$ruff_status" -ne 0 ] || [ "$mypy_status" -ne 0 ]; then
  ruff_result="ruff clean"
  [ "$ruff_status" -ne 0 ] && ruff_result="ruff found problems (exit $ruff_status)"
  fail "$ruff_result; mypy: $mypy_summary"
fi
echo "stage 20-static: passed: ruff clean on server/; mypy: $mypy_summary"
