/**
 * n8n in queue mode: one main (`n8n start`: editor, REST API, publishing), workers (`n8n
 * worker`: run every execution, manual ones included) and one webhook process (`n8n webhook`:
 * serves production webhooks and queues their executions). They share one PostgreSQL database,
 * one Redis, one encryption key and one user folder (one installed copy of the community package).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, openSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { N8nInstall } from './install';
import { exited, installCommunityPackage, n8nEnv, signalGroup, tailOf } from './n8n-process';
import { freePort } from './ports';
import type { PostgresServer } from './queue-postgres';

type PostgresConnection = Pick<PostgresServer, 'host' | 'port' | 'database' | 'user' | 'password'>;

/** Where every process finds the shared database. */
const databaseEnv = (db: PostgresConnection) => ({
	DB_TYPE: 'postgresdb',
	DB_POSTGRESDB_HOST: db.host,
	DB_POSTGRESDB_PORT: String(db.port),
	DB_POSTGRESDB_DATABASE: db.database,
	DB_POSTGRESDB_USER: db.user,
	DB_POSTGRESDB_PASSWORD: db.password,
	// n8n's 20 s to get a connection is short for four n8n processes and Postgres on 2 busy cores.
	DB_POSTGRESDB_CONNECTION_TIMEOUT: '60000',
});

export type QueueRole = 'main' | 'worker' | 'webhook';

export interface QueueProcess {
	role: QueueRole;
	/** `main`, `webhook`, `worker-1`, `worker-2` … */
	name: string;
	/** Where this process answers HTTP: the editor/REST API, the worker's health server, or webhooks. */
	url: string;
	logFile: string;
	logTail(lines?: number): string;
	/** The whole log so far. */
	log(): string;
	/** kill -9 of the process and its task runner; resolves once it has exited. */
	kill(): Promise<void>;
	/** Its process id (its task runner runs below it). */
	pid?: number;
}

export interface QueueModeN8n {
	main: QueueProcess;
	workers: QueueProcess[];
	webhook: QueueProcess;
	userFolder: string;
	/** Stops webhook process and workers, then main; removes the user folder (kept when PHONOVATION_E2E_KEEP=1). */
	stop(): Promise<void>;
}

export interface StartQueueModeOptions {
	install: N8nInstall;
	packageTarball: string;
	redis: { host: string; port: number };
	postgres: PostgresConnection;
	/** How many `n8n worker` processes (default 2). */
	workers?: number;
	/** Extra environment for all three processes, applied last. */
	env?: Record<string, string>;
	readyTimeoutMs?: number;
}

const COMMAND: Record<QueueRole, string> = { main: 'start', worker: 'worker', webhook: 'webhook' };

async function stopChild(child: ChildProcess): Promise<void> {
	signalGroup(child, 'SIGTERM');
	const killTimer = setTimeout(() => signalGroup(child, 'SIGKILL'), 20_000);
	await exited(child);
	clearTimeout(killTimer);
	signalGroup(child, 'SIGKILL');
}

async function untilReady(
	role: string,
	url: string,
	child: ChildProcess,
	logFile: string,
	timeoutMs: number,
) {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (child.exitCode !== null || child.signalCode !== null) {
			throw new Error(
				`n8n ${role} exited during start (${child.exitCode ?? child.signalCode}).\n${tailOf(logFile, 60)}`,
			);
		}
		try {
			const response = await fetch(`${url}/healthz/readiness`, {
				signal: AbortSignal.timeout(2000),
			});
			if (response.status === 200) return;
		} catch {
			// not listening yet
		}
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
	throw new Error(
		`n8n ${role} was not ready within ${timeoutMs / 1000} s.\n${tailOf(logFile, 60)}`,
	);
}

/** Hands out free ports, each once. */
function portAllocator(): () => Promise<number> {
	const taken = new Set<number>();
	return async () => {
		let candidate = await freePort();
		while (taken.has(candidate)) candidate = await freePort();
		taken.add(candidate);
		return candidate;
	};
}

interface Launch {
	name: string;
	role: QueueRole;
	httpPort: number;
	env: NodeJS.ProcessEnv;
}

/** Spawns one n8n process in its own process group, logging to <user folder>/n8n-<name>.log. */
async function launchProcess(
	options: StartQueueModeOptions,
	userFolder: string,
	launch: Launch,
	children: ChildProcess[],
) {
	const logFile = path.join(userFolder, `n8n-${launch.name}.log`);
	const logFd = openSync(logFile, 'a');
	const child = spawn(process.execPath, [options.install.bin, COMMAND[launch.role]], {
		cwd: userFolder,
		env: launch.env,
		stdio: ['ignore', logFd, logFd],
		detached: true,
	});
	closeSync(logFd);
	children.push(child);
	const url = `http://127.0.0.1:${launch.httpPort}`;
	await untilReady(launch.name, url, child, logFile, options.readyTimeoutMs ?? 240_000);
	const queueProcess: QueueProcess = {
		role: launch.role,
		name: launch.name,
		url,
		pid: child.pid,
		logFile,
		logTail: (lines = 60) => tailOf(logFile, lines),
		log: () => tailOf(logFile, Number.MAX_SAFE_INTEGER),
		kill: async () => {
			signalGroup(child, 'SIGKILL');
			await exited(child);
		},
	};
	return queueProcess;
}

/** What a worker needs besides the shared environment: its own health server to be probed. */
const workerEnv = (port: number) => ({
	QUEUE_HEALTH_CHECK_ACTIVE: 'true',
	QUEUE_HEALTH_CHECK_PORT: String(port),
	N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
});

/**
 * Starts main first (it creates and migrates the database), then the workers and the webhook
 * process together. Each gets its own HTTP port and task-broker port; all listen on 127.0.0.1 only.
 */
export async function startQueueModeN8n(options: StartQueueModeOptions): Promise<QueueModeN8n> {
	const userFolder = await mkdtemp(path.join(tmpdir(), 'n8n-phonovation-queue-'));
	await installCommunityPackage(userFolder, options.packageTarball);
	const port = portAllocator();
	const [mainPort, webhookPort] = [await port(), await port()];
	const encryptionKey = randomBytes(24).toString('hex');
	const children: ChildProcess[] = [];
	const launch = async (
		name: string,
		role: QueueRole,
		httpPort: number,
		roleEnv: Record<string, string>,
	) => {
		const env = {
			...n8nEnv({ userFolder, port: mainPort, brokerPort: await port() }),
			...databaseEnv(options.postgres),
			N8N_ENCRYPTION_KEY: encryptionKey,
			N8N_WEBHOOK_URL: `http://127.0.0.1:${webhookPort}/`,
			EXECUTIONS_MODE: 'queue',
			QUEUE_BULL_REDIS_HOST: options.redis.host,
			QUEUE_BULL_REDIS_PORT: String(options.redis.port),
			// Manual executions go to the workers too (the default from n8n 3 on).
			OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
			...roleEnv,
			...options.env,
		};
		return await launchProcess(options, userFolder, { name, role, httpPort, env }, children);
	};
	const stop = stopper(children, userFolder);
	try {
		// Production webhooks are served by the webhook process only, as in a scaled setup.
		const main = await launch('main', 'main', mainPort, {
			N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true',
		});
		const workerPorts = await Promise.all(Array.from({ length: options.workers ?? 2 }, port));
		const [webhook, ...workers] = await Promise.all([
			launch('webhook', 'webhook', webhookPort, { N8N_PORT: String(webhookPort) }),
			...workerPorts.map((p, i) => launch(`worker-${i + 1}`, 'worker', p, workerEnv(p))),
		]);
		return { main, workers, webhook, userFolder, stop };
	} catch (error) {
		await stop();
		throw error;
	}
}

/** Stops webhook process and workers first, so nothing is left queued for a main that is gone. */
function stopper(children: ChildProcess[], userFolder: string): () => Promise<void> {
	let stopped: Promise<void> | undefined;
	return () =>
		(stopped ??= (async () => {
			await Promise.all(children.slice(1).map(stopChild));
			if (children[0]) await stopChild(children[0]);
			if (process.env.PHONOVATION_E2E_KEEP !== '1')
				await rm(userFolder, { recursive: true, force: true, maxRetries: 3 });
		})());
}
