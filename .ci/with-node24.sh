#!/usr/bin/env bash
# `npm test` and `npm start` run through this, so they work as typed on a machine whose node is
# older than 24: Node 24 first on PATH (fetched when needed), the locked dependencies installed
# when they are missing or do not match package.json, then the given command.
set -euo pipefail
cd "$(dirname "$0")/.."
source .ci/node24.sh
if ! npm ls --depth=0 >/dev/null 2>&1; then
  # The demo needs n8n as well: on a fresh clone its install starts now, beside this one, which
  # then yields the CPU to it: n8n's install is the longest step of a first start.
  priority=()
  if [ "${1:-}" = tsx ] && [ "${2:-}" = test/demo/start.ts ]; then
    source .ci/n8n-early.sh
    if n8n_install_early && command -v nice >/dev/null; then priority=(nice -n 10); fi
  fi
  echo "Installing the locked dependencies (npm ci, about a minute the first time) with node $(node --version)" >&2
  # The modules that compile here (cpu-features, ssh2) use the running Node's headers, not a
  # machine-wide nodedir.
  node_home="$(dirname "$(dirname "$(command -v node)")")"
  if [ -f "$node_home/include/node/node.h" ]; then export npm_config_nodedir="$node_home"; fi
  ${priority[@]+"${priority[@]}"} npm ci --no-audit --no-fund >&2
  unset npm_config_nodedir
fi
exec "$@"
