# Sourced by the stages that run in stage 30's venv of real packages (35-runtime, 37-weights, 38-execution):
# goes to the checkout's root and sets `root`, the shared work directory `work` and `venv`, a `fail` that names
# the stage (set `stage` before sourcing), and creates the venv when stage 30 has not.
# Usage: stage=35-runtime; source "$(dirname "$0")/../lib/shared-venv.sh"
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
root=$(pwd)
work="${ASCEND_MIGRATE_KB_VERIFY_DIR:-${TMPDIR:-/tmp}/ascend-migrate-kb-verify}"
venv="$work/venv"
mkdir -p "$work" .ci/logs
export PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONWARNINGS=ignore GLOG_v=3

fail() { echo "stage $stage: FAILED: $1"; exit 1; }

if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv" || fail "python3 -m venv is not available"
fi
