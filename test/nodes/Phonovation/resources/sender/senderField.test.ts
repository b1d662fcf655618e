import { QUESTION_LOG } from '../../../../harness/question-log';
import { sharedFixture } from '../../fixture';

/** Node version 2: the Sender is a resource locator, filled when the list is opened. */
const V2 = { typeVersion: 2 };
const sender = (value: string, mode: 'list' | 'id' = 'list') => ({ __rl: true, mode, value });

describe('the Sender of node version 2 (a list the editor fills when it is opened)', () => {
	const fixture = sharedFixture();
	/** Campaign Send "Hi" from the sender, in node version 2. */
	const send = async (
		from: ReturnType<typeof sender>,
		items?: Array<{ json: Record<string, string> }>,
		recipients = '0871234567',
	) =>
		await fixture().run(
			{ resource: 'campaign', operation: 'send', from, text: 'Hi', recipients },
			items,
			V2,
		);

	it("lists the account's senders with their types, narrowed by what the user types", async () => {
		const f = fixture();
		const node = f.node({ resource: 'campaign', operation: 'send' }, V2);
		expect((await f.engine.listSearch(node, 'searchSenders')).results).toEqual([
			{ name: '353851234567 (numeric)', value: '353851234567' },
			{ name: 'FreeText (international — not delivered to Irish numbers)', value: 'FreeText' },
			{ name: 'Phonovation (ComReg registered)', value: 'Phonovation' },
		]);
		expect((await f.engine.listSearch(node, 'searchSenders', 'comreg')).results).toEqual([
			{ name: 'Phonovation (ComReg registered)', value: 'Phonovation' },
		]);
	});

	it('Send and Wait for Reply lists only the senders a reply can come back to, in both versions', async () => {
		const f = fixture();
		const ask = { resource: 'conversation', operation: 'sendAndWait' };
		const longcode = { name: '353851234567 (numeric)', value: '353851234567' };
		expect((await f.engine.listSearch(f.node(ask, V2), 'searchSenders')).results).toEqual([
			longcode,
		]);
		expect(await f.engine.loadOptions(f.node(ask), 'getSenders')).toEqual([longcode]);
	});

	it('sends from the sender chosen in the list', async () => {
		const f = fixture();
		const result = await send(sender('Phonovation'));
		expect(result.error).toBeUndefined();
		expect(f.sim.campaigns.map((c) => c.body.from)).toEqual(['Phonovation']);
	});

	it('reads a sender typed as an expression for each item, not once for all (one campaign per sender)', async () => {
		const f = fixture();
		const result = await send(
			sender('={{ $json.sender }}', 'id'),
			[
				{ json: { sender: 'Phonovation', phone: '0871234501' } },
				{ json: { sender: '353851234567', phone: '0871234502' } },
			],
			'={{ $json.phone }}',
		);
		expect(result.error).toBeUndefined();
		expect(f.sim.campaigns.map((c) => c.body.from).sort()).toEqual(['353851234567', 'Phonovation']);
	});

	it('an unapproved sender typed by ID is refused by name, and nothing is sent', async () => {
		const f = fixture();
		const result = await send(sender('NotOurs', 'id'));
		expect(result.error?.message).toContain('Sender ID "NotOurs" is not approved on this account');
		expect(f.sim.campaigns).toHaveLength(0);
	});

	it("an example's placeholder in the list is named once, under the field's label, and nothing is sent", async () => {
		const f = fixture();
		const result = await send(sender('YOUR_SENDER_ID'));
		expect(result.error?.message).toMatch(/placeholders: Sender \(YOUR_SENDER_ID\)\. Choose/);
		expect(f.sim.requests).toHaveLength(0);
	});

	it('Send and Wait for Reply refuses an alphanumeric sender chosen in the list before anything is sent', async () => {
		const f = fixture();
		const result = await f.run(
			{
				resource: 'conversation',
				operation: 'sendAndWait',
				from: sender('Phonovation'),
				recipients: '0871234567',
				message: 'Reply YES to confirm',
				responseType: 'approval',
				questionLog: QUESTION_LOG,
			},
			undefined,
			V2,
		);
		expect(result.error?.message).toContain('Sender: "Phonovation" cannot receive replies');
		expect(f.sim.campaigns).toHaveLength(0);
	});
});
