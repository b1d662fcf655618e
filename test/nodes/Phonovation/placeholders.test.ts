import { type INodeParameters, NodeHelpers } from 'n8n-workflow';

import { Phonovation } from '../../../nodes/Phonovation/Phonovation.node';
import { placeholderNotices } from '../../../nodes/Phonovation/placeholders';
import { exampleNames, readExample } from '../../e2e/support/examples';
import { QUESTION_LOG } from '../../harness/question-log';
import { sharedFixture } from './fixture';

const SEND = {
	resource: 'campaign',
	operation: 'send',
	from: 'Phonovation',
	text: 'Hi',
	recipients: '0871234567',
	options: { messageType: 'transactional' },
};

/** An example workflow as a user imports it: its Sender and Question Log still the placeholders. */
describe("an example's placeholders left in the node", () => {
	const fixture = sharedFixture();

	it('a Send names its Sender placeholder, and nothing is sent', async () => {
		const f = fixture();
		const result = await f.run({ ...SEND, from: 'YOUR_SENDER_ID' });
		expect(result.error?.message).toBe(
			"This node still holds the example's placeholders: Sender Name or ID (YOUR_SENDER_ID). Choose your own in the node (the Sender from its list, the inbox workflow as Question Log) and run again; nothing was sent",
		);
		expect(f.sim.requests).toHaveLength(0);
	});

	it("Send and Wait for Reply names every placeholder it holds at once, in the panel's order, before any request", async () => {
		const f = fixture();
		const result = await f.run({
			resource: 'conversation',
			operation: 'sendAndWait',
			from: ' YOUR_SENDER_ID ',
			recipients: '0871234567',
			message: 'Reply YES to confirm',
			responseType: 'approval',
			questionLog: { __rl: true, mode: 'list', value: 'YOUR_QUESTION_LOG' },
		});
		expect(result.error?.message).toContain(
			'placeholders: Question Log (YOUR_QUESTION_LOG), Sender Name or ID (YOUR_SENDER_ID).',
		);
		expect(f.sim.requests).toHaveLength(0);
	});

	it("the AI example's reviewer placeholder is named too, and nobody is texted", async () => {
		const f = fixture();
		const result = await f.run({
			resource: 'conversation',
			operation: 'sendAndWait',
			from: 'Phonovation',
			recipients: 'YOUR_REVIEWER_NUMBER',
			message: 'Reply YES to confirm',
			responseType: 'approval',
			questionLog: { __rl: true, mode: 'id', value: 'log' },
		});
		expect(result.error?.message).toMatch(/placeholders: \S.* \(YOUR_REVIEWER_NUMBER\)\./);
		expect(f.sim.requests).toHaveLength(0);
	});

	it("a text that only mentions such a word is the user's own, and is sent", async () => {
		const f = fixture();
		const result = await f.run({ ...SEND, text: 'YOUR_CODE is 4821' });
		expect(result.error).toBeUndefined();
		expect(f.sim.campaigns).toHaveLength(1);
	});

	it('a field of another operation, hidden in the panel, is not read (n8n keeps its old value)', async () => {
		const f = fixture();
		const result = await f.run({ ...SEND, questionLog: QUESTION_LOG, sendAt: 'YOUR_SEND_TIME' });
		expect(result.error).toBeUndefined();
		expect(f.sim.campaigns).toHaveLength(1);
	});

	it('under Continue On Fail, a wait for delivery sends its error item out of Failed, not No Receipt', async () => {
		const f = fixture();
		const result = await f.run(
			{
				resource: 'conversation',
				operation: 'sendAndWaitForDelivery',
				from: 'YOUR_SENDER_ID',
				recipients: '0871234567',
				message: 'Reminder: your appointment is tomorrow at 10:00',
				questionLog: QUESTION_LOG,
			},
			[{ json: {} }],
			{ onError: 'continueRegularOutput' },
		);
		expect(result.outputs.map((output) => output.length)).toEqual([0, 0, 1]);
		expect(result.outputs[2][0].json.error).toMatch(
			/placeholders: Sender Name or ID \(YOUR_SENDER_ID\)/,
		);
		expect(f.sim.requests).toHaveLength(0);
	});

	it('an expression that is only the placeholder (Fixed → Expression) is one too', async () => {
		const f = fixture();
		const result = await f.run({ ...SEND, from: '=YOUR_SENDER_ID' });
		expect(result.error?.message).toContain('Sender Name or ID (YOUR_SENDER_ID)');
		expect(f.sim.requests).toHaveLength(0);
	});
});

describe('the panel says loudly which fields still hold an example placeholder', () => {
	const description = new Phonovation().description;
	const shown = (parameters: INodeParameters) =>
		placeholderNotices
			.filter((notice) => NodeHelpers.displayParameter(parameters, notice, null, description))
			.map((notice) => notice.name);

	const held = exampleNames().flatMap((example) =>
		readExample(example)
			.nodes.filter((node) => node.type.startsWith('n8n-nodes-phonovation.phonovation'))
			.map((node) => ({ example, node: node.name, parameters: node.parameters as INodeParameters }))
			.filter(({ parameters }) => JSON.stringify(parameters).includes('"YOUR_')),
	);

	it('the examples hold placeholders to show (the test has something to check)', () => {
		expect(held.length).toBeGreaterThanOrEqual(5);
	});

	it.each(held.map((h) => [`${h.example} › ${h.node}`, h.parameters] as const))(
		'%s: a notice for each field holding one, none once it is chosen',
		(_name, parameters) => {
			const fields = ['questionLog', 'from', 'recipients'].filter((name) =>
				JSON.stringify(parameters[name] ?? '').includes('YOUR_'),
			);
			expect(shown(parameters)).toEqual(fields.map((name) => `${name}Placeholder`));
			const chosen = { ...parameters };
			for (const name of fields)
				chosen[name] =
					typeof chosen[name] === 'object'
						? { __rl: true, mode: 'list', value: 'abc123' }
						: '0871234567';
			expect(shown(chosen)).toEqual([]);
		},
	);

	it("an expression (the inbox's own Question Log, a number per row) or an empty field shows none", () => {
		expect(
			shown({ questionLog: { __rl: true, mode: 'id', value: '={{ $workflow.id }}' } }),
		).toEqual([]);
		expect(shown({ recipients: '={{ $json.phone }}', from: '' })).toEqual([]);
		expect(shown({})).toEqual([]);
	});
});
