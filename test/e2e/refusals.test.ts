import { randomUUID } from 'node:crypto';

import { DateTime } from 'luxon';
import { fetch } from 'undici';

import { simulatorCredentialData, type Fault } from '../simulator';
import { useE2eEnvironment, type CredentialRef, type E2eEnvironment } from './support/environment';
import { type Execution, nodeError, nodeOutput, type WorkflowJson } from './support/n8n-client';
import { pollUntil } from './support/poll';
import { chain, code, manualTrigger, phonovation, webhook } from './support/workflow-builder';

const CAMPAIGN = '/api/v2/Campaign';
const RETRY_ON_FAIL = { retryOnFail: true, maxTries: 3, waitBetweenTries: 0 };
const TRANSACTIONAL = { messageType: 'transactional' };
type Json = Record<string, any>;
type Node = WorkflowJson['nodes'][number];

const itemsCode = (items: unknown[]) =>
	`return ${JSON.stringify(items)}.map((json) => ({ json }));`;
/** Rows that each carry their own text: one campaign request per row. */
const personalised = (n: number) =>
	Array.from({ length: n }, (_, i) => ({ phone: `08712345${10 + i}`, text: `Hi person ${i}` }));
const sendNode = (parameters: Json, settings: Json = {}): Node => ({
	...phonovation('Send', {
		resource: 'campaign',
		operation: 'send',
		from: 'Phonovation',
		...parameters,
	}),
	...settings,
});
const PERSONALISED = { text: '={{ $json.text }}', recipients: '={{ $json.phone }}' };

/** A workflow: Manual Trigger → rows → the Phonovation node. */
async function campaignWorkflow(
	env: E2eEnvironment,
	name: string,
	items: unknown[],
	parameters: Json,
	settings: Json = {},
	credential?: CredentialRef,
) {
	return await env.importWorkflow(
		chain(name, [manualTrigger(), code('Rows', itemsCode(items)), sendNode(parameters, settings)]),
		credential,
	);
}

const texts = (env: E2eEnvironment) => env.sim.campaigns.map((c) => c.body.text as string).sort();
/** What n8n shows for the failed node (or the run) of an execution. */
const errorOf = (execution: Execution) =>
	nodeError(execution, 'Send') ?? execution.data.resultData.error;
/** Each item's recipients, from its report or from the report kept beside its error. */
const recipientsOf = (execution: Execution) =>
	(nodeOutput(execution, 'Send') as Json[]).flatMap(
		(o) => ((o.details ?? o).recipients ?? []) as Json[],
	);

/** A host name that never resolves (RFC 6761), as a mistyped Base URL would. */
const UNRESOLVABLE = 'https://phonovation-sim.invalid';

/** Credentials → edit → Save: the credential points at the simulator again, with these fields changed. */
async function editCredential(
	env: E2eEnvironment,
	credential: CredentialRef,
	overrides: Record<string, string> = {},
): Promise<void> {
	await env.client.call('PATCH', `/rest/credentials/${credential.id}`, {
		name: credential.name,
		type: credential.type,
		data: simulatorCredentialData(env.sim, overrides),
	});
}

/** The retry n8n runs for `POST /rest/executions/:id/retry` (the editor's Retry → "with original workflow"). */
async function retryExecution(
	env: E2eEnvironment,
	workflowId: string,
	failedId: string,
): Promise<Execution> {
	const before = new Set((await env.client.executions(workflowId)).map((e) => String(e.id)));
	await env.client.call('POST', `/rest/executions/${failedId}/retry`, { loadWorkflow: false });
	const id = await pollUntil(
		async () =>
			(await env.client.executions(workflowId))
				.map((e) => String(e.id))
				.find((e) => !before.has(e)),
		`the retry of execution ${failedId}`,
		30_000,
	);
	return await env.client.waitForExecution(id);
}

/**
 * A published workflow started by n8n's Webhook node (answering as soon as the request is in),
 * so its executions run in webhook mode and can be stopped and retried like production ones.
 */
async function webhookCampaignWorkflow(
	env: E2eEnvironment,
	name: string,
	items: unknown[],
	parameters: Json,
	settings: Json = {},
) {
	const path = `refusals-${randomUUID()}`;
	const trigger = webhook(path);
	const workflow = await env.importWorkflow(
		chain(name, [trigger, code('Rows', itemsCode(items)), sendNode(parameters)], settings),
	);
	const url = env.n8n.webhookUrl(path);
	await env.client.publishWorkflow(workflow.id);
	await env.client.waitForWebhook(url);
	return {
		workflow,
		/** Calls the webhook and returns the id of the execution it started. */
		start: async (): Promise<string> => {
			const before = new Set((await env.client.executions(workflow.id)).map((e) => String(e.id)));
			const response = await fetch(url, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: '{}',
			});
			await response.arrayBuffer();
			expect(response.status).toBe(200);
			return await pollUntil(
				async () =>
					(await env.client.executions(workflow.id))
						.map((e) => String(e.id))
						.find((e) => !before.has(e)),
				'the webhook-started execution',
				20_000,
			);
		},
		stop: async () => await env.client.unpublishWorkflow(workflow.id),
	};
}

/** What a retried execution showed the user, printed so the behaviour stays visible in the test log. */
function show(label: string, execution: Execution): void {
	const error = errorOf(execution);
	const summary = {
		status: execution.status,
		error: error?.message,
		description: error?.description,
		items: nodeOutput(execution, 'Send'),
	};
	process.stderr.write(`[e2e refusals] ${label}: ${JSON.stringify(summary, null, 2)}\n`);
}

/** Never bill twice, round 4: what only the provider's own refusal may repeat, in a real n8n. */
describe('refusals, suppression and time rules in n8n', () => {
	const suite = useE2eEnvironment();

	suite.it(
		'a 200 saying success:false after processing, with Retry On Fail: processed once, the run an error',
		async (env) => {
			const workflow = await campaignWorkflow(
				env,
				'success:false with HTTP 200',
				personalised(1),
				{ ...PERSONALISED, options: TRANSACTIONAL },
				RETRY_ON_FAIL,
			);
			env.sim.reset();
			const refusal = JSON.stringify({ success: false, message: 'Try again later', errors: [] });
			env.sim.injectFault(CAMPAIGN, {
				kind: 'answer',
				status: 200,
				body: refusal,
				contentType: 'application/json',
			});
			const execution = await env.client.runAndWait(workflow.id, 'Manual Trigger');
			expect(execution.status).toBe('error');
			expect(errorOf(execution)?.message).toMatch(
				/could not confirm the campaign: the provider answered success: false with HTTP 2xx \(Try again later\)/,
			);
			expect(env.sim.count('POST', CAMPAIGN)).toBe(1);
			expect(texts(env)).toEqual(['Hi person 0']);
		},
	);

	suite.it(
		"a proxy's HTML 503 after processing: Retry On Fail posts it once; continuing on error, its recipient is unconfirmed",
		async (env) => {
			const page = {
				kind: 'answer',
				status: 503,
				body: '<html>upstream connect error or disconnect/reset before headers</html>',
				contentType: 'text/html',
			} as Fault;
			// Stopping on error: Retry On Fail runs the node three times, and it is posted once.
			const stopping = await campaignWorkflow(
				env,
				'Proxy 503, Retry On Fail',
				personalised(1),
				{ ...PERSONALISED, options: TRANSACTIONAL },
				RETRY_ON_FAIL,
			);
			env.sim.reset();
			env.sim.injectFault(CAMPAIGN, page);
			const failed = await env.client.runAndWait(stopping.id, 'Manual Trigger');
			expect(failed.status).toBe('error');
			expect(errorOf(failed)?.message).toMatch(/HTTP 503/);
			expect(env.sim.count('POST', CAMPAIGN)).toBe(1);
			expect(texts(env)).toEqual(['Hi person 0']);

			// Continuing (regular output): two rows side by side, whichever goes second meets the page.
			const continuing = await campaignWorkflow(
				env,
				'Proxy 503, continue',
				personalised(2),
				{ ...PERSONALISED, options: TRANSACTIONAL },
				{
					...RETRY_ON_FAIL,
					onError: 'continueRegularOutput',
				},
			);
			env.sim.reset();
			env.sim.injectFault(CAMPAIGN, { kind: 'delay', ms: 0 });
			env.sim.injectFault(CAMPAIGN, page);
			const execution = await env.client.runAndWait(continuing.id, 'Manual Trigger');
			expect(execution.status).toBe('success');
			expect(env.sim.count('POST', CAMPAIGN)).toBe(2);
			expect(texts(env)).toEqual(['Hi person 0', 'Hi person 1']);
			const out = nodeOutput(execution, 'Send') as Json[];
			expect(out).toHaveLength(2);
			const failedItem = out.find((o) => o.error);
			expect(failedItem?.error).toMatch(/HTTP 503 to the campaign/);
			expect(failedItem?.details.recipients.map((r: Json) => r.status)).toEqual(['unconfirmed']);
			expect(
				recipientsOf(execution)
					.map((r) => r.status)
					.sort(),
			).toEqual(['accepted', 'unconfirmed']);
		},
	);

	suite.it(
		'a Base URL whose host name does not resolve: nothing processed, a clear error; corrected, a Retry sends once',
		async (env) => {
			const credential = await env.createCredential(
				`Phonovation (typo in Base URL) ${randomUUID()}`,
				{ baseUrl: UNRESOLVABLE },
			);
			const workflow = await campaignWorkflow(
				env,
				'Unresolvable Base URL',
				personalised(1),
				{ ...PERSONALISED, options: TRANSACTIONAL },
				{},
				credential,
			);
			env.sim.reset();
			const failed = await env.client.runAndWait(workflow.id, 'Manual Trigger');
			expect(failed.status).toBe('error');
			// The node reads the sender list from the Base URL first: the run stops there, naming the cause.
			expect(errorOf(failed)?.message).toMatch(
				/the host name could not be resolved.*nothing was sent/,
			);
			expect(env.sim.count('POST', CAMPAIGN)).toBe(0);
			expect(env.sim.campaigns).toHaveLength(0);

			// The user corrects the credential (Credentials → edit → Save) and retries the execution.
			await editCredential(env, credential);
			const retried = await retryExecution(env, workflow.id, failed.id);
			expect(retried.status).toBe('success');
			expect(env.sim.count('POST', CAMPAIGN)).toBe(1);
			expect(texts(env)).toEqual(['Hi person 0']);
			expect(recipientsOf(retried).map((r) => [r.msisdn, r.status])).toEqual([
				['353871234510', 'accepted'],
			]);
		},
	);

	suite.it(
		'a Retry that meets an unresolvable host name at the campaign request: nothing processed; corrected, the next Retry sends once',
		async (env) => {
			const credential = await env.createCredential(
				`Phonovation (Base URL edited) ${randomUUID()}`,
			);
			const workflow = await campaignWorkflow(
				env,
				'Unresolvable Base URL on a Retry',
				personalised(1),
				{ ...PERSONALISED, options: TRANSACTIONAL },
				{},
				credential,
			);
			env.sim.reset();
			// The first run reads the sender list; the provider then refuses the campaign (nothing processed).
			env.sim.injectFault(CAMPAIGN, { kind: 'status', status: 429, retryAfter: 600 });
			const refused = await env.client.runAndWait(workflow.id, 'Manual Trigger');
			expect(refused.status).toBe('error');
			expect(errorOf(refused)?.message).toMatch(/HTTP 429/);

			// Its Retry, after the Base URL was mistyped, goes with the sender list the first run read.
			await editCredential(env, credential, { baseUrl: UNRESOLVABLE });
			const unreachable = await retryExecution(env, workflow.id, refused.id);
			expect(unreachable.status).toBe('error');
			expect(nodeError(unreachable, 'Send')?.message).toMatch(
				/Could not reach Phonovation for the campaign: the host name could not be resolved/,
			);
			expect(nodeError(unreachable, 'Send')?.description ?? '').not.toMatch(
				/may have reached|not repeated automatically/,
			);
			expect(env.sim.campaigns).toHaveLength(0);

			await editCredential(env, credential);
			const sent = await retryExecution(env, workflow.id, unreachable.id);
			expect(sent.status).toBe('success');
			expect(env.sim.count('POST', CAMPAIGN)).toBe(2);
			expect(texts(env)).toEqual(['Hi person 0']);
			expect(recipientsOf(sent).map((r) => [r.msisdn, r.status])).toEqual([
				['353871234510', 'accepted'],
			]);
		},
	);

	for (const [country, exclude, recipient, other, texted] of [
		[
			'44 (a UK mobile whose 0 was dropped)',
			'7911123456',
			'+44 7911 123456',
			'+44 7911 123457',
			'447911123457',
		],
		[
			'33 (a French mobile written in pairs)',
			'6 12 34 56 78',
			'+33 6 12 34 56 78',
			'+33 6 12 34 56 79',
			'33612345679',
		],
	]) {
		const countryCode = country.split(' ')[0];
		suite.it(`Default Country Code ${country}: the excluded number is not texted`, async (env) => {
			const workflow = await campaignWorkflow(
				env,
				`Exclusions in +${countryCode}`,
				[{ phones: `${recipient}, ${other}` }],
				{
					text: 'Your order shipped',
					recipients: '={{ $json.phones }}',
					options: { ...TRANSACTIONAL, defaultCountryCode: countryCode, excludeNumbers: exclude },
				},
			);
			env.sim.reset();
			const execution = await env.client.runAndWait(workflow.id, 'Manual Trigger');
			expect(execution.status).toBe('success');
			expect(env.sim.campaigns.map((c) => c.body.recipientInfo)).toEqual([[{ msisdn: texted }]]);
			expect(recipientsOf(execution).map((r) => r.status)).toEqual(['excluded', 'accepted']);
		});
	}

	suite.it(
		'Exclude Numbers given CRM rows (an empty Phone, a spaced Mobile Phone Number): that number is not texted',
		async (env) => {
			const crm = code(
				'CRM',
				itemsCode([
					{ Name: 'Aoife', Phone: '', 'Mobile Phone Number': '087 100 0002' },
					{ Name: 'Brian', Phone: '', 'Mobile Phone Number': '087 100 0004' },
				]),
			);
			const send = sendNode({
				text: 'Your order shipped',
				recipients: '={{ $json.phones }}',
				options: { ...TRANSACTIONAL, excludeNumbers: "={{ $('CRM').all().map(i => i.json) }}" },
			});
			const rows = code('Rows', itemsCode([{ phones: '0871000001, 0871000002, 0871000003' }]));
			const workflow = await env.importWorkflow(
				chain('Exclusions from CRM rows', [manualTrigger(), crm, rows, send]),
			);
			env.sim.reset();
			const execution = await env.client.runAndWait(workflow.id, 'Manual Trigger');
			expect(execution.status).toBe('success');
			expect(env.sim.campaigns.map((c) => c.body.recipientInfo)).toEqual([
				[{ msisdn: '353871000001' }, { msisdn: '353871000003' }],
			]);
			expect(recipientsOf(execution).map((r) => [r.msisdn, r.status])).toEqual([
				['353871000001', 'accepted'],
				['353871000002', 'excluded'],
				['353871000003', 'accepted'],
			]);
		},
	);

	suite.it(
		'Quiet Hours 21:00-08:00 for Ireland, Japan and New York: no send time fits, an error before anything is posted',
		async (env) => {
			const send = sendNode({
				text: 'Hello',
				recipients: '0871234567, +81 90 1234 5678, +1 212 555 0100',
				options: { ...TRANSACTIONAL, quietHours: '21:00-08:00' },
			});
			const workflow = await env.importWorkflow(
				chain('Quiet hours around the world', [manualTrigger(), send], {
					timezone: 'America/New_York',
				}),
			);
			env.sim.reset();
			const execution = await env.client.runAndWait(workflow.id, 'Manual Trigger');
			expect(execution.status).toBe('error');
			expect(errorOf(execution)?.message).toMatch(
				/^Quiet Hours: 21:00-08:00 in the recipients' time zones \(Europe\/Dublin, Asia\/Tokyo, America\/New_York\) leave no time of day .* no send time can be found/,
			);
			expect(env.sim.count('POST', CAMPAIGN)).toBe(0);
		},
	);

	suite.it(
		'nine rows, the ninth waiting for a slot into Quiet Hours: eight go at once, the ninth is scheduled for their end',
		async (env) => {
			// Everything happens within one minute: start just after a minute turns.
			if (DateTime.utc().second >= 50) await new Promise((resolve) => setTimeout(resolve, 11_000));
			const start = DateTime.utc().plus({ minutes: 1 }).startOf('minute');
			const end = start.plus({ hours: 2 });
			const wire = (at: DateTime) => at.toFormat("yyyy-MM-dd'T'HH:mm'Z'");
			const workflow = await campaignWorkflow(
				env,
				'Quiet Hours begin while waiting',
				personalised(9),
				{
					...PERSONALISED,
					options: {
						...TRANSACTIONAL,
						quietHours: `${start.toFormat('HH:mm')}-${end.toFormat('HH:mm')}`,
						quietHoursTimeZone: 'UTC',
					},
				},
			);
			env.sim.reset();
			// The pacer starts with 8 in flight; the provider holds those 8 until Quiet Hours have begun.
			env.sim.injectFault(CAMPAIGN, { kind: 'delay', ms: start.toMillis() - Date.now() + 500 }, 8);
			const execution = await env.client.runAndWait(workflow.id, 'Manual Trigger', 80_000);
			expect(execution.status).toBe('success');
			const sendAts = env.sim.campaigns.map((c) => c.body.sendAt ?? null);
			expect(sendAts).toHaveLength(9);
			expect(sendAts.filter((s) => s === null)).toHaveLength(8);
			expect(sendAts.filter((s) => s === wire(end))).toEqual([wire(end)]);
			// None was posted inside Quiet Hours to go at once.
			const insideUnscheduled = env.sim.campaignExchanges.filter(
				(x) => x.arrivedAt >= start.toMillis() && !x.body?.sendAt,
			);
			expect(insideUnscheduled).toEqual([]);
			expect(recipientsOf(execution).map((r) => r.status)).toEqual(Array(9).fill('accepted'));
		},
		90_000,
	);

	suite.it(
		'provider errors as objects in an accepted answer: the run succeeds, the named number is rejected by the provider',
		async (env) => {
			const workflow = await campaignWorkflow(env, 'Errors as objects', [{}], {
				text: 'Sale',
				recipients: '0871234510, 0871234511',
				options: TRANSACTIONAL,
			});
			env.sim.reset();
			const answer = JSON.stringify({
				success: true,
				message: 'queued',
				errors: [{ msisdn: '353871234511', error: 'Blacklisted' }],
			});
			env.sim.injectFault(CAMPAIGN, {
				kind: 'answer',
				status: 200,
				body: answer,
				contentType: 'application/json',
			});
			const execution = await env.client.runAndWait(workflow.id, 'Manual Trigger');
			expect(execution.status).toBe('success');
			expect(JSON.stringify(execution.data.resultData)).not.toMatch(/TypeError/);
			expect(recipientsOf(execution).map((r) => [r.msisdn, r.status])).toEqual([
				['353871234510', 'accepted'],
				['353871234511', 'rejected by provider'],
			]);
			expect(JSON.stringify(nodeOutput(execution, 'Send'))).toContain('Blacklisted');
			expect(env.sim.count('POST', CAMPAIGN)).toBe(1);
		},
	);

	suite.it(
		'Continue On Fail with Parallel Requests 5000: every input item comes out as an error item, nothing is posted',
		async (env) => {
			const workflow = await campaignWorkflow(
				env,
				'Parallel Requests out of range',
				personalised(3),
				{ ...PERSONALISED, options: { ...TRANSACTIONAL, parallelRequests: 5000 } },
				{ onError: 'continueRegularOutput' },
			);
			env.sim.reset();
			const execution = await env.client.runAndWait(workflow.id, 'Manual Trigger');
			expect(execution.status).toBe('success');
			const out = nodeOutput(execution, 'Send') as Json[];
			expect(out).toHaveLength(3);
			for (const item of out) {
				expect(item.error).toMatch(/Parallel Requests/);
				// Not the input row passed through as if it had been sent.
				expect(item.phone).toBeUndefined();
				expect(item.text).toBeUndefined();
			}
			expect(env.sim.count('POST', CAMPAIGN)).toBe(0);
		},
	);

	suite.it(
		'stopped while three campaigns are in flight, then retried: nothing is posted again, the retry says why',
		async (env) => {
			const flow = await webhookCampaignWorkflow(env, 'Stopped mid-campaign', personalised(3), {
				...PERSONALISED,
				options: TRANSACTIONAL,
			});
			try {
				env.sim.reset();
				env.sim.injectFault(CAMPAIGN, { kind: 'delay', ms: 5000 }, 3);
				const id = await flow.start();
				await pollUntil(
					() => (env.sim.campaignExchanges.length === 3 ? true : undefined),
					'three campaign requests at the provider',
					20_000,
					50,
				);
				await env.client.call('POST', `/rest/executions/${id}/stop`);
				const stopped = await env.client.waitForExecution(id);
				expect(stopped.status).toBe('canceled');
				// The provider still processes what reached it.
				await pollUntil(
					() => (env.sim.campaigns.length === 3 ? true : undefined),
					'the provider processing the held requests',
					15_000,
				);
				expect(env.sim.count('POST', CAMPAIGN)).toBe(3);

				const retried = await retryExecution(env, flow.workflow.id, id);
				show('Retry of the stopped execution', retried);
				expect(env.sim.count('POST', CAMPAIGN)).toBe(3);
				expect(texts(env)).toEqual(['Hi person 0', 'Hi person 1', 'Hi person 2']);
				expect(retried.status).toBe('error');
				// The node's own error (n8n also keeps the stopped run's "cancelled manually" as the run's error).
				expect(nodeError(retried, 'Send')?.message).toMatch(
					/^Nothing was sent: this is a Retry of an execution, and this node has no record of this run/,
				);
			} finally {
				await flow.stop();
			}
		},
		90_000,
	);

	suite.it(
		'a Workflow Timeout while three campaigns are in flight, then retried: nothing is posted again',
		async (env) => {
			const flow = await webhookCampaignWorkflow(
				env,
				'Timed out mid-campaign',
				personalised(3),
				{ ...PERSONALISED, options: TRANSACTIONAL },
				{ executionTimeout: 3 },
			);
			try {
				env.sim.reset();
				env.sim.injectFault(CAMPAIGN, { kind: 'delay', ms: 6000 }, 3);
				const id = await flow.start();
				const timedOut = await env.client.waitForExecution(id, 30_000);
				show('The timed-out execution', timedOut);
				expect(['canceled', 'error']).toContain(timedOut.status);
				expect(env.sim.campaignExchanges).toHaveLength(3);
				await pollUntil(
					() => (env.sim.campaigns.length === 3 ? true : undefined),
					'the provider processing the held requests',
					15_000,
				);
				expect(env.sim.count('POST', CAMPAIGN)).toBe(3);

				const retried = await retryExecution(env, flow.workflow.id, id);
				show('Retry of the timed-out execution', retried);
				expect(env.sim.count('POST', CAMPAIGN)).toBe(3);
				expect(texts(env)).toEqual(['Hi person 0', 'Hi person 1', 'Hi person 2']);
				expect(retried.status).toBe('error');
				// Either the node's record survived (its requests are reported unconfirmed) or it did not (the guard refuses).
				expect(nodeError(retried, 'Send')?.message).toMatch(
					/could not confirm the campaign|^Nothing was sent: this is a Retry of an execution/,
				);
			} finally {
				await flow.stop();
			}
		},
		90_000,
	);
});
