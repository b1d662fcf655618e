import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { CHAT_COMPLETIONS, CHAT_MODELS } from './chatModel';
import { type Simulator, startSimulator } from './index';
import { call } from './test-helpers';

/** The model the sms-assistant example chooses in its OpenAI Chat Model node. */
function exampleModel(): string {
	const path = join(__dirname, '../../examples/sms-assistant/workflow.json');
	const workflow = JSON.parse(readFileSync(path, 'utf8')) as {
		nodes: Array<{ type: string; parameters: { model?: { value?: string } } }>;
	};
	const node = workflow.nodes.find((n) => n.type.endsWith('lmChatOpenAi'));
	return String(node?.parameters.model?.value);
}

describe('simulator: the stand-in chat model', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await startSimulator();
	});
	afterAll(async () => {
		await sim.stop();
	});

	it("lists its models, the example's among them, as n8n's OpenAI credential test asks", async () => {
		const response = await call(`${sim.url}${CHAT_MODELS}`);
		expect(response.status).toBe(200);
		const ids = (response.json() as { data: Array<{ id: string }> }).data.map((m) => m.id);
		expect(ids).toContain(exampleModel());
	});

	it('answers a chat completion without tools with a text', async () => {
		const response = await call(`${sim.url}${CHAT_COMPLETIONS}`, {
			method: 'POST',
			json: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] },
		});
		const body = response.json() as { choices: Array<{ message: { content: string } }> };
		expect(body.choices[0].message.content).toEqual(expect.any(String));
	});

	it('calls the first tool, a hand-over tool only when the person says "emergency"', async () => {
		const tools = ['Hand_Over_to_Staff', 'List_Sender_IDs'].map((name) => ({
			type: 'function',
			function: { name, parameters: { type: 'object', properties: {} } },
		}));
		const called = async (content: string) => {
			const response = await call(`${sim.url}${CHAT_COMPLETIONS}`, {
				method: 'POST',
				json: { model: 'gpt-4o-mini', messages: [{ role: 'user', content }], tools },
			});
			const body = response.json() as {
				choices: Array<{ message: { tool_calls: Array<{ function: { name: string } }> } }>;
			};
			return body.choices[0].message.tool_calls[0].function.name;
		};
		expect(await called('What are your opening hours?')).toBe('List_Sender_IDs');
		expect(await called('This is an EMERGENCY, my tooth broke')).toBe('Hand_Over_to_Staff');
	});
});
