import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';

export interface RunOptions {
	cwd: string;
	env?: NodeJS.ProcessEnv;
	/** Appends the command's output to this file (it can be long: an npm install). */
	logFile?: string;
	/** Also receives every output line, e.g. to show progress. */
	onLine?: (line: string) => void;
	timeoutMs?: number;
	/** Run as this user and group (ids), e.g. a server that refuses to run as root. */
	uid?: number;
	gid?: number;
}

/**
 * Runs a command without a shell and without blocking the event loop, so a jest hook that
 * waits minutes for an install still honours its own timeout. Rejects with the output's tail.
 */
export function runCommand(command: string, args: string[], options: RunOptions): Promise<string> {
	return new Promise((resolve, reject) => {
		const child = spawn(command, args, {
			cwd: options.cwd,
			env: options.env ?? process.env,
			stdio: ['ignore', 'pipe', 'pipe'],
			uid: options.uid,
			gid: options.gid,
		});
		const log = options.logFile ? createWriteStream(options.logFile, { flags: 'a' }) : undefined;
		log?.write(`\n$ ${command} ${args.join(' ')}\n`);
		let output = '';
		let partial = '';
		const onData = (chunk: Buffer) => {
			const text = chunk.toString('utf8');
			output = (output + text).slice(-64_000);
			log?.write(text);
			if (!options.onLine) return;
			const lines = (partial + text).split('\n');
			partial = lines.pop() ?? '';
			for (const line of lines) if (line.trim()) options.onLine(line);
		};
		child.stdout.on('data', onData);
		child.stderr.on('data', onData);
		const timer = options.timeoutMs
			? setTimeout(() => child.kill('SIGKILL'), options.timeoutMs)
			: undefined;
		child.on('error', (error) => {
			if (timer) clearTimeout(timer);
			log?.end();
			reject(error);
		});
		child.on('close', (code, signal) => {
			if (timer) clearTimeout(timer);
			log?.end();
			if (code === 0) return resolve(output);
			const tail = output.split('\n').slice(-40).join('\n');
			reject(
				new Error(
					`${command} ${args.join(' ')} failed (${signal ? `signal ${signal}` : `exit ${code}`}) in ${options.cwd}\n${tail}`,
				),
			);
		});
	});
}

/** The npm that belongs to the running Node (PATH puts Node 24 first), called without a shell. */
export const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Keeps the last 8,000 characters a long-running child prints (for failure messages). */
export function captureOutput(child: ChildProcess): () => string {
	let output = '';
	const collect = (chunk: Buffer) => void (output = (output + chunk.toString()).slice(-8000));
	child.stdout?.on('data', collect);
	child.stderr?.on('data', collect);
	return () => output;
}
