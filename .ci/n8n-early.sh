# Sourced by .ci/with-node24.sh when `npm start` finds the repository's dependencies missing (a fresh
# clone): the n8n install the demo needs (test/e2e/support/install.ts, minutes, mostly one core)
# starts now, beside the repository's npm ci, instead of after it. It runs in the background under a
# tsx of its own (the repository's is what npm ci is installing), in its own process group, which a
# watchdog stops once this shell (the demo, after exec) is gone. The demo then finds n8n installed,
# or waits on the install's lock while this prints its progress. A failure here only loses the head
# start: the demo installs n8n itself, as it does when this is skipped.
# Returns 0 when the install started, 1 when it is skipped (no setsid, no tsx version known).
n8n_install_early() {
  command -v setsid >/dev/null || return 1
  # The cache root, as test/e2e/support/paths.ts has it.
  local cache="${PHONOVATION_E2E_CACHE:-$HOME/.cache/n8n-phonovation-e2e}"
  local version
  version="$(node -p 'require("./package-lock.json").packages["node_modules/tsx"].version' 2>/dev/null)" || return 1
  local home="$cache/tsx-$version"
  local tsx="$home/node_modules/tsx/dist/cli.mjs"
  local shell=$$
  echo "Preparing n8n for the demo beside it (the first time: a few minutes, ~3 GB; cached for later runs)" >&2
  # The watchdog, in the background twice over (so that init, not the demo this shell becomes, reaps
  # it), outlives Ctrl-C (which would end a plain subshell) to stop the installer after this shell.
  ( (
    trap '' INT HUP TERM
    # Installed aside and moved into place whole: an install stopped half-way is never taken for one.
    if [ ! -f "$tsx" ]; then
      rm -rf "$home.partial" &&
        npm install --prefix "$home.partial" --no-save --no-audit --no-fund --no-update-notifier \
          --loglevel=error "tsx@$version" >&2 &&
        rm -rf "$home" && mv "$home.partial" "$home" || exit 0
    fi
    kill -0 "$shell" 2>/dev/null || exit 0
    # Not a process group leader (no job control here), so setsid makes this pid one. Node starts
    # with the default signal handlers, whatever this subshell ignores.
    setsid node "$tsx" test/e2e/support/install.ts &
    installer=$!
    while kill -0 "$shell" 2>/dev/null && kill -0 "$installer" 2>/dev/null; do sleep 1; done
    kill -TERM -- "-$installer" 2>/dev/null || exit 0
    # npm ci takes SIGTERM as a request to roll back, which can take minutes: 5 s, then SIGKILL.
    for _ in 1 2 3 4 5; do
      sleep 1
      kill -0 -- "-$installer" 2>/dev/null || exit 0
    done
    kill -KILL -- "-$installer" 2>/dev/null || true
  ) & )
}
