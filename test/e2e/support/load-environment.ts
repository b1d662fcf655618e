/**
 * The e2e environment of ./environment with extra n8n environment variables (log level,
 * execution saving and pruning), which startE2eEnvironment does not take. The rest is the same:
 * the packed package installed as a community package, the simulator, the owner logged in and a
 * credential pointing at the simulator.
 */
import { startSimulator } from '../../simulator';
import {
	type E2eEnvironment,
	type E2eOptions,
	type E2eSuite,
	E2E_SETUP_TIMEOUT_MS,
	productionWebhookUrl,
	SIMULATOR_CREDENTIAL_NAME,
	simulatorCredentialData,
	TYPES,
	withCredential,
} from './environment';
import { ensureN8nInstalled } from './install';
import { N8nClient } from './n8n-client';
import { type N8nProcess, startN8n } from './n8n-process';
import { packPackage } from './pack';
import { freePort } from './ports';

export interface TunedE2eOptions extends E2eOptions {
	/** Applied last to n8n's environment, e.g. `{ N8N_LOG_LEVEL: 'debug' }`. */
	n8nEnv?: Record<string, string>;
}

export async function startTunedE2eEnvironment(options: TunedE2eOptions = {}): Promise<E2eEnvironment> {
	const install = await ensureN8nInstalled({ log: options.log });
	const tarball = await packPackage({ log: options.log });
	const port = await freePort();
	const n8nUrl = `http://127.0.0.1:${port}`;
	const simConfig = typeof options.simulator === 'function' ? options.simulator(n8nUrl) : options.simulator;
	const sim = await startSimulator(simConfig ?? {});
	let n8n: N8nProcess | undefined;
	try {
		n8n = await startN8n({ install, packageTarball: tarball, port, env: options.n8nEnv });
		const running = n8n;
		const client = await N8nClient.forOwner(running.url);
		const createCredential = async (name: string, overrides: Record<string, string> = {}) => {
			const created = await client.createCredential(name, TYPES.credential, simulatorCredentialData(sim, overrides));
			return { id: String(created.id), name: created.name, type: TYPES.credential };
		};
		const credential = await createCredential(SIMULATOR_CREDENTIAL_NAME);
		return {
			install,
			n8n: running,
			client,
			sim,
			credential,
			createCredential,
			importWorkflow: async (workflow, bindTo = credential) => {
				const stored = await client.createWorkflow(withCredential(workflow, bindTo));
				return { ...withCredential(workflow, bindTo), id: String(stored.id) };
			},
			publish: async (workflow, triggerName) => {
				await client.publishWorkflow(workflow.id);
				const url = productionWebhookUrl(running.url, workflow, triggerName);
				await client.waitForWebhook(url);
				return url;
			},
			stop: async () => {
				await running.stop();
				await sim.stop();
			},
		};
	} catch (error) {
		await n8n?.stop();
		await sim.stop();
		throw error;
	}
}

/** The last lines of a log, without stack frames, indented for a failure message. */
export function logExcerpt(tail: string, lines = 30): string {
	return tail
		.split('\n')
		.filter((line) => line.trim() && !/^\s+at /.test(line) && !/api\.n8n\.io|Strapi API/.test(line))
		.slice(-lines)
		.map((line) => `  │ ${line}`)
		.join('\n');
}

/** Like useE2eEnvironment, with the extra n8n environment of TunedE2eOptions. */
export function useTunedE2eEnvironment(options: TunedE2eOptions = {}): E2eSuite {
	let environment: E2eEnvironment | undefined;
	beforeAll(async () => {
		const log = options.log ?? ((line: string) => void process.stderr.write(`[e2e] ${line}\n`));
		environment = await startTunedE2eEnvironment({ ...options, log });
	}, E2E_SETUP_TIMEOUT_MS);
	afterAll(async () => {
		await environment?.stop();
	}, 60_000);
	const env = () => {
		if (!environment) throw new Error('The e2e environment did not start (see beforeAll)');
		return environment;
	};
	return {
		env,
		it: (name, fn, timeoutMs = 120_000) =>
			it(
				name,
				async () => {
					const current = env();
					try {
						await fn(current);
					} catch (error) {
						if (error instanceof Error) error.message += `\n\nn8n log (last lines):\n${logExcerpt(current.n8n.logTail(200))}`;
						throw error;
					}
				},
				timeoutMs,
			),
	};
}
