import { type Simulator, type SimulatorConfig, startSimulator } from '../../simulator';
import {
	type CredentialRef,
	E2E_SETUP_TIMEOUT_MS,
	SIMULATOR_CREDENTIAL_NAME,
	simulatorCredentialData,
	TYPES,
	withCredential,
} from './environment';
import { ensureN8nInstalled } from './install';
import { logExcerpt } from './load-environment';
import { N8nClient, type WorkflowJson } from './n8n-client';
import { packPackage } from './pack';
import { type QueueModeN8n, startQueueModeN8n } from './queue-n8n';
import { ensureRedisServer, type RedisServer, startRedis } from './queue-redis';

export interface QueueModeEnvironment {
	redis: RedisServer;
	n8n: QueueModeN8n;
	/** The owner's REST client on the main process. */
	client: N8nClient;
	sim: Simulator;
	/** A credential named SIMULATOR_CREDENTIAL_NAME pointing at the simulator. */
	credential: CredentialRef;
	/** Binds the workflow to the credential and stores it through main. */
	importWorkflow(workflow: WorkflowJson): Promise<WorkflowJson & { id: string }>;
	/** Publishes through main; resolves with the trigger's production URL once the webhook process serves it. */
	publish(workflow: WorkflowJson & { id: string }, triggerName: string): Promise<string>;
	stop(): Promise<void>;
}

/** Redis, the simulator and n8n's main, worker and webhook processes, with the owner logged in. */
export async function startQueueModeEnvironment(
	options: { simulator?: Partial<SimulatorConfig>; log?: (line: string) => void } = {},
): Promise<QueueModeEnvironment> {
	const log = options.log ?? (() => {});
	const install = await ensureN8nInstalled({ log });
	const tarball = await packPackage({ log });
	const redis = await startRedis(await ensureRedisServer(log));
	const stops: Array<() => Promise<void>> = [() => redis.stop()];
	const stopAll = async () => {
		for (const stop of stops.splice(0).reverse()) await stop();
	};
	try {
		const sim = await startSimulator(options.simulator ?? {});
		stops.push(() => sim.stop());
		log('Starting n8n in queue mode: main, then worker and webhook process');
		const n8n = await startQueueModeN8n({ install, packageTarball: tarball, redis });
		stops.push(() => n8n.stop());
		const client = await N8nClient.forOwner(n8n.main.url);
		const created = await client.createCredential(SIMULATOR_CREDENTIAL_NAME, TYPES.credential, simulatorCredentialData(sim));
		const credential = { id: String(created.id), name: created.name, type: TYPES.credential };
		return {
			redis,
			n8n,
			client,
			sim,
			credential,
			importWorkflow: async (workflow) => {
				const bound = withCredential(workflow, credential);
				return { ...bound, id: String((await client.createWorkflow(bound)).id) };
			},
			publish: async (workflow, triggerName) => {
				await client.publishWorkflow(workflow.id);
				const node = workflow.nodes.find((n) => n.name === triggerName);
				if (!node?.webhookId) throw new Error(`Node ${triggerName} has no webhookId`);
				const url = `${n8n.webhook.url}/webhook/${String(node.webhookId)}/phonovation`;
				await client.waitForWebhook(url, 60_000);
				return url;
			},
			stop: stopAll,
		};
	} catch (error) {
		await stopAll();
		throw error;
	}
}

export interface QueueModeSuite {
	env(): QueueModeEnvironment;
	/** A jest test that, when it fails, appends the log tails of all three n8n processes. */
	it(name: string, fn: (env: QueueModeEnvironment) => Promise<void>, timeoutMs?: number): void;
}

/** Registers beforeAll/afterAll for one queue-mode environment shared by a file's scenarios. */
export function useQueueModeEnvironment(options: { simulator?: Partial<SimulatorConfig> } = {}): QueueModeSuite {
	let environment: QueueModeEnvironment | undefined;
	beforeAll(async () => {
		const log = (line: string) => void process.stderr.write(`[e2e] ${line}\n`);
		environment = await startQueueModeEnvironment({ ...options, log });
	}, E2E_SETUP_TIMEOUT_MS);
	afterAll(async () => {
		await environment?.stop();
	}, 90_000);
	const env = () => {
		if (!environment) throw new Error('The queue-mode environment did not start (see beforeAll)');
		return environment;
	};
	return {
		env,
		it: (name, fn, timeoutMs = 180_000) =>
			it(
				name,
				async () => {
					const current = env();
					try {
						await fn(current);
					} catch (error) {
						if (error instanceof Error) {
							for (const role of ['main', 'worker', 'webhook'] as const) {
								error.message += `\n\nn8n ${role} log (last lines):\n${logExcerpt(current.n8n[role].logTail(150), 15)}`;
							}
						}
						throw error;
					}
				},
				timeoutMs,
			),
	};
}
