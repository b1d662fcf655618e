import type { IDataObject, INode, INodeParameters } from 'n8n-workflow';

import { PhonovationApi } from '../../../credentials/PhonovationApi.credentials';
import { Phonovation } from '../../../nodes/Phonovation/Phonovation.node';
import { AgentProbe, asAiTool, type ToolCall } from '../../harness/ai-tool';
import { Engine } from '../../harness/engine';
import { QuestionLog } from '../../harness/question-log';
import { simulatorCredentialData, type Simulator, startSimulator } from '../../simulator';

const TOOL_TYPE = 'n8n-nodes-phonovation.phonovationTool';

/** The action node used as an AI Agent's tool ("usableAsTool"), through n8n-core's tool path. */
describe('the Phonovation node as an AI tool', () => {
	let sim: Simulator;
	let engine: Engine;
	beforeAll(async () => {
		sim = await startSimulator();
		engine = new Engine({
			nodeTypes: { agentProbe: new AgentProbe(), [TOOL_TYPE]: asAiTool(new Phonovation()) },
			credentialTypes: [new PhonovationApi()],
		});
	});
	beforeEach(() => {
		sim.reset();
		engine.credentials.set('cred-1', { ...simulatorCredentialData(sim), accessToken: '' });
	});
	afterAll(async () => await sim.stop());

	async function callTool(
		name: string,
		parameters: INodeParameters,
		args: IDataObject,
	): Promise<ToolCall> {
		const agent: INode = {
			id: 'agent',
			name: 'Agent',
			type: 'agentProbe',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		};
		const tool: INode = {
			id: 'tool',
			name,
			type: TOOL_TYPE,
			typeVersion: 1,
			position: [0, 200],
			parameters,
			credentials: { phonovationApi: { id: 'cred-1', name: 'Phonovation' } },
		};
		const connections = {
			[name]: { ai_tool: [[{ node: 'Agent', type: 'ai_tool' as const, index: 0 }]] },
		};
		const run = await engine.runWorkflow([agent, tool], connections, agent, [{ json: args }]);
		const task = run.data.resultData.runData.Agent?.[0];
		if (task?.error) throw task.error;
		return task!.data!.main[0]![0].json as unknown as ToolCall;
	}

	it("describes itself by the operation's action and answers with the node's items", async () => {
		const call = await callTool('List Senders', { resource: 'sender', operation: 'getAll' }, {});
		expect(call).toMatchObject({
			name: 'List_Senders',
			description: 'Get many senders in Phonovation',
			arguments: [],
		});
		expect(JSON.parse(call.answer!)).toEqual([
			{ name: 'Phonovation', type: 0, typeLabel: 'ComReg registered' },
			{ name: 'FreeText', type: 1, typeLabel: 'international — not delivered to Irish numbers' },
			{ name: '353851234567', type: 2, typeLabel: 'numeric' },
		]);
	});

	it("asks the model for each $fromAI() value and uses the model's answer", async () => {
		const limit = "={{ $fromAI('howMany', 'How many sender IDs to list', 'number') }}";
		const call = await callTool(
			'List Senders',
			{ resource: 'sender', operation: 'getAll', returnAll: false, limit },
			{ howMany: 2 },
		);
		expect(call.arguments).toEqual(['howMany']);
		expect(JSON.parse(call.answer!).map((s: { name: string }) => s.name)).toEqual([
			'Phonovation',
			'FreeText',
		]);
	});

	it('a manual Tool Description replaces the automatic one', async () => {
		const parameters = {
			resource: 'service',
			operation: 'checkHealth',
			descriptionType: 'manual',
			toolDescription: 'Tells whether SMS can be sent right now',
		};
		const call = await callTool('Health', parameters, {});
		expect(call.description).toBe('Tells whether SMS can be sent right now');
		expect(JSON.parse(call.answer!)).toEqual([
			expect.objectContaining({ healthy: true, status: 200 }),
		]);
	});

	it("a provider failure reaches the agent as the node's error message, and nothing is retried", async () => {
		sim.injectFault('/api/v2/senderlist', { kind: 'status', status: 503 });
		const call = await callTool('List Senders', { resource: 'sender', operation: 'getAll' }, {});
		expect(call.answer).toBeUndefined();
		expect(call.error).toMatch(/^Phonovation answered HTTP 503 to the sender list request/);
		expect(sim.count('GET', '/api/v2/senderlist')).toBe(1);
	});

	it('never starts a question it cannot finish: Send and Wait is refused as a plain tool, nothing texted', async () => {
		const parameters = {
			resource: 'conversation',
			operation: 'sendAndWait',
			questionLog: { __rl: true, mode: 'id', value: 'question-log' },
			from: '353851234567',
			recipients: '0871234567',
			message: 'Reply YES to approve the refund',
			responseType: 'approval',
		};
		const call = await callTool('Ask', parameters, {});
		expect(call.answer).toBeUndefined();
		expect(call.error).toMatch(/^Send and Wait for Reply cannot be an AI Agent's tool/);
		expect(sim.count('POST', '/api/v2/Campaign')).toBe(0);
	});

	it("hands the conversation to a person when the agent decides to, marked as the agent's, keeping its reply to the turn", async () => {
		const log = new QuestionLog(engine);
		const parameters = {
			resource: 'conversation',
			operation: 'handOver',
			questionLog: { __rl: true, mode: 'id', value: 'question-log' },
			handOverAction: 'handOver',
			recipients: '353871234567',
			textedNumber: '353851234567',
			answers: 'turn:in:1',
		};
		const call = await callTool('Hand Over to Staff', parameters, {});
		expect(call.error).toBeUndefined();
		expect(JSON.parse(call.answer!)).toEqual([
			expect.objectContaining({ handedOver: true, phone: '353871234567', by: 'agent' }),
		]);
		expect(log.messages).toEqual([
			expect.objectContaining({ kind: 'handover', phone: '353871234567', turn: 'turn:in:1' }),
		]);
		expect(sim.count('POST', '/api/v2/Campaign')).toBe(0);
	});
});
