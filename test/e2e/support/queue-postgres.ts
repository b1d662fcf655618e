/**
 * A private PostgreSQL for n8n's queue mode: Debian's `postgresql` (installed with apt-get when
 * absent), a fresh cluster in a temp folder, on a free 127.0.0.1 port, stopped and removed with
 * the test. As root the cluster belongs to Debian's `postgres` user (the server refuses root).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { aptInstall } from './debian-package';
import { exited } from './n8n-process';
import { freePort } from './ports';
import { captureOutput, runCommand } from './run-command';

export interface PostgresServer {
	host: '127.0.0.1';
	port: number;
	database: string;
	user: string;
	/** Any password: the private cluster trusts loopback connections. */
	password: string;
	/** What the server printed (for failure messages). */
	output(): string;
	stop(): Promise<void>;
}

const VERSIONS_DIR = '/usr/lib/postgresql';

/** The bin folder of the newest installed PostgreSQL (Debian keeps one per major version). */
function postgresBinDir(): string | undefined {
	if (!existsSync(VERSIONS_DIR)) return undefined;
	const versions = readdirSync(VERSIONS_DIR).filter((v) =>
		existsSync(path.join(VERSIONS_DIR, v, 'bin', 'postgres')),
	);
	const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
	return newest ? path.join(VERSIONS_DIR, newest, 'bin') : undefined;
}

/** PostgreSQL's bin folder; installs Debian's package first when it is missing. */
export async function ensurePostgres(log: (line: string) => void = () => {}): Promise<string> {
	const found = postgresBinDir();
	if (found) return found;
	await aptInstall('postgresql', 'queue-mode scenario', log);
	const installed = postgresBinDir();
	if (!installed)
		throw new Error(`apt-get installed postgresql but no server is under ${VERSIONS_DIR}`);
	return installed;
}

/** Who runs the server: Debian's `postgres` user when we are root, ourselves otherwise. */
async function serverUser(): Promise<{ uid?: number; gid?: number }> {
	if (process.getuid?.() !== 0) return {};
	const id = async (flag: string) =>
		Number((await runCommand('id', [flag, 'postgres'], { cwd: tmpdir() })).trim());
	return { uid: await id('-u'), gid: await id('-g') };
}

async function untilAccepting(
	bin: string,
	port: number,
	child: ChildProcess,
	output: () => string,
): Promise<void> {
	const deadline = Date.now() + 60_000;
	for (;;) {
		try {
			await runCommand(
				path.join(bin, 'pg_isready'),
				['-h', '127.0.0.1', '-p', String(port), '-U', 'n8n'],
				{ cwd: tmpdir() },
			);
			return;
		} catch {
			if (child.exitCode !== null || Date.now() > deadline) {
				throw new Error(`PostgreSQL did not start on 127.0.0.1:${port}\n${output()}`);
			}
			await new Promise((resolve) => setTimeout(resolve, 300));
		}
	}
}

/** Server settings for a throw-away test cluster: loopback only, no durability. */
const serverArgs = (dataDir: string, socketDir: string, port: number) =>
	[
		'-D',
		dataDir,
		'-p',
		String(port),
		'-c',
		'listen_addresses=127.0.0.1',
		'-c',
		`unix_socket_directories=${socketDir}`,
	].concat([
		'-c',
		'fsync=off',
		'-c',
		'synchronous_commit=off',
		'-c',
		'full_page_writes=off',
		'-c',
		'max_connections=200',
	]);

/** initdb, then the server in the foreground, then an empty database for n8n. */
export async function startPostgres(bin: string): Promise<PostgresServer> {
	const dir = await mkdtemp(path.join(tmpdir(), 'n8n-phonovation-postgres-'));
	const user = await serverUser();
	if (user.uid !== undefined) await chown(dir, user.uid, user.gid ?? user.uid);
	await chmod(dir, 0o700);
	const dataDir = path.join(dir, 'data');
	const run = { cwd: dir, ...user };
	await runCommand(
		path.join(bin, 'initdb'),
		['-D', dataDir, '-U', 'n8n', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync'],
		run,
	);
	const port = await freePort();
	const child = spawn(path.join(bin, 'postgres'), serverArgs(dataDir, dir, port), {
		...run,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	const output = captureOutput(child);
	const stop = async () => {
		// SIGINT is PostgreSQL's fast shutdown: sessions are ended, nothing is waited for.
		if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
		const killTimer = setTimeout(() => child.kill('SIGKILL'), 20_000);
		await exited(child);
		clearTimeout(killTimer);
		await rm(dir, { recursive: true, force: true, maxRetries: 3 });
	};
	try {
		await untilAccepting(bin, port, child, output);
		await runCommand(
			path.join(bin, 'createdb'),
			['-h', '127.0.0.1', '-p', String(port), '-U', 'n8n', 'n8n'],
			run,
		);
	} catch (error) {
		await stop();
		throw error;
	}
	return { host: '127.0.0.1', port, database: 'n8n', user: 'n8n', password: 'n8n', output, stop };
}
