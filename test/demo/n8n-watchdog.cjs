/**
 * Preloaded into the demo's n8n (NODE_OPTIONS=--require, set by test/demo/lifeline.ts), before
 * n8n's own code: n8n stops itself once the demo process that started it is gone.
 *
 * Why inside n8n: startN8n spawns n8n detached, i.e. as the leader of its own session and process
 * group, so nothing aimed at `npm start` or its process group reaches it (a terminal's Ctrl-C or
 * hang-up, an IDE's stop button, a SIGKILL of the group), and a demo process killed with SIGKILL
 * cannot stop it. The one thing that reliably happens in every such case is that n8n is
 * re-parented when the demo dies, so n8n polls its parent pid: no helper process to keep alive,
 * and it works however the demo died. It then stops its whole group (n8n and its task runner) with
 * SIGTERM, SIGKILL after a grace period, and removes the demo's temp folder.
 *
 * Plain CommonJS so node loads it without tsx.
 */
'use strict';

const { rmSync, writeFileSync } = require('node:fs');

const env = process.env;
const parentPid = Number(env.PHONOVATION_DEMO_PARENT_PID);
const pidFile = env.PHONOVATION_DEMO_N8N_PID_FILE;
const folder = env.PHONOVATION_DEMO_FOLDER;
const graceMs = Number(env.PHONOVATION_DEMO_GRACE_MS) || 15_000;
// n8n only: nothing n8n starts (its task runner, npm) inherits the watchdog.
for (const key of [
	'NODE_OPTIONS',
	'PHONOVATION_DEMO_PARENT_PID',
	'PHONOVATION_DEMO_N8N_PID_FILE',
	'PHONOVATION_DEMO_FOLDER',
	'PHONOVATION_DEMO_GRACE_MS',
]) {
	delete env[key];
}

/** The demo learns n8n's pid from this (for a forced stop and its banner). */
if (pidFile) writeFileSync(pidFile, String(process.pid));

/** n8n leads its process group (spawned detached); the task runner is in it too. */
function signalGroup(signal) {
	try {
		process.kill(-process.pid, signal);
	} catch {
		try {
			process.kill(process.pid, signal);
		} catch {
			// already gone
		}
	}
}

function removeFolder() {
	if (!folder) return;
	try {
		rmSync(folder, { recursive: true, force: true });
	} catch {
		// best effort: it is a temp folder
	}
}

if (Number.isInteger(parentPid) && parentPid > 0) {
	if (process.ppid !== parentPid) {
		// The demo died before n8n even loaded: nothing of n8n runs yet.
		removeFolder();
		process.exit(1);
	}
	const timer = setInterval(() => {
		if (process.ppid === parentPid) return;
		clearInterval(timer);
		if (process.listenerCount('SIGTERM') === 0) {
			// Too early for n8n's graceful shutdown (SIGTERM would kill it before any 'exit' handler).
			removeFolder();
			signalGroup('SIGKILL');
			return;
		}
		process.once('exit', removeFolder);
		// n8n's own graceful shutdown (N8N_GRACEFUL_SHUTDOWN_TIMEOUT), then no more waiting. This timer
		// is not unref'd on purpose: it must fire if the shutdown hangs.
		signalGroup('SIGTERM');
		setTimeout(() => {
			removeFolder();
			signalGroup('SIGKILL');
		}, graceMs);
	}, 500);
	// The watch itself never keeps n8n alive.
	timer.unref();
}
