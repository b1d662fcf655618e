import { itemsOf, sharedFixture } from '../../fixture';

const LEGACY_PATH = '/api/v1/sendmessage.aspx';
const LEGACY = {
	resource: 'legacyMessage',
	operation: 'send',
	from: 'Acme',
	text: '=Hello {{ $json.name }}',
	to: '={{ $json.phone }}',
};
const RETRY_ON_FAIL = { retryOnFail: true, maxTries: 2, waitBetweenTries: 0 };

jest.setTimeout(30_000);

describe('legacy send never bills an item twice', () => {
	const fixture = sharedFixture({ senders: [{ name: 'Acme', type: 0 }] });
	const people = itemsOf(3, (i) => ({ phone: `087123450${i}`, name: `P${i}` }));

	it('Retry On Fail after item 3 of 3 is refused (429) posts only item 3 again', async () => {
		const f = fixture();
		f.sim.injectFault(LEGACY_PATH, { kind: 'delay', ms: 0 }, 2);
		f.sim.injectFault(LEGACY_PATH, { kind: 'status', status: 429, body: 'busy' });
		const result = await f.run(LEGACY, people, RETRY_ON_FAIL);
		expect(result.error).toBeUndefined();
		expect(f.sim.legacySends.map((s) => s.form.text)).toEqual(['Hello P0', 'Hello P1', 'Hello P2']);
		const out = result.items.map((i) => i.json as Record<string, any>);
		expect(out.map((o) => o.to)).toEqual(['353871234500', '353871234501', '353871234502']);
		expect(out[0].note).toMatch(/not posted again/);
		expect(out[2].note).toBeUndefined();
	});

	it.each([
		["a proxy's 503 page", { kind: 'answer', status: 503, body: 'upstream reset before headers' }],
		[
			"a 200 that is not the gateway's status line",
			{ kind: 'answer', status: 200, body: '<html>maintenance</html>' },
		],
	] as const)(
		'%s after the message went: Retry On Fail does not post it again',
		async (_name, fault) => {
			const f = fixture();
			f.sim.injectFault(LEGACY_PATH, fault);
			const result = await f.run(LEGACY, people.slice(0, 1), RETRY_ON_FAIL);
			expect(result.error?.message).toMatch(/not posted again.*\(item 0\)/);
			expect(f.sim.count('POST', LEGACY_PATH)).toBe(1);
			expect(f.sim.legacySends).toHaveLength(1);
		},
	);

	it('a text holding {{ $now }} with a 502 after the message went: Retry On Fail does not post it again', async () => {
		const f = fixture();
		f.sim.injectFault(LEGACY_PATH, { kind: 'answer', status: 502, body: 'Bad Gateway' });
		const result = await f.run(
			{ ...LEGACY, text: '=Your code, sent {{ $now.toISO() }}' },
			people.slice(0, 1),
			RETRY_ON_FAIL,
		);
		expect(result.error?.message).toMatch(/not posted again.*\(item 0\)/);
		expect(f.sim.legacySends).toHaveLength(1);
	});

	it("a status line other than 0 may follow sending, like a campaign's success: false: not posted again", async () => {
		const f = fixture();
		f.sim.injectFault(LEGACY_PATH, {
			kind: 'answer',
			status: 200,
			body: '99\nTemporary error, message queued',
		});
		const result = await f.run(LEGACY, people.slice(0, 1), RETRY_ON_FAIL);
		expect(result.error?.message).toMatch(
			/could not be confirmed in an earlier attempt .* not posted again.*\(item 0\)/,
		);
		expect(f.sim.legacySends).toHaveLength(1);
	});

	it('an item refused before sending (text too long) leaves a record: a Retry of the execution sends the rest', async () => {
		const f = fixture();
		const items = [...people.slice(0, 1), { json: { phone: '0871234509', name: 'x'.repeat(200) } }];
		const failed = await f.run(LEGACY, items);
		expect(failed.error?.message).toMatch(/Text is too long/);
		const retried = await f.run(
			LEGACY,
			items,
			{ onError: 'continueRegularOutput' },
			{
				mode: 'retry',
				contextData: failed.run.data.executionData!.contextData!,
			},
		);
		expect(retried.items.map((i) => (i.json.error ? 'error' : i.json.to))).toEqual([
			'353871234500',
			'error',
		]);
		expect(f.sim.legacySends).toHaveLength(1);
	});

	it('a send that got no answer is not posted again on retry, and says why', async () => {
		const f = fixture();
		f.sim.injectFault(LEGACY_PATH, { kind: 'reset' });
		const result = await f.run(LEGACY, people.slice(0, 1), RETRY_ON_FAIL);
		expect(result.error?.message).toMatch(
			/could not be confirmed in an earlier attempt .* not posted again.*\(item 0\)/,
		);
		expect(f.sim.count('POST', LEGACY_PATH)).toBe(1);
	});
});
