import { DateTime } from 'luxon';
import type { IExecuteContextData, INode, INodeExecutionData } from 'n8n-workflow';

import { PhonovationApi } from '../../../../../credentials/PhonovationApi.credentials';
import { Phonovation } from '../../../../../nodes/Phonovation/Phonovation.node';
import { LoopGate } from '../../../../harness/loop-node';

import { DEFAULT_TEST_TIMEZONE, Engine } from '../../../../harness/engine';
import { simulatorCredentialData } from '../../../../simulator';
import { until } from '../../../../simulator/test-helpers';
import { itemsOf, NODE_TYPE, sharedFixture, type PhonovationFixture } from '../../fixture';

/**
 * Only the provider's own refusal is a refusal (issue 31): what may have been processed is
 * recorded and never posted again, by Retry On Fail or by a Retry of the execution.
 */
const CAMPAIGN = '/api/v2/Campaign';
const SEND = {
	resource: 'campaign',
	operation: 'send',
	from: 'Phonovation',
	recipients: '={{ $json.phone }}',
	text: '={{ $json.text }}',
	options: { messageType: 'transactional' },
};
const RETRY_ON_FAIL = { retryOnFail: true, maxTries: 3, waitBetweenTries: 0 };
type Json = Record<string, any>;

jest.setTimeout(30_000);

const personalised = (n: number) =>
	itemsOf(n, (i) => ({ phone: `08712345${10 + i}`, text: `Hi person ${i}` }));
const jsonOf = (items: INodeExecutionData[]) => items.map((i) => i.json as Json);
/** Each item's recipients' statuses, from its report or from the report kept beside its error. */
const statusesOf = (items: INodeExecutionData[]) =>
	jsonOf(items).map((o) => (o.details ?? o).recipients.map((r: Json) => r.status));
const processedTexts = (f: PhonovationFixture) => f.sim.campaigns.map((c) => c.body.text as string);
const contextOf = (result: {
	run: { data: { executionData?: { contextData?: IExecuteContextData } } };
}) => result.run.data.executionData!.contextData!;

describe("only the provider's own refusal is a refusal", () => {
	const fixture = sharedFixture();

	it('a 200 with success:false after processing: Retry On Fail does not post it again, and it stays an error', async () => {
		const f = fixture();
		f.sim.injectFault(CAMPAIGN, {
			kind: 'answer',
			status: 200,
			body: JSON.stringify({ success: false, message: 'Try again later', errors: [] }),
		});
		const result = await f.run(SEND, personalised(1), RETRY_ON_FAIL);
		expect(processedTexts(f)).toEqual(['Hi person 0']);
		expect(f.sim.count('POST', CAMPAIGN)).toBe(1);
		expect(result.error?.message).toMatch(
			/could not confirm the campaign: the provider answered success: false with HTTP 2xx \(Try again later\)/,
		);
	});

	it("a proxy's HTML 503 after processing: posted once, every recipient reported unconfirmed", async () => {
		const f = fixture();
		f.sim.injectFault(CAMPAIGN, { kind: 'delay', ms: 0 });
		f.sim.injectFault(CAMPAIGN, {
			kind: 'answer',
			status: 503,
			body: '<html><body>upstream connect error or disconnect/reset before headers</body></html>',
		});
		const result = await f.run(SEND, personalised(3), {
			...RETRY_ON_FAIL,
			onError: 'continueRegularOutput',
		});
		expect(processedTexts(f).sort()).toEqual(['Hi person 0', 'Hi person 1', 'Hi person 2']);
		expect(f.sim.count('POST', CAMPAIGN)).toBe(3);
		const statuses = statusesOf(result.items).flat().sort();
		expect(statuses).toEqual(['accepted', 'accepted', 'unconfirmed']);
		const failed = jsonOf(result.items).find((o) => o.error);
		expect(failed?.error).toMatch(/HTTP 503 to the campaign/);
	});

	it("a 503 carrying the provider's own JSON refusal processed nothing: Retry On Fail posts it again, once", async () => {
		const f = fixture();
		f.sim.injectFault(CAMPAIGN, {
			kind: 'status',
			status: 503,
			body: { success: false, message: 'Service Unavailable', errors: [] },
		});
		const result = await f.run(SEND, personalised(1), RETRY_ON_FAIL);
		expect(result.error).toBeUndefined();
		expect(processedTexts(f)).toEqual(['Hi person 0']);
		expect(statusesOf(result.items)).toEqual([['accepted']]);
	});

	/** The credential's Base URL replaced by `baseUrl` (the Auth URL still reaches the simulator). */
	const pointAt = (f: PhonovationFixture, baseUrl: string) =>
		f.engine.credentials.set('cred-1', {
			...simulatorCredentialData(f.sim),
			accessToken: '',
			baseUrl,
		});

	it.each([
		[
			'a host name that does not resolve (DNS)',
			() => 'https://phonovation-sim.invalid',
			/the host name could not be resolved/,
		],
		// The simulator speaks plain HTTP: a TLS client gets no handshake from it.
		[
			'a TLS handshake that fails',
			(url: URL) => `https://${url.host}`,
			/Could not reach Phonovation for the campaign/,
		],
	])(
		'%s: nothing processed, a clear error, and a Retry of the execution sends it',
		async (_name, unreachable, message) => {
			const f = fixture();
			// The first execution reads the sender list, then the provider refuses the campaign: nothing sent.
			f.sim.injectFault(CAMPAIGN, { kind: 'status', status: 429, retryAfter: 600 });
			const first = await f.run(SEND, personalised(1));
			expect(first.error?.message).toMatch(/HTTP 429/);
			// Its Retry meets a connection that never opens.
			pointAt(f, unreachable(new URL(String(simulatorCredentialData(f.sim).baseUrl))));
			const second = await f.run(SEND, personalised(1), {}, { contextData: contextOf(first) });
			expect(second.error?.message).toMatch(message);
			expect(second.error?.description ?? '').not.toMatch(
				/may have reached|not repeated automatically/,
			);
			expect(f.sim.campaigns).toHaveLength(0);
			// A Retry once the provider can be reached sends it, once.
			pointAt(f, simulatorCredentialData(f.sim).baseUrl as string);
			const third = await f.run(SEND, personalised(1), {}, { contextData: contextOf(second) });
			expect(third.error).toBeUndefined();
			expect(processedTexts(f)).toEqual(['Hi person 0']);
			expect(statusesOf(third.items)).toEqual([['accepted']]);
		},
	);

	it('provider errors as objects in an accepted answer: the accepted are reported, the named number refused, no TypeError', async () => {
		const f = fixture();
		const answer = {
			success: true,
			message: 'Campaign queued',
			errors: [
				{ msisdn: '353871234511', error: 'Blacklisted' },
				null,
				42,
				'+353 (0)87 123 4512 opted out',
				{ recipient: { msisdn: 353871234513.0 }, reason: 'Barred' },
			],
		};
		f.sim.injectFault(CAMPAIGN, { kind: 'answer', status: 200, body: JSON.stringify(answer) });
		const result = await f.run(
			{ ...SEND, text: 'Sale', recipients: '0871234510, 0871234511, 0871234512, 0871234513' },
			[{ json: {} }],
		);
		expect(result.error).toBeUndefined();
		const [report] = jsonOf(result.items);
		expect(report.recipients.map((r: Json) => [r.msisdn, r.status])).toEqual([
			['353871234510', 'accepted'],
			['353871234511', 'rejected by provider'],
			['353871234512', 'rejected by provider'],
			['353871234513', 'rejected by provider'],
		]);
		expect(JSON.stringify(report)).toContain('Blacklisted');
	});
});

describe('Continue On Fail never passes an input item through as a success', () => {
	const fixture = sharedFixture();

	it.each([
		['Parallel Requests above its maximum', { parallelRequests: 5000 }, /Parallel Requests/],
	])(
		'%s: every input item becomes an error item, nothing is sent',
		async (_name, options, message) => {
			const f = fixture();
			const result = await f.run(
				{ ...SEND, options: { ...SEND.options, ...options } },
				personalised(3),
				{ onError: 'continueRegularOutput' },
			);
			expect(result.items).toHaveLength(3);
			for (const item of jsonOf(result.items)) {
				expect(item.error).toMatch(message);
				expect(item.phone).toBeUndefined();
			}
			expect(f.sim.count('POST', CAMPAIGN)).toBe(0);
		},
	);

	it('a 429 whose body says success: true was accepted: not posted again, reported unconfirmed', async () => {
		const f = fixture();
		f.sim.injectFault(CAMPAIGN, {
			kind: 'answer',
			status: 429,
			body: JSON.stringify({ success: true, message: 'Campaign queued', errors: [] }),
		});
		const result = await f.run(SEND, personalised(1), { onError: 'continueRegularOutput' });
		expect(f.sim.count('POST', CAMPAIGN)).toBe(1);
		expect(statusesOf(result.items)).toEqual([['unconfirmed']]);
	});

	it('an unsafe Base URL (plain HTTP to another host): every input item becomes an error item, nothing is sent', async () => {
		const f = fixture();
		f.engine.credentials.set('cred-1', {
			...simulatorCredentialData(f.sim),
			accessToken: '',
			baseUrl: 'http://sms.example.com',
		});
		const result = await f.run(SEND, personalised(2), { onError: 'continueErrorOutput' });
		expect(result.outputs[0]).toEqual([]);
		expect(result.outputs[1]).toHaveLength(2);
		for (const item of jsonOf(result.outputs[1])) expect(item.error).toMatch(/Base URL/);
		expect(f.sim.count('POST', CAMPAIGN)).toBe(0);
	});
});

describe('time rules are judged when a request has its slot, not before it waits for one', () => {
	const fixture = sharedFixture();

	it('nine personalised rows: the ninth waits for a slot past the start of Quiet Hours (or past Send At) and is not posted on the earlier verdict', async () => {
		const f = fixture();
		// Everything happens within one minute: start just after a minute turns.
		if (DateTime.utc().second >= 50) await new Promise((resolve) => setTimeout(resolve, 11_000));
		const start = DateTime.utc().plus({ minutes: 1 }).startOf('minute');
		const end = start.plus({ hours: 2 });
		// The pacer starts with 8 in flight; the provider holds those 8 until the rules' moment has passed.
		f.sim.injectFault(CAMPAIGN, { kind: 'delay', ms: start.toMillis() - Date.now() + 500 }, 16);
		const wire = (at: DateTime) => at.toFormat("yyyy-MM-dd'T'HH:mm'Z'");
		const quiet = {
			quietHours: `${start.toFormat('HH:mm')}-${end.toFormat('HH:mm')}`,
			quietHoursTimeZone: 'UTC',
		};
		const [sent, scheduled] = await Promise.all([
			f.run({ ...SEND, options: { ...SEND.options, ...quiet } }, personalised(9)),
			f.run(
				{
					...SEND,
					operation: 'schedule',
					sendAt: start.toISO(),
					text: '={{ "Later " + $json.text }}',
				},
				personalised(9),
				{ onError: 'continueRegularOutput' },
			),
		]);
		expect(sent.error).toBeUndefined();
		const sendAts = f.sim.campaigns
			.filter((c) => c.body.text.startsWith('Hi'))
			.map((c) => c.body.sendAt ?? null);
		expect(sendAts).toHaveLength(9);
		// The first 8 went before Quiet Hours; the ninth, posted inside them, is scheduled for their end.
		expect(sendAts.filter((s) => s === null)).toHaveLength(8);
		expect(sendAts.filter((s) => s === wire(end))).toHaveLength(1);
		// The Schedule's ninth row found its Send At passed when it had a slot: not posted, an error.
		const later = f.sim.campaigns.filter((c) => c.body.text.startsWith('Later'));
		expect(later).toHaveLength(8);
		const errors = jsonOf(scheduled.items).filter((o) => o.error);
		expect(errors).toHaveLength(1);
		expect(errors[0].error).toMatch(
			/Send At .* had passed when the request was about to be posted/,
		);
	}, 90_000);

	it("Quiet Hours with no time of day quiet in none of the recipients' zones (Ireland, Japan, US): an error before any credit is spent", async () => {
		const f = fixture();
		// A US number is judged in the workflow's zone (+1 spans several): New York here.
		f.engine.timezone = 'America/New_York';
		const quiet = await f
			.run({
				...SEND,
				text: 'Hello',
				recipients: '0871234567, +81 90 1234 5678, +1 212 555 0100',
				options: { ...SEND.options, quietHours: '21:00-08:00' },
			})
			.finally(() => (f.engine.timezone = DEFAULT_TEST_TIMEZONE));
		expect(quiet.error?.message).toMatch(
			/^Quiet Hours: 21:00-08:00 in the recipients' time zones \(Europe\/Dublin, Asia\/Tokyo, America\/New_York\) leave no time of day .* no send time can be found/,
		);
		expect(f.sim.count('POST', CAMPAIGN)).toBe(0);
	});
});

describe('Stop, Timeout and a Retry that finds no record', () => {
	const fixture = sharedFixture();

	it('stopped while requests are in flight: they are recorded unconfirmed, and a Retry of the execution posts nothing again', async () => {
		const f = fixture();
		f.sim.injectFault(CAMPAIGN, { kind: 'delay', ms: 2500 }, 3);
		const stopped = await f.run(
			SEND,
			personalised(3),
			{},
			{ onStarted: (stop) => setTimeout(stop, 1000) },
		);
		expect(stopped.run.status).toBe('canceled');
		// The provider still processes what reached it.
		await until(() => f.sim.campaigns.length === 3);
		const retried = await f.run(
			SEND,
			personalised(3),
			{ onError: 'continueRegularOutput' },
			{ contextData: contextOf(stopped) },
		);
		expect(f.sim.count('POST', CAMPAIGN)).toBe(3);
		expect(statusesOf(retried.items)).toEqual([['unconfirmed'], ['unconfirmed'], ['unconfirmed']]);
		expect(jsonOf(retried.items)[0].error).toMatch(
			/could not confirm the campaign: The execution was stopped while waiting for Phonovation's answer/,
		);
	});

	it('a Retry of an execution whose record of this node is missing (stopped or crashed in real n8n): nothing is posted, the error says why', async () => {
		const f = fixture();
		// Retry On Fail on top must not find the record the first attempt began and send.
		const result = await f.run(SEND, personalised(2), RETRY_ON_FAIL, { mode: 'retry' });
		expect(result.error?.message).toMatch(
			/^Nothing was sent: this is a Retry of an execution, and this node has no record of this run/,
		);
		expect(f.sim.count('POST', CAMPAIGN)).toBe(0);
		// Nor a Retry of that execution.
		const again = await f.run(SEND, personalised(2), RETRY_ON_FAIL, {
			mode: 'retry',
			contextData: contextOf(result),
		});
		expect(again.error?.message).toMatch(/^Nothing was sent: this is a Retry/);
		expect(f.sim.count('POST', CAMPAIGN)).toBe(0);
	});

	it('a loop retried after its second run failed: the first is replayed, the rest go once, the guard does not stop the loop', async () => {
		const f = fixture();
		const engine = new Engine({
			nodeTypes: { [NODE_TYPE]: new Phonovation(), 'test.loopGate': new LoopGate() },
			credentialTypes: [new PhonovationApi()],
		});
		engine.credentials.set('cred-1', f.engine.credentials.stored('cred-1'));
		const send = f.node({ ...SEND, recipients: '0871234510', text: '={{ "Round " + $runIndex }}' });
		const gate: INode = {
			id: 'gate',
			name: 'Loop Gate',
			type: 'test.loopGate',
			typeVersion: 1,
			position: [200, 0],
			parameters: { times: 3 },
		};
		const connections = {
			[send.name]: { main: [[{ node: gate.name, type: 'main' as const, index: 0 }]] },
			[gate.name]: { main: [[{ node: send.name, type: 'main' as const, index: 0 }], []] },
		};
		f.sim.injectFault(CAMPAIGN, { kind: 'delay', ms: 0 });
		f.sim.injectFault(CAMPAIGN, { kind: 'status', status: 400 });
		const failed = await engine.runWorkflow(
			[send, gate],
			connections,
			send,
			[{ json: {} }],
			'manual',
			{ executionId: 'first' },
		);
		expect(failed.data.resultData.error?.message).toMatch(/HTTP 400/);
		const retried = await engine.runWorkflow(
			[send, gate],
			connections,
			send,
			[{ json: {} }],
			'retry',
			{
				executionId: 'retry',
				contextData: failed.data.executionData!.contextData!,
			},
		);
		expect(retried.data.resultData.error).toBeUndefined();
		expect(processedTexts(f)).toEqual(['Round 0', 'Round 1', 'Round 2']);
	});

	it('a Retry of an execution that failed in this node before posting anything sends', async () => {
		const f = fixture();
		f.sim.injectFault(CAMPAIGN, { kind: 'status', status: 400 });
		const failed = await f.run(SEND, personalised(1));
		expect(failed.error?.message).toMatch(/HTTP 400/);
		const retried = await f.run(
			SEND,
			personalised(1),
			{},
			{ mode: 'retry', contextData: contextOf(failed) },
		);
		expect(retried.error).toBeUndefined();
		expect(processedTexts(f)).toEqual(['Hi person 0']);
	});
});
