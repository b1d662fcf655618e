import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, closeSync, openSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { fetch } from 'undici';

import type { N8nInstall } from './install';
import { exited, installCommunityPackage, n8nEnv, signalGroup, tailOf } from './n8n-process';
import { freePort } from './ports';

export interface RestartableN8nOptions {
	install: N8nInstall;
	/** The packed package, installed as a community package into the user folder once. */
	packageTarball: string;
	/** Extra environment for n8n, applied last (on every start). */
	env?: Record<string, string>;
	readyTimeoutMs?: number;
}

/**
 * One single-process n8n that can be killed the hard way and started again on the same user
 * folder (SQLite database, event log, installed package), port and encryption key: what a
 * machine that lost power, or an OOM kill followed by a supervisor's restart, leaves behind.
 */
export interface RestartableN8n {
	/** e.g. http://127.0.0.1:40123; the same across restarts. */
	url: string;
	port: number;
	userFolder: string;
	logFile: string;
	webhookUrl(webhookPath: string): string;
	logTail(lines?: number): string;
	/** SIGKILL to n8n and its task runner (its process group); resolves once n8n has exited. */
	kill(): Promise<void>;
	/** Starts n8n again on the same folder, port and key; `env` is applied after the start's own. */
	start(env?: Record<string, string>): Promise<void>;
	/** SIGTERM (SIGKILL after a timeout); the user folder stays for a later start. */
	shutdown(): Promise<void>;
	/** Shuts n8n down and removes the user folder (kept when PHONOVATION_E2E_KEEP=1). */
	stop(): Promise<void>;
}

async function waitUntilReady(
	url: string,
	child: ChildProcess,
	logFile: string,
	timeoutMs: number,
): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (child.exitCode !== null || child.signalCode !== null) {
			throw new Error(
				`n8n exited during start (${child.exitCode ?? child.signalCode}).\n${tailOf(logFile, 60)}`,
			);
		}
		try {
			const response = await fetch(`${url}/healthz/readiness`, {
				signal: AbortSignal.timeout(2000),
			});
			await response.body?.cancel();
			if (response.status === 200) return;
		} catch {
			// not listening yet
		}
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
	throw new Error(`n8n was not ready within ${timeoutMs / 1000} s.\n${tailOf(logFile, 60)}`);
}

/** Starts `n8n start` (as startN8n does) in a temp user folder, keeping what it needs to start it again. */
export async function startRestartableN8n(options: RestartableN8nOptions): Promise<RestartableN8n> {
	const userFolder = await mkdtemp(path.join(tmpdir(), 'n8n-phonovation-e2e-crash-'));
	const port = await freePort();
	const url = `http://127.0.0.1:${port}`;
	const logFile = path.join(userFolder, 'n8n.log');
	// The credential's secrets and the session cookies are encrypted with this key: it must survive restarts.
	const encryptionKey = randomBytes(24).toString('hex');
	const readyTimeoutMs = options.readyTimeoutMs ?? 180_000;
	let child: ChildProcess | undefined;
	let starts = 0;

	const shutdown = async () => {
		const running = child;
		if (!running) return;
		signalGroup(running, 'SIGTERM');
		const killTimer = setTimeout(() => signalGroup(running, 'SIGKILL'), 20_000);
		await exited(running);
		clearTimeout(killTimer);
		signalGroup(running, 'SIGKILL');
		child = undefined;
	};

	const start = async (env: Record<string, string> = {}) => {
		if (child) throw new Error('n8n is still running');
		let brokerPort = await freePort();
		while (brokerPort === port) brokerPort = await freePort();
		appendFileSync(logFile, `\n===== start ${++starts} (${new Date().toISOString()}) =====\n`);
		const logFd = openSync(logFile, 'a');
		const started = spawn(process.execPath, [options.install.bin, 'start'], {
			cwd: userFolder,
			env: {
				...n8nEnv({ userFolder, port, brokerPort }),
				N8N_ENCRYPTION_KEY: encryptionKey,
				...options.env,
				...env,
			},
			stdio: ['ignore', logFd, logFd],
			detached: true,
		});
		closeSync(logFd);
		child = started;
		try {
			await waitUntilReady(url, started, logFile, readyTimeoutMs);
		} catch (error) {
			await shutdown();
			throw error;
		}
	};

	await installCommunityPackage(userFolder, options.packageTarball);
	try {
		await start();
	} catch (error) {
		await rm(userFolder, { recursive: true, force: true, maxRetries: 3 });
		throw error;
	}

	return {
		url,
		port,
		userFolder,
		logFile,
		webhookUrl: (webhookPath) => `${url}/webhook/${webhookPath.replace(/^\/+/, '')}`,
		logTail: (lines = 60) => tailOf(logFile, lines),
		kill: async () => {
			const running = child;
			if (!running) return;
			signalGroup(running, 'SIGKILL');
			await exited(running);
			child = undefined;
		},
		start,
		shutdown,
		stop: async () => {
			await shutdown();
			if (process.env.PHONOVATION_E2E_KEEP !== '1')
				await rm(userFolder, { recursive: true, force: true, maxRetries: 3 });
		},
	};
}
