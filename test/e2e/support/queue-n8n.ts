/**
 * n8n in queue mode: one main (`n8n start`: editor, REST API, publishing), one worker (`n8n
 * worker`: runs every execution, manual ones included) and one webhook process (`n8n webhook`:
 * serves production webhooks and queues their executions). They share one user folder, so one
 * SQLite database, one encryption key and one installed copy of the community package, and one
 * Redis. n8n 2.41 allows SQLite in queue mode (it logs that PostgreSQL is recommended).
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

export type QueueRole = 'main' | 'worker' | 'webhook';

export interface QueueProcess {
	role: QueueRole;
	/** Where this process answers HTTP: the editor/REST API, the worker's health server, or webhooks. */
	url: string;
	logFile: string;
	logTail(lines?: number): string;
	/** The whole log so far. */
	log(): string;
}

export interface QueueModeN8n {
	main: QueueProcess;
	worker: QueueProcess;
	webhook: QueueProcess;
	userFolder: string;
	/** Stops webhook and worker, then main; removes the user folder (kept when PHONOVATION_E2E_KEEP=1). */
	stop(): Promise<void>;
}

export interface StartQueueModeOptions {
	install: N8nInstall;
	packageTarball: string;
	redis: { host: string; port: number };
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

async function untilReady(role: QueueRole, url: string, child: ChildProcess, logFile: string, timeoutMs: number) {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (child.exitCode !== null || child.signalCode !== null) {
			throw new Error(`n8n ${role} exited during start (${child.exitCode ?? child.signalCode}).\n${tailOf(logFile, 60)}`);
		}
		try {
			const response = await fetch(`${url}/healthz/readiness`, { signal: AbortSignal.timeout(2000) });
			if (response.status === 200) return;
		} catch {
			// not listening yet
		}
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
	throw new Error(`n8n ${role} was not ready within ${timeoutMs / 1000} s.\n${tailOf(logFile, 60)}`);
}

/**
 * Starts main first (it creates and migrates the database), then worker and webhook process
 * together. Each gets its own HTTP port and task-broker port; all listen on 127.0.0.1 only.
 */
export async function startQueueModeN8n(options: StartQueueModeOptions): Promise<QueueModeN8n> {
	const userFolder = await mkdtemp(path.join(tmpdir(), 'n8n-phonovation-queue-'));
	await installCommunityPackage(userFolder, options.packageTarball);
	const ports = new Set<number>();
	const port = async () => {
		let candidate = await freePort();
		while (ports.has(candidate)) candidate = await freePort();
		ports.add(candidate);
		return candidate;
	};
	const mainPort = await port();
	const webhookPort = await port();
	const workerPort = await port();
	const webhookBase = `http://127.0.0.1:${webhookPort}/`;
	const encryptionKey = randomBytes(24).toString('hex');
	const children: ChildProcess[] = [];

	const launch = async (role: QueueRole, httpPort: number, roleEnv: Record<string, string>): Promise<QueueProcess> => {
		const logFile = path.join(userFolder, `n8n-${role}.log`);
		const logFd = openSync(logFile, 'a');
		const env = {
			...n8nEnv({ userFolder, port: mainPort, brokerPort: await port() }),
			N8N_ENCRYPTION_KEY: encryptionKey,
			N8N_WEBHOOK_URL: webhookBase,
			EXECUTIONS_MODE: 'queue',
			QUEUE_BULL_REDIS_HOST: options.redis.host,
			QUEUE_BULL_REDIS_PORT: String(options.redis.port),
			// Manual executions go to the worker too (the default from n8n 3 on).
			OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
			...roleEnv,
			...options.env,
		};
		const child = spawn(process.execPath, [options.install.bin, COMMAND[role]], {
			cwd: userFolder,
			env,
			stdio: ['ignore', logFd, logFd],
			detached: true,
		});
		closeSync(logFd);
		children.push(child);
		const url = `http://127.0.0.1:${httpPort}`;
		await untilReady(role, url, child, logFile, options.readyTimeoutMs ?? 240_000);
		return {
			role,
			url,
			logFile,
			logTail: (lines = 60) => tailOf(logFile, lines),
			log: () => tailOf(logFile, Number.MAX_SAFE_INTEGER),
		};
	};

	let stopped: Promise<void> | undefined;
	const stop = () =>
		(stopped ??= (async () => {
			// Webhook and worker first, so nothing is left queued for a main that is gone.
			await Promise.all(children.slice(1).map(stopChild));
			if (children[0]) await stopChild(children[0]);
			if (process.env.PHONOVATION_E2E_KEEP !== '1') await rm(userFolder, { recursive: true, force: true, maxRetries: 3 });
		})());

	try {
		// Production webhooks are served by the webhook process only, as in a scaled setup.
		const main = await launch('main', mainPort, { N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true' });
		const [worker, webhook] = await Promise.all([
			launch('worker', workerPort, {
				QUEUE_HEALTH_CHECK_ACTIVE: 'true',
				QUEUE_HEALTH_CHECK_PORT: String(workerPort),
				N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
			}),
			launch('webhook', webhookPort, { N8N_PORT: String(webhookPort) }),
		]);
		return { main, worker, webhook, userFolder, stop };
	} catch (error) {
		await stop();
		throw error;
	}
}
