import { randomUUID } from 'node:crypto';

import { fetch } from 'undici';

import { useE2eEnvironment } from './support/environment';
import { type HostileCase, hostilePayloads } from './support/hostile-payloads';
import { countExecutions, EVERY_STATUS } from './support/load-executions';
import { type Answer, sendConcurrently } from './support/load-http';
import { nodeOutput } from './support/n8n-client';
import { chain, phonovationTrigger } from './support/workflow-builder';

const EVENTS_TOKEN = `hostile-url-token-${randomUUID().slice(0, 8)}`;

/** Issue 7, "Hostile input": generated bad relays at both trigger workflows of one n8n. */
describe('hostile input to the Phonovation Trigger in n8n', () => {
	const suite = useE2eEnvironment();
	const workflowIds: string[] = [];
	let repliesUrl: URL;
	let cases: HostileCase[] = [];
	let answers: Answer[] = [];

	beforeAll(async () => {
		const env = suite.env();
		const replies = await env.importWorkflow(
			chain('Replies (hostile input)', [phonovationTrigger('On Reply', { events: ['inbound', 'optOut'] }, randomUUID())]),
		);
		const events = await env.importWorkflow(
			chain('Delivery events (hostile input)', [
				phonovationTrigger('On Event', { events: ['deliveryReceipt', 'processingResult'], options: { token: EVENTS_TOKEN } }, randomUUID()),
			]),
		);
		repliesUrl = new URL(await env.publish(replies, 'On Reply'));
		const eventsUrl = new URL(await env.publish(events, 'On Event'));
		workflowIds.push(replies.id, events.id);
		cases = hostilePayloads({
			repliesPath: repliesUrl.pathname,
			eventsPath: eventsUrl.pathname,
			eventsToken: EVENTS_TOKEN,
			relaySecret: env.sim.config.relaySecret,
			nowMs: env.sim.clock.now(),
		});
	}, 60_000);

	suite.it(
		'every one of at least 200 bad payloads is refused with the status its kind calls for',
		async (env) => {
			expect(cases.length).toBeGreaterThanOrEqual(200);
			expect([...new Set(cases.map((c) => c.category))].sort()).toEqual([
				'absurd timestamp',
				'bad signature',
				'duplicate keys',
				'invalid encoding',
				'missing fields',
				'oversized',
				'tampered',
				'truncated',
				'url token',
				'wrong content type',
				'wrong format',
				'wrong method',
				'wrong secret',
			]);

			const answered = new Map<HostileCase, Answer>();
			const together = cases.filter((c) => !c.sendAlone);
			(await sendConcurrently(repliesUrl.origin, together.map((c) => c.request), 8)).forEach((answer, i) =>
				answered.set(together[i], answer),
			);
			for (const c of cases.filter((c) => c.sendAlone)) {
				answered.set(c, (await sendConcurrently(repliesUrl.origin, [c.request], 1))[0]);
			}
			answers = cases.map((c) => answered.get(c)!);

			const wrong = cases
				.map((c, i) => ({ c, answer: answers[i] }))
				.filter(({ c, answer }) => answer.status !== c.expected)
				.map(({ c, answer }) => `${c.category} | ${c.name}: expected ${c.expected}, got ${answer.status} ${answer.body.slice(0, 120)}`);
			expect(wrong).toEqual([]);
			expect(answers.every((a) => a.status >= 400 && a.status < 500)).toBe(true);
			// The short reasons in the answers never echo the secret the signatures are checked with.
			expect(answers.filter((a) => a.body.includes(env.sim.config.relaySecret))).toEqual([]);
		},
		300_000,
	);

	suite.it('none of them started an execution; n8n stays healthy and still runs a genuine relay', async (env) => {
		expect(answers).toHaveLength(cases.length);
		// Refused webhooks never start executions; give any that would wrongly start a moment.
		await new Promise((resolve) => setTimeout(resolve, 2000));
		expect(await countExecutions(env.client, { status: EVERY_STATUS })).toBe(0);

		for (const probe of ['/healthz', '/healthz/readiness']) {
			expect((await fetch(`${env.n8n.url}${probe}`)).status).toBe(200);
		}
		const relay = await env.sim.sendInbound({ url: repliesUrl.toString(), from: '353871234567', content: 'YES after the storm' });
		expect(relay.status).toBe(200);
		const [execution] = await env.client.waitForExecutions(workflowIds[0], 1);
		expect(execution.status).toBe('success');
		expect(nodeOutput(execution, 'On Reply')).toEqual([
			expect.objectContaining({ event: 'inbound', from: '353871234567', text: 'YES after the storm', verified: true }),
		]);
		expect(await countExecutions(env.client, { status: EVERY_STATUS })).toBe(1);
	});
});
