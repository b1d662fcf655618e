import { type Fault, peakOverlap } from '../simulator';
import { useE2eEnvironment, type E2eEnvironment } from './support/environment';
import { nodeOutput } from './support/n8n-client';
import { pollUntil } from './support/poll';
import { chain, code, manualTrigger, phonovation } from './support/workflow-builder';

const CAMPAIGN = '/api/v2/Campaign';
const RETRY_ON_FAIL = { retryOnFail: true, maxTries: 2, waitBetweenTries: 0 };
type Json = Record<string, any>;

const itemsCode = (items: unknown[]) =>
	`return ${JSON.stringify(items)}.map((json) => ({ json }));`;
const personalised = (n: number) =>
	Array.from({ length: n }, (_, i) => ({ phone: `08755500${10 + i}`, name: `Person ${i}` }));

/** Campaign bodies the provider processed more than once: what a customer would be billed twice for. */
function doubleSends(env: E2eEnvironment): string[] {
	const bodies = env.sim.campaigns.map((c) => JSON.stringify(c.body));
	return bodies.filter((b, i) => bodies.indexOf(b) !== i);
}

/** Numbers the provider processed more than once: a changed body must not hide a second send. */
function numbersTextedTwice(env: E2eEnvironment): string[] {
	const numbers = env.sim.campaigns.flatMap((c) =>
		c.body.recipientInfo.map((r: Json) => String(r.msisdn)),
	);
	return numbers.filter((n, i) => numbers.indexOf(n) !== i);
}

const processedNumbers = (env: E2eEnvironment) =>
	env.sim.campaigns.flatMap((c) => c.body.recipientInfo.map((r: Json) => String(r.msisdn))).sort();

/** A workflow: Manual Trigger → items → the Phonovation node with these parameters and settings. */
async function campaignWorkflow(
	env: E2eEnvironment,
	name: string,
	items: unknown[],
	parameters: Json,
	settings: Json = {},
) {
	const node = {
		...phonovation('Send', {
			resource: 'campaign',
			operation: 'send',
			from: 'Phonovation',
			...parameters,
		}),
		...settings,
	};
	return await env.importWorkflow(
		chain(name, [manualTrigger(), code('Rows', itemsCode(items)), node]),
	);
}

/** Faults for the next campaign requests, in order: `skip` requests pass, then `fault`. */
function failRequest(env: E2eEnvironment, skip: number, fault: Fault) {
	if (skip > 0) env.sim.injectFault(CAMPAIGN, { kind: 'delay', ms: 0 }, skip);
	env.sim.injectFault(CAMPAIGN, fault);
}

/** Money safety in a real n8n: Retry On Fail and execution Retry never post an accepted body again. */
describe('money safety in n8n', () => {
	const suite = useE2eEnvironment();

	for (const [label, fault] of [
		['503', { kind: 'status', status: 503 }],
		['429 past the wait bound', { kind: 'status', status: 429, retryAfter: 600 }],
	] as Array<[string, Fault]>) {
		suite.it(
			`Retry On Fail after a ${label} on campaign 3 of 3: each body processed once`,
			async (env) => {
				const workflow = await campaignWorkflow(
					env,
					`Retry on fail, ${label}, campaigns`,
					personalised(3),
					{ text: '=Hi {{ $json.name }}, your table is ready', recipients: '={{ $json.phone }}' },
					RETRY_ON_FAIL,
				);
				env.sim.reset();
				failRequest(env, 2, fault);
				const execution = await env.client.runAndWait(workflow.id, 'Manual Trigger');
				expect(execution.status).toBe('success');
				expect(env.sim.count('POST', CAMPAIGN)).toBe(4);
				expect(env.sim.campaigns).toHaveLength(3);
				expect(doubleSends(env)).toEqual([]);
				const out = nodeOutput(execution, 'Send') as Json[];
				expect(out.map((o) => o.recipients[0].status)).toEqual([
					'accepted',
					'accepted',
					'accepted',
				]);
			},
		);

		suite.it(
			`Retry On Fail after a ${label} on batch 2 of 2: only batch 2 is posted again`,
			async (env) => {
				const workflow = await campaignWorkflow(
					env,
					`Retry on fail, ${label}, batches`,
					personalised(4),
					{ text: 'Doors open at 8', recipients: '={{ $json.phone }}', options: { batchSize: 2 } },
					RETRY_ON_FAIL,
				);
				env.sim.reset();
				failRequest(env, 1, fault);
				const execution = await env.client.runAndWait(workflow.id, 'Manual Trigger');
				expect(execution.status).toBe('success');
				expect(env.sim.count('POST', CAMPAIGN)).toBe(3);
				expect(env.sim.campaigns.map((c) => c.body.recipientInfo.length)).toEqual([2, 2]);
				expect(doubleSends(env)).toEqual([]);
			},
		);
	}

	suite.it(
		'Retry On Fail with a text holding $now to the second: each number processed once, with a warning',
		async (env) => {
			const workflow = await campaignWorkflow(
				env,
				'Retry on fail, $now in the text',
				personalised(4),
				{
					text: "=Your code is valid until {{ $now.plus({ minutes: 5 }).toFormat('HH:mm:ss.SSS') }}",
					recipients: '={{ $json.phone }}',
					options: { batchSize: 2, messageType: 'transactional' },
				},
				RETRY_ON_FAIL,
			);
			env.sim.reset();
			failRequest(env, 1, { kind: 'status', status: 503 });
			const execution = await env.client.runAndWait(workflow.id, 'Manual Trigger');
			expect(execution.status).toBe('success');
			expect(numbersTextedTwice(env)).toEqual([]);
			expect(processedNumbers(env)).toEqual([
				'353875550010',
				'353875550011',
				'353875550012',
				'353875550013',
			]);
		},
	);

	suite.it(
		'processed, then answered 500 on batch 2, with Retry On Fail: batch 2 processed once, the run an error',
		async (env) => {
			const workflow = await campaignWorkflow(
				env,
				'Retry on fail, 500 after processing',
				personalised(4),
				{
					text: 'Doors open at 8',
					recipients: '={{ $json.phone }}',
					options: { batchSize: 2, messageType: 'transactional' },
				},
				RETRY_ON_FAIL,
			);
			env.sim.reset();
			failRequest(env, 1, { kind: 'answer', status: 500, body: 'Internal Server Error' });
			const execution = await env.client.runAndWait(workflow.id, 'Manual Trigger');
			expect(execution.status).toBe('error');
			expect(env.sim.count('POST', CAMPAIGN)).toBe(2);
			expect(processedNumbers(env)).toEqual([
				'353875550010',
				'353875550011',
				'353875550012',
				'353875550013',
			]);
		},
	);

	suite.it(
		'a timeout with Retry On Fail: the run is an error and the number is processed once',
		async (env) => {
			const workflow = await campaignWorkflow(
				env,
				'Retry on fail, timeout',
				personalised(1),
				{
					text: 'Doors open at 8',
					recipients: '={{ $json.phone }}',
					options: { timeout: 1000, messageType: 'transactional' },
				},
				RETRY_ON_FAIL,
			);
			env.sim.reset();
			failRequest(env, 0, { kind: 'delay', ms: 2000 });
			const execution = await env.client.runAndWait(workflow.id, 'Manual Trigger');
			expect(execution.status).toBe('error');
			// The provider processes the held request once its delay is over.
			await pollUntil(
				() => (processedNumbers(env).length > 0 ? true : undefined),
				'the held request processed',
				15_000,
			);
			expect(env.sim.count('POST', CAMPAIGN)).toBe(1);
			expect(processedNumbers(env)).toEqual(['353875550010']);
		},
	);

	suite.it(
		'a sender list that answers 500: nothing is posted, and the error says the run can be retried',
		async (env) => {
			const workflow = await campaignWorkflow(env, 'Sender list down', personalised(2), {
				text: 'Doors open at 8',
				recipients: '={{ $json.phone }}',
				options: { messageType: 'transactional' },
			});
			env.sim.reset();
			env.sim.injectFault('/api/v2/senderlist', { kind: 'status', status: 500 });
			const execution = await env.client.runAndWait(workflow.id, 'Manual Trigger');
			expect(execution.status).toBe('error');
			expect(JSON.stringify(execution.data.resultData.error)).toMatch(
				/Could not read the account's sender list/,
			);
			expect(env.sim.count('POST', CAMPAIGN)).toBe(0);
		},
	);

	suite.it(
		'an execution retried with {{ $execution.id }} as Notify ID: each number processed once',
		async (env) => {
			const workflow = await campaignWorkflow(
				env,
				'Execution retry, execution id as Notify ID',
				personalised(4),
				{
					text: 'Your parcel ships today',
					recipients: '={{ $json.phone }}',
					options: { batchSize: 2, notifyId: '={{ $execution.id }}', messageType: 'transactional' },
				},
			);
			env.sim.reset();
			failRequest(env, 1, { kind: 'status', status: 503 });
			const failed = await env.client.runAndWait(workflow.id, 'Manual Trigger');
			expect(failed.status).toBe('error');
			await env.client.call('POST', `/rest/executions/${failed.id}/retry`, { loadWorkflow: false });
			const [retried] = (await env.client.waitForExecutions(workflow.id, 2)).filter(
				(e) => e.id !== failed.id,
			);
			expect(retried.status).toBe('success');
			expect(numbersTextedTwice(env)).toEqual([]);
			expect(processedNumbers(env)).toEqual([
				'353875550010',
				'353875550011',
				'353875550012',
				'353875550013',
			]);
			// The Notify IDs show the two executions: the retry's new id did not make batch 1 new.
			const ids = env.sim.campaigns.map((c) => c.body.recipientInfo[0].notifyId);
			expect(ids[0]).not.toEqual(ids[1]);
		},
	);

	for (const loadWorkflow of [false, true]) {
		const how = loadWorkflow ? 'with the currently saved workflow' : 'with the original workflow';
		suite.it(
			`an execution that failed on batch 2 of 2, retried ${how}, posts only batch 2`,
			async (env) => {
				const workflow = await campaignWorkflow(env, `Execution retry ${how}`, personalised(4), {
					text: 'Your parcel ships today',
					recipients: '={{ $json.phone }}',
					options: { batchSize: 2 },
				});
				env.sim.reset();
				failRequest(env, 1, { kind: 'status', status: 503 });
				const failed = await env.client.runAndWait(workflow.id, 'Manual Trigger');
				expect(failed.status).toBe('error');
				expect(env.sim.campaigns).toHaveLength(1);

				await env.client.call('POST', `/rest/executions/${failed.id}/retry`, { loadWorkflow });
				const [retried] = (await env.client.waitForExecutions(workflow.id, 2)).filter(
					(e) => e.id !== failed.id,
				);
				expect(retried.status).toBe('success');
				expect(env.sim.count('POST', CAMPAIGN)).toBe(3);
				expect(
					env.sim.campaigns.map((c) => c.body.recipientInfo.map((r: Json) => r.msisdn)),
				).toEqual([
					['353875550010', '353875550011'],
					['353875550012', '353875550013'],
				]);
				expect(doubleSends(env)).toEqual([]);
			},
		);
	}

	suite.it(
		'200 personalised items go out in parallel, and every body arrives exactly once',
		async (env) => {
			const people = Array.from({ length: 200 }, (_, i) => ({
				phone: `0876${String(i).padStart(6, '0')}`,
				name: `Guest ${i}`,
			}));
			const workflow = await campaignWorkflow(env, 'Two hundred reminders', people, {
				text: '=Hi {{ $json.name }}, see you at 8',
				recipients: '={{ $json.phone }}',
			});
			env.sim.reset();
			env.sim.injectFault(CAMPAIGN, { kind: 'delay', ms: 50 }, 200);
			const execution = await env.client.runAndWait(workflow.id, 'Manual Trigger');
			expect(execution.status).toBe('success');
			expect(env.sim.count('POST', CAMPAIGN)).toBe(200);
			expect(env.sim.campaigns.map((c) => c.body.text).sort()).toEqual(
				people.map((p) => `Hi ${p.name}, see you at 8`).sort(),
			);
			expect(doubleSends(env)).toEqual([]);
			expect(peakOverlap(env.sim.timeline, CAMPAIGN)).toBeGreaterThan(1);
			const out = nodeOutput(execution, 'Send') as Json[];
			expect(out.map((o) => o.recipients[0].msisdn)).toEqual(
				people.map((_, i) => `353876${String(i).padStart(6, '0')}`),
			);
		},
	);

	suite.it(
		'a provider admitting 10 at once: the node finds that pace, every body arrives once, the few 429s are repeated',
		async (env) => {
			const people = Array.from({ length: 200 }, (_, i) => ({
				phone: `0876${String(i).padStart(6, '0')}`,
				name: `Guest ${i}`,
			}));
			const workflow = await campaignWorkflow(env, 'Reminders to a strict provider', people, {
				text: '=Hi {{ $json.name }}, see you at 9',
				recipients: '={{ $json.phone }}',
			});
			env.sim.reset();
			env.sim.config.campaignLimit = { max: 10, retryAfter: 0 };
			try {
				env.sim.injectFault(CAMPAIGN, { kind: 'delay', ms: 50 }, 600);
				const execution = await env.client.runAndWait(workflow.id, 'Manual Trigger');
				expect(execution.status).toBe('success');
				expect(env.sim.campaigns.map((c) => c.body.text).sort()).toEqual(
					people.map((p) => `Hi ${p.name}, see you at 9`).sort(),
				);
				expect(doubleSends(env)).toEqual([]);
				const refused = env.sim.requests.filter((r) => r.status === 429).length;
				expect(refused).toBeGreaterThan(0);
				expect(refused).toBeLessThanOrEqual(40);
				expect(
					(nodeOutput(execution, 'Send') as Json[]).every(
						(o) => o.recipients[0].status === 'accepted',
					),
				).toBe(true);
			} finally {
				env.sim.config.campaignLimit = undefined;
			}
		},
	);

	suite.it(
		'Continue On Fail (error output): a half-accepted item names its accepted numbers',
		async (env) => {
			const workflow = await campaignWorkflow(
				env,
				'Half accepted',
				[{ phones: ['0875550101', '0875550102', '0875550103'] }],
				{ text: 'Sale', recipients: '={{ $json.phones }}', options: { batchSize: 2 } },
				{ onError: 'continueErrorOutput' },
			);
			env.sim.reset();
			failRequest(env, 1, { kind: 'status', status: 503 });
			const execution = await env.client.runAndWait(workflow.id, 'Manual Trigger');
			expect(execution.status).toBe('success');
			expect(nodeOutput(execution, 'Send', 0)).toHaveLength(0);
			const [failed] = nodeOutput(execution, 'Send', 1) as Json[];
			expect(failed.error).toMatch(/HTTP 503/);
			expect(failed.details.recipients.map((r: Json) => [r.msisdn, r.status])).toEqual([
				['353875550101', 'accepted'],
				['353875550102', 'accepted'],
				['353875550103', 'not sent'],
			]);
		},
	);

	suite.it(
		'a 201 with an empty body is unconfirmed and an error item; a 429 with Retry-After: 1 is repeated once',
		async (env) => {
			const workflow = await campaignWorkflow(
				env,
				'Odd answers',
				personalised(2),
				{
					text: '=Hello {{ $json.name }}',
					recipients: '={{ $json.phone }}',
					options: { messageType: 'transactional' },
				},
				{ onError: 'continueRegularOutput' },
			);
			env.sim.reset();
			env.sim.injectFault(CAMPAIGN, { kind: 'answer', status: 201, body: '' });
			env.sim.injectFault(CAMPAIGN, { kind: 'status', status: 429, retryAfter: 1 });
			const execution = await env.client.runAndWait(workflow.id, 'Manual Trigger');
			expect(execution.status).toBe('success');
			// The two campaigns go out side by side: whichever reaches the provider first gets the empty 201.
			const out = (nodeOutput(execution, 'Send') as Json[]).map((o) => o.details ?? o);
			const byStatus = Object.fromEntries(out.map((o) => [o.recipients[0].status, o]));
			expect(Object.keys(byStatus).sort()).toEqual(['accepted', 'unconfirmed']);
			expect(byStatus.unconfirmed.success).toBe(false);
			expect(byStatus.unconfirmed.warnings).toEqual([expect.stringMatching(/unconfirmed/)]);
			expect(byStatus.accepted.warnings).toEqual([
				expect.stringMatching(/HTTP 429.*repeated after waiting/),
			]);
			expect(env.sim.count('POST', CAMPAIGN)).toBe(3);
			expect(env.sim.campaigns).toHaveLength(2);
		},
	);
});
