/**
 * `npm start`, run as a person runs it (the README's command), with what it prints: the URLs to
 * open, n8n's log file, and a Ctrl-C that stops it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

import { acquireLock } from './lock';
import { cacheRoot, REPO_ROOT } from './paths';
import { pidsWithEnv } from './processes';

export interface RunningDemo {
	/** The editor's URL as printed ("Open http://localhost:<port>"). */
	n8nUrl: string;
	simUrl: string;
	logFile: string;
	/** npm's pid (`npm start`), which leads the demo's process group: npm, sh, tsx, the demo. */
	pid: number;
	/** n8n's pid as printed; n8n leads its own process group (n8n and its task runner). */
	n8nPid: number;
	/** Everything the demo printed so far. */
	output(): string;
	/**
	 * Ctrl-C (SIGINT to the process group). Resolves once every process of the demo has let go of
	 * its output, i.e. the demo has finished stopping (npm itself may exit first).
	 */
	interrupt(): Promise<void>;
	/** Sends `signal` to the npm process, or with `group` to its whole process group (as a terminal does). */
	signal(signal: NodeJS.Signals, options?: { group?: boolean }): void;
	/** Settles once every process of the demo has let go of its output (npm itself may exit first). */
	closed: Promise<void>;
	/** SIGKILL to the demo's and n8n's process groups, for cleanup after a failed test; harmless once they are gone. */
	kill(): void;
}

/** Resolves once the collected output matches; rejects on timeout or when the child exits first. */
function waitForOutput(
	child: ChildProcess,
	output: () => string,
	pattern: RegExp,
	timeoutMs: number,
) {
	return new Promise<RegExpMatchArray>((resolve, reject) => {
		const timer = setTimeout(
			() => reject(new Error(`No "${pattern}" within ${timeoutMs} ms:\n${output()}`)),
			timeoutMs,
		);
		const check = () => {
			const match = output().match(pattern);
			if (match) {
				clearTimeout(timer);
				resolve(match);
			}
		};
		child.stdout?.on('data', check);
		child.once('exit', (code) => {
			clearTimeout(timer);
			reject(new Error(`The demo exited (${code}) before "${pattern}":\n${output()}`));
		});
		check();
	});
}

function printed(text: string, pattern: RegExp): string {
	const match = text.match(pattern);
	if (!match) throw new Error(`The demo did not print ${pattern}:\n${text}`);
	return match[1];
}

/** The n8n using the folder that holds `logFile` (N8N_USER_FOLDER), for a demo that does not print its pid. */
function n8nByFolder(logFile: string): number {
	const [pid] = pidsWithEnv('N8N_USER_FOLDER', path.dirname(logFile));
	if (pid === undefined) throw new Error(`No process runs n8n in ${path.dirname(logFile)}`);
	return pid;
}

/**
 * For a test file that runs `npm start`: holds the demo's lock from its first hook to its last,
 * so the files that start the demo run one at a time (they prefer the same ports, 5678 and 8787,
 * and check that a stopped demo let go of them) while the other files run beside them. Call it
 * at the top of the file, outside its describe, so its hooks come first and last.
 */
export function oneDemoAtATime(): void {
	let release: (() => Promise<void>) | undefined;
	beforeAll(async () => {
		release = await acquireLock(path.join(cacheRoot(), 'demo.lock'), (pid) =>
			process.stderr.write(`waiting for the demo of process ${pid} to finish\n`),
		);
	}, 20 * 60_000);
	afterAll(async () => await release?.());
}

/** Starts `npm start` in its own process group and waits for its "running" banner. */
export async function startDemo(timeoutMs = 180_000): Promise<RunningDemo> {
	const child = spawn('npm', ['start'], {
		cwd: REPO_ROOT,
		detached: true,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let text = '';
	const collect = (chunk: Buffer) => void (text += chunk.toString('utf8'));
	child.stdout?.on('data', collect);
	child.stderr?.on('data', collect);
	let isClosed = false;
	const closed = new Promise<void>((resolve) =>
		child.once('close', () => {
			isClosed = true;
			resolve();
		}),
	);
	const running = () => child.exitCode === null && child.signalCode === null;
	let n8nPid: number | undefined;
	const killGroup = (pgid: number | undefined) => {
		try {
			if (pgid) process.kill(-pgid, 'SIGKILL');
		} catch {
			// already gone
		}
	};
	// npm may be gone while the rest of its group lingers (the bug this guards against), and n8n is in a group of its
	// own.
	const kill = () => {
		if (!isClosed) killGroup(child.pid);
		killGroup(n8nPid);
	};
	try {
		await waitForOutput(child, () => text, /n8n with n8n-nodes-phonovation is running/, timeoutMs);
		n8nPid = Number(
			text.match(/n8n's process id:\s+(\d+)/)?.[1] ??
				n8nByFolder(printed(text, /n8n's log:\s+(\S+)/)),
		);
	} catch (error) {
		kill();
		throw error;
	}
	return {
		n8nUrl: printed(text, /Open\s+(http:\/\/localhost:\d+)/),
		simUrl: printed(text, /Simulator listening on (http:\/\/127\.0\.0\.1:\d+)/),
		logFile: printed(text, /n8n's log:\s+(\S+)/),
		pid: child.pid!,
		n8nPid,
		output: () => text,
		interrupt: () => {
			if (child.pid && running()) process.kill(-child.pid, 'SIGINT');
			return closed;
		},
		signal: (signal, options = {}) => {
			if (child.pid) process.kill(options.group ? -child.pid : child.pid, signal);
		},
		closed,
		kill,
	};
}
