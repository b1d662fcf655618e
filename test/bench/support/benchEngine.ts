import type { INode, INodeParameters, INodeType, IVersionedNodeType } from 'n8n-workflow';

import { PhonovationApi } from '../../../credentials/PhonovationApi.credentials';
import { Phonovation } from '../../../nodes/Phonovation/Phonovation.node';
import { Engine } from '../../harness/engine';
import { simulatorCredentialData } from '../../simulator/credential';
import { loadBuiltInNodes } from './builtInNodes';
import { type SimulatorProcess, startSimulatorProcess } from './simulatorProcess';

export const PHONOVATION_TYPE = 'n8n-nodes-phonovation.phonovation';

const CREDENTIAL_ID = 'bench-credential';

export interface BenchEngine {
	engine: Engine;
	/** Our node with these campaign parameters, using the stored credential. */
	phonovationNode(parameters: INodeParameters, name?: string): INode;
	/** Stores the credential again with no token, so the next request logs in (a fresh instance). */
	forgetToken(): void;
}

/**
 * One engine for every contender of a case: our node plus whatever n8n built-in node types are
 * given, and our credential stored the way n8n's database holds it, pointing at the simulator.
 */
export function benchEngine(
	sim: SimulatorProcess,
	extraTypes: Record<string, INodeType | IVersionedNodeType> = {},
): BenchEngine {
	const engine = new Engine({
		nodeTypes: { [PHONOVATION_TYPE]: new Phonovation(), ...extraTypes },
		credentialTypes: [new PhonovationApi()],
	});
	const forgetToken = () =>
		engine.credentials.set(CREDENTIAL_ID, { ...simulatorCredentialData(sim), accessToken: '' });
	forgetToken();
	return {
		engine,
		forgetToken,
		phonovationNode: (parameters, name = 'Phonovation') => ({
			id: `node-${name}`,
			name,
			type: PHONOVATION_TYPE,
			typeVersion: 1,
			position: [0, 0],
			parameters,
			credentials: { phonovationApi: { id: CREDENTIAL_ID, name: 'Phonovation' } },
		}),
	};
}

/**
 * A side-by-side setup for comparing our node with n8n's own nodes: a simulator process, an engine
 * with our node and n8n's built-ins, and the provider access a hand-built workflow needs. Runs
 * `work` and stops the simulator afterwards.
 */
export async function withBuiltInsBench<T>(
	log: (line: string) => void,
	simulator: (() => Promise<SimulatorProcess>) | undefined,
	work: (setup: {
		sim: SimulatorProcess;
		bench: BenchEngine;
		access: { url: string; username: string; password: string };
	}) => Promise<T>,
): Promise<T> {
	const builtIns = await loadBuiltInNodes(log);
	const sim = await (simulator ?? startSimulatorProcess)();
	try {
		const access = { url: sim.url, username: sim.config.username, password: sim.config.password };
		return await work({ sim, bench: benchEngine(sim, builtIns), access });
	} finally {
		await sim.stop();
	}
}
