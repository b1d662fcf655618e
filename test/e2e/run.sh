#!/usr/bin/env bash
# The end-to-end files, two at a time, then the three that start `npm start` on its fixed ports
# (5678, 8787) one after another: two of them at once collide on those ports.
set -uo pipefail
cd "$(dirname "$0")/../.."
DEMO_FILES='/test/e2e/(demo|demo-stop|browser)\.test\.ts$'
npx jest --selectProjects e2e --maxWorkers=2 \
	--testPathIgnorePatterns '/node_modules/' '/\.stryker-tmp/' "$DEMO_FILES"
parallel=$?
npx jest --selectProjects e2e --runInBand --testPathPatterns "$DEMO_FILES"
demo=$?
[ "$parallel" -eq 0 ] && [ "$demo" -eq 0 ]
