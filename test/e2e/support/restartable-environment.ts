// A restartable n8n (restartable-n8n.ts) with the simulator, the owner logged in and a credential:
// for tests that stop or kill n8n and start it again on the same user folder.
import { type Simulator, type SimulatorConfig, startSimulator } from '../../simulator';
import { type CredentialRef, credentialCreator, SIMULATOR_CREDENTIAL_NAME } from './environment';
import { ensureN8nInstalled } from './install';
import { N8nClient } from './n8n-client';
import { packPackage } from './pack';
import { type RestartableN8n, startRestartableN8n } from './restartable-n8n';

export interface RestartableEnvironment {
	n8n: RestartableN8n;
	/** Logged in as the owner; `loggedInAgain` makes a new session after a start. */
	client: N8nClient;
	sim: Simulator;
	credential: CredentialRef;
	/** Today's packed package. */
	tarball: string;
	/** A new owner session, after n8n was started again. */
	loggedInAgain(): Promise<void>;
	stop(): Promise<void>;
}

export async function startRestartableEnvironment(
	log: (line: string) => void,
	options: { packageTarball?: string; simulator?: Partial<SimulatorConfig> } = {},
): Promise<RestartableEnvironment> {
	const install = await ensureN8nInstalled({ log });
	const tarball = await packPackage({ log });
	const sim = await startSimulator(options.simulator ?? {});
	let n8n: RestartableN8n | undefined;
	try {
		n8n = await startRestartableN8n({
			install,
			packageTarball: options.packageTarball ?? tarball,
		});
		const running = n8n;
		const client = await N8nClient.forOwner(n8n.url);
		const credential = await credentialCreator(client, sim)(SIMULATOR_CREDENTIAL_NAME);
		const env: RestartableEnvironment = {
			n8n: running,
			client,
			sim,
			credential,
			tarball,
			loggedInAgain: async () => {
				env.client = await N8nClient.forOwner(running.url);
			},
			stop: async () => {
				await running.stop();
				await sim.stop();
			},
		};
		return env;
	} catch (error) {
		await n8n?.stop();
		await sim.stop();
		throw error;
	}
}
