/**
 * `npm start`, run as a person runs it (the README's command), with what it prints: the URLs to
 * open, n8n's log file, and a Ctrl-C that stops it.
 */
import { type ChildProcess, spawn } from 'node:child_process';

import { REPO_ROOT } from './paths';

export interface RunningDemo {
	/** The editor's URL as printed ("Open http://localhost:<port>"). */
	n8nUrl: string;
	simUrl: string;
	logFile: string;
	/** Everything the demo printed so far. */
	output(): string;
	/**
	 * Ctrl-C (SIGINT to the process group). Resolves once every process of the demo has let go of
	 * its output, i.e. the demo has finished stopping (npm itself may exit first).
	 */
	interrupt(): Promise<void>;
	/** SIGKILL for cleanup after a failed test; does nothing once it has exited. */
	kill(): void;
}

/** Resolves once the collected output matches; rejects on timeout or when the child exits first. */
function waitForOutput(child: ChildProcess, output: () => string, pattern: RegExp, timeoutMs: number) {
	return new Promise<RegExpMatchArray>((resolve, reject) => {
		const timer = setTimeout(() => reject(new Error(`No "${pattern}" within ${timeoutMs} ms:\n${output()}`)), timeoutMs);
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

/** Starts `npm start` in its own process group and waits for its "running" banner. */
export async function startDemo(timeoutMs = 180_000): Promise<RunningDemo> {
	const child = spawn('npm', ['start'], { cwd: REPO_ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
	let text = '';
	const collect = (chunk: Buffer) => void (text += chunk.toString('utf8'));
	child.stdout?.on('data', collect);
	child.stderr?.on('data', collect);
	const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
	const running = () => child.exitCode === null && child.signalCode === null;
	const kill = () => {
		if (child.pid && running()) process.kill(-child.pid, 'SIGKILL');
	};
	try {
		await waitForOutput(child, () => text, /n8n with n8n-nodes-phonovation is running/, timeoutMs);
	} catch (error) {
		kill();
		throw error;
	}
	return {
		n8nUrl: printed(text, /Open\s+(http:\/\/localhost:\d+)/),
		simUrl: printed(text, /Simulator listening on (http:\/\/127\.0\.0\.1:\d+)/),
		logFile: printed(text, /n8n's log:\s+(\S+)/),
		output: () => text,
		interrupt: () => {
			if (child.pid && running()) process.kill(-child.pid, 'SIGINT');
			return closed;
		},
		kill,
	};
}
