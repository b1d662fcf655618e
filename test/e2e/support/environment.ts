import path from 'node:path';

import {
	type SimulatorConfig,
	type Simulator,
	simulatorCredentialData,
	startSimulator,
} from '../../simulator';
import { LAZY_ISOLATES_N8N_ENV } from './load-settings';
import { ensureN8nInstalled, type N8nInstall } from './install';
import { N8nClient, type WorkflowJson } from './n8n-client';
import { machineReport } from './machine';
import { type N8nProcess, startN8n } from './n8n-process';
import { TYPES } from './package-types';
import { packPackage } from './pack';
import { REPO_ROOT } from './paths';
import {
	assertHandedOverEmpty,
	leaseSharedN8n,
	type SharedLease,
	sharingEnabled,
} from './shared-n8n';
import { ensureUserFolderTemplate } from './user-folder-template';

/** The credential name the demo creates and the example workflows refer to. */
export const SIMULATOR_CREDENTIAL_NAME = 'Phonovation (local simulator)';

export { TYPES };

export interface CredentialRef {
	id: string;
	name: string;
	type: string;
}

export { simulatorCredentialData };

/** Points every Phonovation node of a workflow at the given credential (as the editor's picker would). */
export function withCredential(workflow: WorkflowJson, credential: CredentialRef): WorkflowJson {
	return {
		...workflow,
		nodes: workflow.nodes.map((node) =>
			node.type.startsWith('n8n-nodes-phonovation.')
				? {
						...node,
						credentials: { [TYPES.credential]: { id: credential.id, name: credential.name } },
					}
				: node,
		),
	};
}

/** n8n's own Webhook node, which feeds Verify Relay in the inbox. */
const WEBHOOK_NODE_TYPE = 'n8n-nodes-base.webhook';

/**
 * The path n8n serves a relay node's webhook on: the Phonovation Trigger's (`<webhookId>/phonovation`),
 * or for Verify Relay (the inbox), the path of the n8n Webhook node that feeds it.
 */
export function webhookPathOf(
	workflow: WorkflowJson,
	nodeName: string,
	webhookPath = 'phonovation',
) {
	const node = workflow.nodes.find((n) => n.name === nodeName);
	if (node?.type === TYPES.trigger) {
		if (!node.webhookId) throw new Error(`Node ${nodeName} has no webhookId`);
		return `${String(node.webhookId)}/${webhookPath}`;
	}
	const feeding = Object.entries(workflow.connections ?? {}).find(([, outputs]) =>
		(outputs as { main?: Array<Array<{ node: string }> | null> }).main?.some((targets) =>
			targets?.some((target) => target.node === nodeName),
		),
	)?.[0];
	const webhook = workflow.nodes.find(
		(n) => n.type === WEBHOOK_NODE_TYPE && (n.name === nodeName || n.name === feeding),
	);
	const path = (webhook?.parameters as { path?: unknown } | undefined)?.path;
	if (typeof path !== 'string' || path === '')
		throw new Error(`Node ${nodeName} is no Phonovation Trigger, and no Webhook node feeds it`);
	return path;
}

/** The production URL n8n serves a relay node's webhook on, once its workflow is published. */
export function productionWebhookUrl(
	n8nUrl: string,
	workflow: WorkflowJson,
	nodeName: string,
	webhookPath = 'phonovation',
): string {
	return `${n8nUrl}/webhook/${webhookPathOf(workflow, nodeName, webhookPath)}`;
}

export interface E2eEnvironment {
	install: N8nInstall;
	n8n: N8nProcess;
	client: N8nClient;
	sim: Simulator;
	/** A credential named SIMULATOR_CREDENTIAL_NAME pointing at the simulator. */
	credential: CredentialRef;
	/** Creates another credential against the simulator (a fresh one has no token yet). */
	createCredential(name: string, overrides?: Record<string, string>): Promise<CredentialRef>;
	/** Binds the workflow to a credential and stores it in n8n. */
	importWorkflow(
		workflow: WorkflowJson,
		credential?: CredentialRef,
	): Promise<WorkflowJson & { id: string }>;
	/** Publishes an imported workflow and returns its trigger's production URL once n8n serves it. */
	publish(workflow: WorkflowJson & { id: string }, triggerName: string): Promise<string>;
	stop(): Promise<void>;
}

export interface E2eOptions {
	/** Simulator settings; `relayUrl` may be computed from n8n's URL, which is fixed before start. */
	simulator?: Partial<SimulatorConfig> | ((n8nUrl: string) => Partial<SimulatorConfig>);
	log?: (line: string) => void;
	/** Applied last to n8n's environment, e.g. `{ N8N_LOG_LEVEL: 'debug' }`. */
	n8nEnv?: Record<string, string>;
}

/** Creates credentials of our type that point at the simulator. */
export function credentialCreator(client: N8nClient, sim: Simulator) {
	return async (name: string, overrides: Record<string, string> = {}): Promise<CredentialRef> => {
		const created = await client.createCredential(
			name,
			TYPES.credential,
			simulatorCredentialData(sim, overrides),
		);
		return { id: String(created.id), name: created.name, type: TYPES.credential };
	};
}

/** The running test file, relative to the repository (for the shared n8n's hand-over check). */
function currentTestFile(): string {
	const testPath = expect.getState().testPath;
	return testPath ? path.relative(REPO_ROOT, testPath) : 'a test file';
}

/** This worker's shared n8n, or one of the file's own when it needs other settings (n8nEnv). */
async function n8nFor(
	options: E2eOptions,
	install: N8nInstall,
	packageTarball: string,
	log: (line: string) => void,
): Promise<{ n8n: N8nProcess; lease?: SharedLease }> {
	if (!options.n8nEnv && sharingEnabled()) {
		const lease = await leaseSharedN8n({ install, packageTarball, file: currentTestFile(), log });
		return { n8n: lease.n8n, lease };
	}
	const template = await ensureUserFolderTemplate(install, log);
	// Without settings of its own, the same settings as the shared n8n, shared or not.
	const env = options.n8nEnv ?? LAZY_ISOLATES_N8N_ENV;
	return { n8n: await startN8n({ install, packageTarball, template, env }) };
}

/**
 * A real n8n with the packed package installed as a community package, the provider simulator,
 * the owner logged in and a credential pointing at the simulator. The n8n is this jest worker's
 * shared one unless the options change n8n's own settings.
 */
export async function startE2eEnvironment(options: E2eOptions = {}): Promise<E2eEnvironment> {
	const log = options.log ?? (() => undefined);
	const install = await ensureN8nInstalled({ log });
	const tarball = await packPackage({ log });
	const { n8n, lease } = await n8nFor(options, install, tarball, log);
	let sim: Simulator | undefined;
	try {
		const simConfig =
			typeof options.simulator === 'function' ? options.simulator(n8n.url) : options.simulator;
		sim = await startSimulator(simConfig ?? {});
		const client = await N8nClient.forOwner(n8n.url, lease?.sessionCookie);
		if (lease) await assertHandedOverEmpty(client, lease);
		const createCredential = credentialCreator(client, sim);
		const credential = await createCredential(SIMULATOR_CREDENTIAL_NAME);
		const running = n8n;
		const simulator = sim;
		return {
			install,
			n8n: running,
			client,
			sim: simulator,
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
				try {
					if (lease) await lease.release(client);
					else await running.stop();
				} finally {
					await simulator.stop();
				}
			},
		};
	} catch (error) {
		if (lease)
			await lease
				.release(await N8nClient.forOwner(n8n.url, lease.sessionCookie))
				.catch(() => undefined);
		else await n8n.stop();
		await sim?.stop();
		throw error;
	}
}

/** Minutes a jest hook may take: an uncached install of n8n alone takes several. */
export const E2E_SETUP_TIMEOUT_MS = 20 * 60_000;

/** The last lines of an n8n log, without stack frames and the expected offline look-ups of n8n's cloud services. */
export function logExcerpt(tail: string, lines = 30): string {
	return tail
		.split('\n')
		.filter(
			(line) =>
				line.trim() &&
				!/^\s+at /.test(line) &&
				!/api\.n8n\.io|Strapi API|system task run failed/.test(line),
		)
		.slice(-lines)
		.map((line) => `  │ ${line}`)
		.join('\n');
}

export interface SharedEnvironment<T> {
	/** The running environment (inside tests and hooks). */
	env(): T;
	/** A jest test that gets the environment and, when it fails, n8n's log tail in its message. */
	it(name: string, fn: (env: T) => Promise<void>, timeoutMs?: number): void;
}

export type E2eSuite = SharedEnvironment<E2eEnvironment>;

/**
 * Registers beforeAll/afterAll for one environment shared by a test file's scenarios; a failing
 * test's message gets the environment's logs.
 */
export function useSharedEnvironment<T extends { stop(): Promise<void> }>(
	start: (log: (line: string) => void) => Promise<T>,
	logsOf: (env: T) => string,
	{ stopTimeoutMs = 60_000, testTimeoutMs = 120_000 } = {},
): SharedEnvironment<T> {
	let environment: T | undefined;
	beforeAll(async () => {
		// Straight to stderr: jest holds console output back until the file ends, and an
		// uncached n8n install takes minutes.
		environment = await start((line: string) => void process.stderr.write(`[e2e] ${line}\n`));
	}, E2E_SETUP_TIMEOUT_MS);
	afterAll(async () => {
		await environment?.stop();
	}, stopTimeoutMs);
	const env = () => {
		if (!environment) throw new Error('The e2e environment did not start (see beforeAll)');
		return environment;
	};
	return {
		env,
		it: (name, fn, timeoutMs = testTimeoutMs) =>
			it(
				name,
				async () => {
					const current = env();
					try {
						await fn(current);
					} catch (error) {
						if (error instanceof Error) {
							error.message += `\n\n${logsOf(current)}\n\n${machineReport()}`;
						}
						throw error;
					}
				},
				timeoutMs,
			),
	};
}

/** One n8n (and simulator) shared by a test file's scenarios. */
export function useE2eEnvironment(options: E2eOptions = {}): E2eSuite {
	return useSharedEnvironment(
		(log) => startE2eEnvironment({ ...options, log: options.log ?? log }),
		(env) => `n8n log (last lines):\n${logExcerpt(env.n8n.logTail(200))}`,
	);
}
