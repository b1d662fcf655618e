import { type Simulator, type SimulatorConfig, startSimulator } from '../../simulator';
import {
	type CredentialRef,
	credentialCreator,
	logExcerpt,
	type SharedEnvironment,
	SIMULATOR_CREDENTIAL_NAME,
	useSharedEnvironment,
	withCredential,
} from './environment';
import { productionWebhookUrl } from './environment';
import { ensureN8nInstalled } from './install';
import { N8nClient, type WorkflowJson } from './n8n-client';
import { packPackage } from './pack';
import { type QueueModeN8n, startQueueModeN8n } from './queue-n8n';
import { ensurePostgres, type PostgresServer, startPostgres } from './queue-postgres';
import { ensureRedisServer, type RedisServer, startRedis } from './queue-redis';

export interface QueueModeEnvironment {
	redis: RedisServer;
	postgres: PostgresServer;
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

export interface QueueModeOptions {
	simulator?: Partial<SimulatorConfig>;
	/** Extra environment for every n8n process, applied last. */
	n8nEnv?: Record<string, string>;
	log?: (line: string) => void;
}

/**
 * PostgreSQL, Redis, the simulator and n8n's main, two workers and a webhook process, with the
 * owner logged in.
 */
export async function startQueueModeEnvironment(
	options: QueueModeOptions = {},
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
		const postgres = await startPostgres(await ensurePostgres(log));
		stops.push(() => postgres.stop());
		const sim = await startSimulator(options.simulator ?? {});
		stops.push(() => sim.stop());
		log('Starting n8n in queue mode: main, then workers and webhook process');
		const n8n = await startQueueModeN8n({
			install,
			packageTarball: tarball,
			redis,
			postgres,
			env: options.n8nEnv,
		});
		stops.push(() => n8n.stop());
		const client = await N8nClient.forOwner(n8n.main.url);
		const credential = await credentialCreator(client, sim)(SIMULATOR_CREDENTIAL_NAME);
		return {
			redis,
			postgres,
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
				const url = productionWebhookUrl(n8n.webhook.url, workflow, triggerName);
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

export type QueueModeSuite = SharedEnvironment<QueueModeEnvironment>;

/** One queue-mode environment shared by a file's scenarios; failures show every n8n process's log. */
export function useQueueModeEnvironment(
	options: Omit<QueueModeOptions, 'log'> = {},
): QueueModeSuite {
	return useSharedEnvironment(
		(log) => startQueueModeEnvironment({ ...options, log }),
		(env) =>
			[env.n8n.main, ...env.n8n.workers, env.n8n.webhook]
				.map(
					(member) =>
						`n8n ${member.name} log (last lines):\n${logExcerpt(member.logTail(150), 15)}`,
				)
				.join('\n\n'),
		{ stopTimeoutMs: 90_000, testTimeoutMs: 180_000 },
	);
}
