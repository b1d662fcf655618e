/**
 * A private Redis for n8n's queue mode: Debian's `redis-server` (installed with apt-get when
 * absent), on a free 127.0.0.1 port, without persistence, stopped with the test.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { ensureDebianProgram } from './debian-package';
import { freePort } from './ports';
import { captureOutput } from './run-command';

export interface RedisServer {
	host: '127.0.0.1';
	port: number;
	/** What redis-server printed (for failure messages). */
	output(): string;
	stop(): Promise<void>;
}

/** The path of `redis-server`, installed from Debian when it is missing. */
export function ensureRedisServer(log: (line: string) => void = () => {}): Promise<string> {
	return ensureDebianProgram(
		{ binary: 'redis-server', debianPackage: 'redis-server', neededFor: 'queue-mode scenario' },
		log,
	);
}

/** Resolves when Redis answers PING with PONG. */
function ping(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const socket = createConnection({ host: '127.0.0.1', port });
		let answer = '';
		socket.setTimeout(1000, () => socket.destroy());
		socket.on('connect', () => socket.write('PING\r\n'));
		socket.on('data', (chunk) => {
			answer += chunk.toString();
			if (answer.includes('\r\n')) socket.end();
		});
		socket.on('close', () => resolve(answer.startsWith('+PONG')));
		socket.on('error', () => resolve(false));
	});
}

function exited(child: ChildProcess): Promise<void> {
	return new Promise((resolve) => {
		if (child.exitCode !== null || child.signalCode !== null) return resolve();
		child.once('exit', () => resolve());
	});
}

/** Starts redis-server in the foreground: no RDB snapshots, no AOF, loopback only. */
export async function startRedis(binary: string): Promise<RedisServer> {
	const port = await freePort();
	const dir = await mkdtemp(path.join(tmpdir(), 'n8n-phonovation-redis-'));
	const child = spawn(
		binary,
		[
			'--port',
			String(port),
			'--bind',
			'127.0.0.1',
			'--save',
			'',
			'--appendonly',
			'no',
			'--daemonize',
			'no',
			'--dir',
			dir,
		],
		{ stdio: ['ignore', 'pipe', 'pipe'] },
	);
	const output = captureOutput(child);
	const stop = async () => {
		if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
		await exited(child);
		await rm(dir, { recursive: true, force: true });
	};
	const deadline = Date.now() + 20_000;
	while (!(await ping(port))) {
		if (child.exitCode !== null || Date.now() > deadline) {
			await stop();
			throw new Error(`redis-server did not start on 127.0.0.1:${port}\n${output()}`);
		}
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
	return { host: '127.0.0.1', port, output, stop };
}
