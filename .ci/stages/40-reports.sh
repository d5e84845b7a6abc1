#!/usr/bin/env bash
# Stage 40: the reports checked by the real tools.
#  - Microsoft's SARIF validator: npm @microsoft/sarif-multitool 5.7.0, whose self-contained Linux binary comes in
#    @microsoft/sarif-multitool-linux. npm runs no install scripts here, so the binary's run bit is set by hand.
#    Every SARIF document that scans of the fixture project produce must validate with zero errors and warnings.
#  - A real browser: Debian's chromium (plus a CJK font, so Chinese messages show in the screenshots) driven
#    headless by npm playwright-core; the HTML report tests open the page, compare its counts with the JSON
#    report, use the filter and save screenshots in test-artifacts/.
# tests/reports then runs with ASCEND_MIGRATE_REQUIRE_REPORT_TOOLS=1, so a missing tool fails instead of
# skipping. A tool that cannot be installed at all is a skip, with the reason printed.
set -u
cd "$(dirname "$0")/../.."
repository=$(pwd)
cache="${XDG_CACHE_HOME:-$HOME/.cache}/ascend-migrate"
tools="$cache/reports-node"
artifacts="$repository/test-artifacts"
export DEBIAN_FRONTEND=noninteractive CI="${CI:-true}"
export npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false
export DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1 DOTNET_CLI_TELEMETRY_OPTOUT=1
mkdir -p "$cache" "$tools" "$artifacts"

SARIF_MULTITOOL_VERSION=5.7.0
PLAYWRIGHT_CORE_VERSION=1.65.1

note() { echo "== $*"; }
skip() { echo "reports: SKIPPED: $*"; exit 0; }
fail() { echo "reports: FAILED: $*"; exit 1; }

apt_install() {  # apt_install PACKAGE...: 0 when all are (now) installed
  local missing=()
  for package in "$@"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  apt-get update -q >/dev/null 2>&1 || true
  apt-get install -y -q --no-install-recommends "${missing[@]}"
}

# --- the Python with ascend-migrate: the README's .venv when CI's first stage made it, else our own ---
python="$repository/.venv/bin/python"
if ! "$python" -c "import ascend_migrate, pytest" 2>/dev/null; then
  note "creating a virtualenv with ascend-migrate[test]"
  python3 -m venv "$cache/venv" && "$cache/venv/bin/pip" install -q -e "$repository[test]" \
    || fail "could not install ascend-migrate into a virtualenv"
  python="$cache/venv/bin/python"
fi

# --- the tools ---
command -v npm >/dev/null 2>&1 || skip "npm is not installed, so neither the SARIF validator nor playwright-core can be"
note "installing @microsoft/sarif-multitool@$SARIF_MULTITOOL_VERSION and playwright-core@$PLAYWRIGHT_CORE_VERSION"
[ -f "$tools/package.json" ] || echo '{"name": "ascend-migrate-report-tools", "private": true}' > "$tools/package.json"
npm install --prefix "$tools" --no-save --loglevel=error \
  "@microsoft/sarif-multitool@$SARIF_MULTITOOL_VERSION" "playwright-core@$PLAYWRIGHT_CORE_VERSION" \
  || skip "npm could not install @microsoft/sarif-multitool and playwright-core"
validator="$tools/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool"
[ -f "$validator" ] || fail "the validator binary is not where the package puts it: $validator"
chmod u+x "$validator"
"$validator" --version >/dev/null 2>&1 || fail "the SARIF validator does not start: $("$validator" --version 2>&1 | tail -3)"

note "installing chromium and a CJK font"
browser_skipped=""
if ! apt_install chromium fonts-wqy-microhei; then
  browser_skipped="the Debian packages chromium and fonts-wqy-microhei could not be installed"
elif [ ! -x /usr/bin/chromium ]; then
  fail "chromium was installed but /usr/bin/chromium is missing"
fi

export SARIF_MULTITOOL="$validator" PLAYWRIGHT_NODE_MODULES="$tools/node_modules" CHROMIUM=/usr/bin/chromium
# Every real tool is required from here on, unless the browser could not be installed at all (then its tests skip).
[ -n "$browser_skipped" ] || export ASCEND_MIGRATE_REQUIRE_REPORT_TOOLS=1

# --- the validator on SARIF from CLI scans, outside pytest: both routes, stdout and --output ---
note "validating SARIF from scans of the fixture project"
sarif_dir=$(mktemp -d)
trap 'rm -rf "$sarif_dir"' EXIT
documents=0
for target in npu mindspore; do
  (cd tests/reports/projects/trainer && "$python" -m ascend_migrate scan . --target "$target" --format sarif \
     --no-progress > "$sarif_dir/trainer-$target.sarif")
  [ $? -le 1 ] || fail "scan --format sarif --target $target failed"
  "$python" -m ascend_migrate scan tests/reports/projects --target "$target" --format sarif --no-progress \
    --output "$sarif_dir/projects-$target.sarif"
  [ $? -le 1 ] || fail "scan --format sarif --output for --target $target failed"
  documents=$((documents + 2))
done
"$validator" validate "$sarif_dir"/*.sarif --output "$sarif_dir/validation.sarif" --log ForceOverwrite \
  --level "Error;Warning" --config tests/reports/sarif-validator-config.xml \
  || fail "the SARIF validator found errors (see above)"
problems=$("$python" - "$sarif_dir/validation.sarif" <<'PYTHON'
import json, sys
log = json.load(open(sys.argv[1], encoding="utf-8-sig"))
problems = [r for run in log["runs"] for r in run.get("results", []) if r.get("level", "warning") in ("error", "warning")]
for problem in problems:
    print(problem["ruleId"], problem["message"], file=sys.stderr)
print(len(problems))
PYTHON
)
[ "$problems" = "0" ] || fail "the SARIF validator reported $problems errors or warnings"
note "$documents SARIF documents: 0 errors, 0 warnings"

# --- the report tests, with every real tool required ---
note "running tests/reports"
"$python" -m pytest tests/reports -q -p no:cacheprovider 2>&1 | tee "$sarif_dir/pytest.log"
status=${PIPESTATUS[0]}
[ "$status" -eq 0 ] || fail "tests/reports failed (exit $status)"
summary=$(grep -E "^[0-9]+ passed" "$sarif_dir/pytest.log" | tail -1)
if [ -n "$browser_skipped" ]; then
  echo "SKIPPED browser tests: $browser_skipped"
  echo "reports: passed without the browser ($documents SARIF documents valid with 0 errors and 0 warnings; tests/reports: $summary)"
  exit 0
fi
ls "$artifacts"/html-report*.png >/dev/null 2>&1 || fail "the browser tests saved no screenshot"
echo "reports: passed ($documents SARIF documents valid with 0 errors and 0 warnings; tests/reports: $summary)"
