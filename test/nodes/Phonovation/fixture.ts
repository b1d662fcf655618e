import type { INode, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { PhonovationApi } from '../../../credentials/PhonovationApi.credentials';
import { Phonovation } from '../../../nodes/Phonovation/Phonovation.node';
import { Engine, type ExecutionOptions, type NodeRunResult } from '../../harness/engine';
import {
	simulatorCredentialData,
	startSimulator,
	type Simulator,
	type SimulatorConfig,
} from '../../simulator';

export const NODE_TYPE = 'n8n-nodes-phonovation.phonovation';

export interface PhonovationFixture {
	sim: Simulator;
	engine: Engine;
	/** Runs the Phonovation node with these parameters on these input items in the real engine. */
	run(
		parameters: INodeParameters,
		items?: INodeExecutionData[],
		node?: Partial<INode>,
		execution?: ExecutionOptions,
	): Promise<NodeRunResult>;
	node(parameters: INodeParameters, node?: Partial<INode>): INode;
	/**
	 * Simulator state cleared and the stored token dropped: the next request logs in. The workflow
	 * gets a new id, so nothing a node remembers per workflow (the pace) carries over to the next test.
	 */
	reset(): void;
	stop(): Promise<void>;
}

/** The simulator on loopback plus an engine whose stored credential points at it. */
export async function phonovationFixture(
	config: Partial<SimulatorConfig> = {},
): Promise<PhonovationFixture> {
	const sim = await startSimulator(config);
	const engine = new Engine({
		nodeTypes: { [NODE_TYPE]: new Phonovation() },
		credentialTypes: [new PhonovationApi()],
	});
	const storeCredential = () =>
		engine.credentials.set('cred-1', { ...simulatorCredentialData(sim), accessToken: '' });
	storeCredential();
	let workflows = 0;
	const node = (parameters: INodeParameters, extra: Partial<INode> = {}): INode => ({
		id: 'phonovation-node',
		name: 'Phonovation',
		type: NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters,
		credentials: { phonovationApi: { id: 'cred-1', name: 'Phonovation' } },
		...extra,
	});
	return {
		sim,
		engine,
		node,
		run: async (parameters, items = [{ json: {} }], extra = {}, execution = {}) =>
			await engine.runNode(node(parameters, extra), items, execution.mode ?? 'manual', execution),
		reset: () => {
			sim.reset();
			storeCredential();
			engine.workflowId = `test-workflow-${++workflows}`;
		},
		stop: async () => await sim.stop(),
	};
}

/** Campaign Send with one text per row (`Hi {{ name }}` to `{{ phone }}`): one campaign per item. */
export const PERSONALISED_SEND = {
	resource: 'campaign',
	operation: 'send',
	from: 'Phonovation',
	text: '=Hi {{ $json.name }}',
	recipients: '={{ $json.phone }}',
};

/** `n` input items, each `{ phone, ... }` built by `make`. */
export function itemsOf<T extends object>(n: number, make: (i: number) => T): INodeExecutionData[] {
	return Array.from({ length: n }, (_, i) => ({ json: make(i) as INodeExecutionData['json'] }));
}

/**
 * One fixture for a describe block: started before its tests, reset before each, stopped after.
 * Call the returned function inside a test to get it.
 */
export function sharedFixture(config: Partial<SimulatorConfig> = {}): () => PhonovationFixture {
	let fixture: PhonovationFixture;
	beforeAll(async () => {
		fixture = await phonovationFixture(config);
	});
	beforeEach(() => fixture.reset());
	afterAll(async () => await fixture.stop());
	return () => fixture;
}
