#!/usr/bin/env bash
# Install code-server (VS Code in the browser) from the npm registry into a directory, without its
# install scripts: they download ripgrep from GitHub and run `npx`, and neither works on a machine that
# reaches only the package registries. Used by the real-VS-Code end-to-end test.
#
#   scripts/install-code-server.sh DIR     →  DIR/package/out/node/entry.js
#
# Idempotent: a finished install leaves DIR/.installed-<version> and a second run returns at once.
# Needs Node 20 (code-server 4.100.3 is the last release that runs on it), npm, a C++ toolchain, and the
# Debian packages libkrb5-dev and ripgrep (installed here with apt-get when missing and we are root).
set -euo pipefail

VERSION="${CODE_SERVER_VERSION:-4.100.3}"

if [ $# -ne 1 ]; then
  echo "usage: $0 DIR   (installs code-server $VERSION into DIR)" >&2
  exit 2
fi
mkdir -p "$1"
target=$(cd "$1" && pwd)
marker="$target/.installed-$VERSION"
package="$target/package"

if [ -f "$marker" ] && [ -f "$package/out/node/entry.js" ]; then
  echo "code-server $VERSION already installed in $target"
  exit 0
fi

node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo none)
if [ "$node_major" != "20" ]; then
  echo "code-server $VERSION needs Node 20; found: $node_major" >&2
  exit 1
fi

missing_debian=()
command -v rg >/dev/null || missing_debian+=(ripgrep)
[ -f /usr/include/krb5.h ] || [ -f /usr/include/gssapi/gssapi.h ] || missing_debian+=(libkrb5-dev)
command -v g++ >/dev/null || missing_debian+=(g++)
command -v make >/dev/null || missing_debian+=(make)
if [ ${#missing_debian[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "missing Debian packages: ${missing_debian[*]} (install them with apt-get, then run again)" >&2
    exit 1
  fi
  echo "installing Debian packages: ${missing_debian[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing_debian[@]}"
fi

# npm's own node-gyp builds against the system Node headers (/usr/include/node), so nothing is downloaded.
npm_root=$(npm root -g)/npm
node_gyp="$npm_root/node_modules/node-gyp/bin/node-gyp.js"
[ -f "$node_gyp" ] || node_gyp="$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")/node_modules/node-gyp/bin/node-gyp.js"
node_headers="${NODE_HEADERS_DIR:-/usr}"
export npm_config_nodedir="$node_headers"
export npm_config_yes=false npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false

echo "downloading code-server $VERSION"
rm -rf "$package" "$target/download"
mkdir -p "$target/download"
(cd "$target/download" && npm pack --silent "code-server@$VERSION" >/dev/null)
tar -xzf "$target/download/code-server-$VERSION.tgz" -C "$target"
rm -rf "$target/download"

echo "installing code-server's dependencies (scripts off)"
(cd "$package" && npm install --omit=dev --ignore-scripts --no-save --loglevel=error)
(cd "$package/lib/vscode" && npm install --omit=dev --ignore-scripts --no-save --loglevel=error)

echo "building native modules"
(cd "$package" && npm rebuild argon2 --loglevel=error)
(cd "$package/lib/vscode" && npm rebuild kerberos @parcel/watcher @vscode/deviceid @vscode/spdlog \
  native-watchdog --loglevel=error)
(cd "$package/lib/vscode/node_modules/node-pty" && node "$node_gyp" rebuild --nodedir="$node_headers" --loglevel=warn >/dev/null)

echo "linking Debian's ripgrep and making the links code-server's postinstall would make"
ripgrep_bin="$package/lib/vscode/node_modules/@vscode/ripgrep/bin"
mkdir -p "$ripgrep_bin"
ln -sfn "$(command -v rg)" "$ripgrep_bin/rg"
ln -sfn node_modules "$package/lib/vscode/node_modules.asar"
ln -sfn code-linux.sh "$package/lib/vscode/bin/remote-cli/code-server"
ln -sfn browser-linux.sh "$package/lib/vscode/bin/helpers/browser.sh"

echo "installing the built-in extensions' shared dependencies"
(cd "$package/lib/vscode/extensions" && npm install --omit=dev --no-save --loglevel=error)

# Always pass --config: without it code-server writes a default config (with a password) into ~/.config.
: > "$target/config.yaml"
version_seen=$(node "$package/out/node/entry.js" --config "$target/config.yaml" --version | grep -m 1 -E '^[0-9]+\.' || true)
echo "code-server reports: $version_seen"
case "$version_seen" in
  "$VERSION"*) ;;
  *) echo "unexpected code-server version: $version_seen" >&2; exit 1 ;;
esac
touch "$marker"
echo "code-server $VERSION installed in $target (run: node $package/out/node/entry.js)"
