import { randomUUID } from 'node:crypto';

import { fetch } from 'undici';

import { useE2eEnvironment } from './support/environment';
import { type HostileCase, hostilePayloads, MARKUP, N8N_ANSWERS } from './support/hostile-payloads';
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
	let eventsUrl: URL;
	let cases: HostileCase[] = [];
	let answers: Answer[] = [];

	beforeAll(async () => {
		const env = suite.env();
		const replies = await env.importWorkflow(
			chain('Replies (hostile input)', [
				phonovationTrigger('On Reply', { events: ['inbound', 'optOut'] }, randomUUID()),
			]),
		);
		// The URL token lives in the events trigger's credential; the replies trigger's has none.
		const withToken = await env.createCredential('Phonovation (with URL token)', {
			urlToken: EVENTS_TOKEN,
		});
		const events = await env.importWorkflow(
			chain('Delivery events (hostile input)', [
				phonovationTrigger(
					'On Event',
					{ events: ['deliveryReceipt', 'processingResult'] },
					randomUUID(),
				),
			]),
			withToken,
		);
		repliesUrl = new URL(await env.publish(replies, 'On Reply'));
		eventsUrl = new URL(await env.publish(events, 'On Event'));
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
				'markup',
				'missing fields',
				'oversized',
				'prototype keys',
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
			(
				await sendConcurrently(
					repliesUrl.origin,
					together.map((c) => c.request),
					8,
				)
			).forEach((answer, i) => answered.set(together[i], answer));
			for (const c of cases.filter((c) => c.sendAlone)) {
				answered.set(c, (await sendConcurrently(repliesUrl.origin, [c.request], 1))[0]);
			}
			answers = cases.map((c) => answered.get(c)!);

			const wrong = cases
				.map((c, i) => ({ c, answer: answers[i] }))
				.filter(({ c, answer }) => answer.status !== c.expected)
				.map(
					({ c, answer }) =>
						`${c.category} | ${c.name}: expected ${c.expected}, got ${answer.status} ${answer.body.slice(0, 120)}`,
				);
			expect(wrong).toEqual([]);
			expect(answers.every((a) => a.status >= 400 && a.status < 500)).toBe(true);
			// The answers never echo the secret the signatures are checked with.
			expect(answers.filter((a) => a.body.includes(env.sim.config.relaySecret))).toEqual([]);
		},
		300_000,
	);

	suite.it(
		'every refusal of the trigger is a fixed plain text with nosniff; none is HTML or echoes input',
		async () => {
			const texts: Record<number, string> = {
				400: 'Bad request',
				401: 'Unauthorized',
				413: 'Payload too large',
			};
			const n8nOwn = new Set<number>(Object.values(N8N_ANSWERS));
			const fromTrigger = cases
				.map((c, i) => ({ c, answer: answers[i] }))
				.filter(({ answer }) => !n8nOwn.has(answer.status));
			expect(fromTrigger.length).toBeGreaterThan(300);
			const unlike = fromTrigger
				.filter(
					({ answer }) =>
						answer.body !== texts[answer.status] ||
						answer.contentType !== 'text/plain; charset=utf-8' ||
						answer.nosniff !== 'nosniff',
				)
				.map(
					({ c, answer }) =>
						`${c.name}: ${answer.status} ${answer.contentType} ${answer.nosniff} ${answer.body.slice(0, 80)}`,
				);
			expect(unlike).toEqual([]);
			// n8n's own answers (unparseable body, method not served) are JSON, and carry none of the markup.
			const own = answers.filter((a) => n8nOwn.has(a.status));
			expect(own.length).toBeGreaterThan(0);
			expect(own.filter((a) => !a.contentType?.startsWith('application/json'))).toEqual([]);
			expect(
				answers.filter((a) => MARKUP.some((m) => a.body.includes(m)) || /<\w/.test(a.body)),
			).toEqual([]);
		},
	);

	suite.it(
		'none of them started an execution; n8n stays healthy and still runs a genuine relay',
		async (env) => {
			expect(answers).toHaveLength(cases.length);
			for (const probe of ['/healthz', '/healthz/readiness']) {
				expect((await fetch(`${env.n8n.url}${probe}`)).status).toBe(200);
			}
			// A genuine relay after all the bad ones: once its execution is stored, any execution a bad
			// one had wrongly started (they all came first) would be stored as well.
			const relay = await env.sim.sendInbound({
				url: repliesUrl.toString(),
				from: '353871234567',
				content: 'YES after the storm',
			});
			expect(relay.status).toBe(200);
			const [execution] = await env.client.waitForExecutions(workflowIds[0], 1);
			expect(execution.status).toBe('success');
			expect(nodeOutput(execution, 'On Reply')).toEqual([
				expect.objectContaining({
					event: 'inbound',
					from: '353871234567',
					text: 'YES after the storm',
					verified: true,
				}),
			]);
			expect(await countExecutions(env.client, { status: EVERY_STATUS })).toBe(1);
		},
	);

	suite.it(
		'8 bodies of one repeated name (64 KiB each) at once, and 64 KiB of punctuation as text: each refused 4xx, nothing started',
		async (env) => {
			const form = { 'content-type': 'application/x-www-form-urlencoded' };
			const flood = Array.from({ length: 32_767 }, () => 'a').join('&');
			expect(Buffer.byteLength(flood)).toBeLessThanOrEqual(64 * 1024);
			const punctuation = (marks: number) =>
				`SMS-From=353871234567&SMS-Verify=${'0'.repeat(32)}&SMS-Content=${'!'.repeat(marks)}a`;
			const withinLimit = punctuation(64 * 1024 - 80);
			const requests = [
				...Array.from({ length: 8 }, () => ({
					path: repliesUrl.pathname,
					headers: form,
					body: flood,
				})),
				{ path: repliesUrl.pathname, headers: form, body: withinLimit },
				{ path: repliesUrl.pathname, headers: form, body: punctuation(64 * 1024) },
			];
			const answers = await sendConcurrently(repliesUrl.origin, requests, requests.length);
			expect(answers.map((a) => a.status)).toEqual([...Array<number>(8).fill(400), 401, 413]);
			expect((await fetch(`${env.n8n.url}/healthz`)).status).toBe(200);
			expect(await countExecutions(env.client, { status: EVERY_STATUS })).toBe(1);
		},
	);

	suite.it(
		'an empty-NotifyId receipt is refused by default: its signature is one value for the whole account',
		async (env) => {
			const receipt = await env.sim.sendReceipt({ url: eventsUrl.toString(), notifyId: '' });
			expect(receipt.status).toBe(401);
			expect(receipt.body).toBe('Unauthorized');
			expect(await countExecutions(env.client, { status: EVERY_STATUS })).toBe(1);
		},
	);

	suite.it(
		'a genuine signed reply re-sent with SMS-To=50123 and SMS-Keyphrase=CANCEL is no opt-out; twice gives one relayKey',
		async (env) => {
			const genuine = {
				url: repliesUrl.toString(),
				from: '353871234568',
				content: 'Yes please',
				keyphrase: 'YES',
			};
			expect((await env.sim.sendInbound(genuine)).status).toBe(200);
			const steered = await env.sim.sendInbound({
				...genuine,
				to: '50123',
				keyphrase: 'CANCEL',
				notifyId: 'someone-else-7',
			});
			expect(steered.status).toBe(200);
			const executions = await env.client.waitForExecutions(workflowIds[0], 3);
			const [first, second] = executions.slice(1).map((e) => nodeOutput(e, 'On Reply')[0]);
			expect(first).toMatchObject({
				event: 'inbound',
				text: 'Yes please',
				keyword: 'YES',
				verified: true,
			});
			expect(second).toMatchObject({
				event: 'inbound',
				keyword: 'YES',
				hint: expect.stringContaining('not treated as an opt-out'),
				unverified: expect.objectContaining({
					to: '50123',
					keyphrase: 'CANCEL',
					notifyId: 'someone-else-7',
				}),
			});
			expect(second).not.toHaveProperty('optOutKeyword');
			expect(second.relayKey).toEqual(first.relayKey);
			expect(first.relayKey).toMatch(/^[0-9a-f]{32}$/);
		},
	);
});
