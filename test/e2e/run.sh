#!/usr/bin/env bash
# The end-to-end files, two at a time, slowest first (test/sequencer.cjs). The three files that
# run `npm start` hold the demo's lock (oneDemoAtATime), so they run one at a time beside the rest.
set -uo pipefail
cd "$(dirname "$0")/../.."
npx jest --selectProjects e2e --maxWorkers=2
