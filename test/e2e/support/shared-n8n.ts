/**
 * One n8n per jest worker, shared by the end-to-end files that differ only in the simulator's
 * settings. The first file a worker runs starts it (from the migrated user folder); later files of
 * that worker reuse it; the suite's teardown stops it (global-teardown.ts). A file hands it on as
 * it found it: its afterAll deletes every execution, workflow, credential and Data Table, and the
 * next file checks that nothing is left, naming the file that left it.
 */
import { existsSync } from 'node:fs';
import { readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { fetch } from 'undici';

import type { N8nInstall } from './install';
import { LAZY_ISOLATES_N8N_ENV } from './load-settings';
import { isAlive } from './lock';
import type { N8nClient } from './n8n-client';
import { type N8nProcess, startN8n, tailOf } from './n8n-process';
import { ensureUserFolderTemplate } from './user-folder-template';

/** The run's folder (set by global-setup.ts); without it every file starts its own n8n. */
export const RUN_DIR_VARIABLE = 'PHONOVATION_E2E_RUN_DIR';

interface SharedState {
	pid: number;
	url: string;
	port: number;
	userFolder: string;
	logFile: string;
	/** The file using it now, or the last one that did. */
	file: string;
	/** False from a file's start until its afterAll has cleared the instance. */
	handedBack: boolean;
	/** The owner's session cookie, used again by the next file (n8n limits logins per minute). */
	sessionCookie?: string;
}

export interface SharedLease {
	n8n: N8nProcess;
	/** The file that used this n8n before this one, in this worker. */
	previousFile?: string;
	/** The owner's session cookie from an earlier file, if any. */
	sessionCookie?: string;
	/** Clears the instance for the next file and notes that this file handed it back. */
	release(client: N8nClient): Promise<void>;
}

/**
 * On in a full run (global-setup.ts sets the run's folder); PHONOVATION_E2E_SHARE=0 gives every
 * file its own n8n again, to tell a hand-over problem from a product one. The files that change
 * n8n's settings (n8nEnv) always start their own.
 */
export function sharingEnabled(): boolean {
	return Boolean(process.env[RUN_DIR_VARIABLE]) && process.env.PHONOVATION_E2E_SHARE !== '0';
}

function stateFile(): string {
	return path.join(
		process.env[RUN_DIR_VARIABLE] ?? '',
		`n8n-worker-${process.env.JEST_WORKER_ID ?? '1'}.json`,
	);
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
	try {
		process.kill(-pid, signal);
	} catch {
		// already gone
	}
}

async function ready(url: string): Promise<boolean> {
	try {
		const response = await fetch(`${url}/healthz/readiness`, { signal: AbortSignal.timeout(5000) });
		await response.body?.cancel();
		return response.status === 200;
	} catch {
		return false;
	}
}

async function readState(): Promise<SharedState | undefined> {
	try {
		return JSON.parse(await readFile(stateFile(), 'utf8')) as SharedState;
	} catch {
		return undefined;
	}
}

async function writeState(state: SharedState): Promise<void> {
	await writeFile(stateFile(), JSON.stringify(state, null, '\t'));
}

function processOf(state: SharedState): N8nProcess {
	return {
		url: state.url,
		port: state.port,
		userFolder: state.userFolder,
		logFile: state.logFile,
		pid: state.pid,
		webhookUrl: (webhookPath) => `${state.url}/webhook/${webhookPath.replace(/^\/+/, '')}`,
		exited: new Promise<void>((resolve) => {
			const timer = setInterval(() => {
				if (isAlive(state.pid)) return;
				clearInterval(timer);
				resolve();
			}, 1000);
			timer.unref();
		}),
		logTail: (lines = 60) => tailOf(state.logFile, lines),
		// Shared: the teardown stops it.
		stop: async () => undefined,
	};
}

/** This worker's n8n, started on first use; `file` names the test file for the hand-over check. */
export async function leaseSharedN8n(options: {
	install: N8nInstall;
	packageTarball: string;
	file: string;
	log: (line: string) => void;
}): Promise<SharedLease> {
	let state = await readState();
	let previousFile: string | undefined;
	if (state && isAlive(state.pid) && (await ready(state.url))) {
		previousFile = state.handedBack
			? state.file
			: `${state.file} (its afterAll did not hand it back)`;
	} else {
		if (state)
			options.log(`The shared n8n of this worker (pid ${state.pid}) is gone; starting another`);
		const template = await ensureUserFolderTemplate(options.install, options.log);
		const started = await startN8n({
			install: options.install,
			packageTarball: options.packageTarball,
			template,
			unref: true,
			env: LAZY_ISOLATES_N8N_ENV,
		});
		state = {
			pid: started.pid ?? 0,
			url: started.url,
			port: started.port,
			userFolder: started.userFolder,
			logFile: started.logFile,
			file: options.file,
			handedBack: true,
		};
	}
	const current: SharedState = { ...state, file: options.file, handedBack: false };
	await writeState(current);
	return {
		n8n: processOf(current),
		previousFile,
		sessionCookie: current.sessionCookie,
		release: async (client) => {
			try {
				await client.clearEverything();
			} catch (error) {
				// The file's tests are done; an n8n that cannot be cleared is not handed on: it is
				// stopped, and the next file of this worker starts another.
				const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
				options.log(`could not clear the shared n8n for the next file (${String(cause)})`);
				process.stderr.write(
					`[shared n8n] ${options.file} could not clear its n8n (${String(cause)}): stopped, the next file starts another\n${tailOf(current.logFile, 20)}\n`,
				);
				killGroup(current.pid, 'SIGKILL');
				if (process.env.PHONOVATION_E2E_KEEP !== '1')
					await rm(current.userFolder, { recursive: true, force: true, maxRetries: 3 });
				return;
			}
			await writeState({ ...current, handedBack: true, sessionCookie: client.sessionCookie });
		},
	};
}

/**
 * Fails when the instance holds anything (a previous file's cleanup failed): the error names what
 * is left and the file that left it. The instance is cleared first, so the files after this one
 * are not failed too.
 */
export async function assertHandedOverEmpty(client: N8nClient, lease: SharedLease): Promise<void> {
	const left = await client.holdings();
	const count = left.workflows.length + left.credentials.length + left.dataTables.length;
	if (!count) return;
	await client.clearEverything();
	throw new Error(
		`The shared n8n was handed over holding what ${lease.previousFile ?? 'an earlier file'} left: ` +
			`workflows ${JSON.stringify(left.workflows)}, credentials ${JSON.stringify(left.credentials)}, ` +
			`Data Tables ${JSON.stringify(left.dataTables)}. Cleared now; fix that file's cleanup.`,
	);
}

/** Stops every shared n8n of the run (global-teardown.ts) and removes its user folder. */
export async function stopSharedN8ns(runDir: string): Promise<void> {
	if (!existsSync(runDir)) return;
	const files = (await readdir(runDir)).filter((f) => /^n8n-worker-.*\.json$/.test(f));
	await Promise.all(
		files.map(async (file) => {
			const state = JSON.parse(await readFile(path.join(runDir, file), 'utf8')) as SharedState;
			killGroup(state.pid, 'SIGTERM');
			const deadline = Date.now() + 20_000;
			while (isAlive(state.pid) && Date.now() < deadline) {
				await new Promise((resolve) => setTimeout(resolve, 250));
			}
			// The task runner may outlive its parent for a moment.
			killGroup(state.pid, 'SIGKILL');
			if (process.env.PHONOVATION_E2E_KEEP !== '1') {
				await rm(state.userFolder, { recursive: true, force: true, maxRetries: 3 });
			}
		}),
	);
}
