import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject } from 'n8n-workflow';

import { QUESTION_LOG, QuestionLog } from '../../../../harness/question-log';
import { referenceOf } from '../../../../harness/waiting-runs';
import { sharedFixture } from '../../fixture';

/**
 * Deliver Reply and Deliver Receipt against rows a Question Log should never hold (forged or
 * broken resume URLs) and answers whose outcome is unknown (a redirect, a proxy's 5xx, a dropped
 * connection). Two servers count every request: this n8n, and another host a redirect points at.
 */

const PHONE = '353871234567';
const SIGNATURE = 'ab'.repeat(32);
const RESUMED = { status: 200, body: { resumed: true, answer: 'yes' } };
const FINISHED = { status: 200, body: '<html><title>No action required</title></html>' };
const BAD_GATEWAY = { status: 502, body: '<html>502 Bad Gateway</html>' };

/** What a server answers to a path: status, body, headers; or `reset` to drop the connection. */
type Answer = { status: number; body: unknown; headers?: Record<string, string> } | 'reset';

interface Recorded {
	path: string;
	body: IDataObject;
}

/** A local HTTP server that records every request and answers each path from its script. */
function countingServer(fallback: (path: string) => Answer) {
	const requests: Recorded[] = [];
	const scripts = new Map<string, Answer[]>();
	const answer = (req: IncomingMessage, res: ServerResponse, raw: string) => {
		const path = (req.url ?? '').split('?')[0];
		requests.push({ path, body: JSON.parse(raw || '{}') as IDataObject });
		const script = scripts.get(path) ?? [];
		const next = (script.length > 1 ? script.shift() : script[0]) ?? fallback(path);
		if (next === 'reset') {
			req.socket.destroy();
			return;
		}
		const json = typeof next.body !== 'string';
		res
			.writeHead(next.status, {
				'content-type': json ? 'application/json' : 'text/html',
				...next.headers,
			})
			.end(json ? JSON.stringify(next.body) : next.body);
	};
	const server: Server = createServer((req, res) => {
		let raw = '';
		req.on('data', (chunk) => (raw += chunk));
		req.on('end', () => answer(req, res, raw));
	});
	return {
		server,
		requests,
		scripts,
		origin: () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
	};
}

const listen = async (server: Server) =>
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

/** A port nobody listens on. */
async function closedPort(): Promise<number> {
	const server = createServer();
	await listen(server);
	const { port } = server.address() as AddressInfo;
	await new Promise((resolve) => server.close(resolve));
	return port;
}

const replyItem = (notifyId: string | null): IDataObject => ({
	event: 'inbound',
	verified: true,
	from: PHONE,
	text: 'YES',
	unverified: { receivedAt: new Date().toISOString(), notifyId },
});

const receiptItem = (notifyId: string): IDataObject => ({
	event: 'deliveryReceipt',
	notifyId,
	delivered: true,
	verified: true,
	unverified: { to: PHONE, totalToSend: 1, totalSent: 1, totalFailed: 0 },
});

describe('Deliver Reply and Deliver Receipt: no Question Log row chooses where a post goes', () => {
	const fixture = sharedFixture();
	// Another host: it accepts anything, as an attacker's would.
	const elsewhere = countingServer(() => RESUMED);
	// This n8n: its waiting webhooks answer from scripts; any other path (a production webhook)
	// redirects to the other host, as a workflow's Respond to Webhook could.
	const n8n = countingServer((path) =>
		path.startsWith('/webhook-waiting/')
			? { status: 404, body: { message: 'not found' } }
			: { status: 307, body: '', headers: { location: `${elsewhere.origin()}${path}` } },
	);
	let log: QuestionLog;
	beforeAll(async () => {
		await Promise.all([listen(n8n.server), listen(elsewhere.server)]);
		fixture().engine.instanceBaseUrl = n8n.origin();
		log = new QuestionLog(fixture().engine);
	});
	afterAll(() => {
		n8n.server.close();
		elsewhere.server.close();
	});
	beforeEach(() => {
		log.clear();
		n8n.requests.length = 0;
		n8n.scripts.clear();
		elsewhere.requests.length = 0;
		fixture().engine.instanceBaseUrl = n8n.origin();
	});

	const resumeUrl = (executionId: string, origin = n8n.origin()) =>
		`${origin}/webhook-waiting/${executionId}/ask-node?signature=${SIGNATURE}`;

	/** A row in the log, for execution `executionId` (its reference names it), asked `minutesAgo`. */
	function row(executionId: string, minutesAgo: number, extra: IDataObject = {}) {
		const reference = referenceOf(executionId, PHONE, fixture().sim.config.relaySecret);
		const stored = {
			reference,
			phone: PHONE,
			resumeUrl: resumeUrl(executionId),
			askedAt: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
			expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
			...extra,
		};
		// Keyed apart from its reference: a log may hold two rows for one reference.
		log.rows.set(`${reference}|${log.rows.size}`, stored);
		return reference;
	}

	const script = (executionId: string, answers: Answer[]) =>
		n8n.scripts.set(`/webhook-waiting/${executionId}/ask-node`, answers);

	const deliver = async (operation: 'deliverReply' | 'deliverReceipt', item: IDataObject) =>
		await fixture().run({ resource: 'conversation', operation, questionLog: QUESTION_LOG }, [
			{ json: item },
		]);

	const paths = (server: { requests: Recorded[] }) => server.requests.map((r) => r.path);

	describe('rows that are not exactly a waiting node of this n8n', () => {
		it('a dot-segment row to a production webhook: no request reaches any server, the row is reported', async () => {
			const forged = row('41', 5, {
				resumeUrl: `${n8n.origin()}/webhook-waiting/../webhook/41/steal?signature=${SIGNATURE}`,
			});
			const result = await deliver('deliverReply', replyItem(forged));
			expect(n8n.requests).toHaveLength(0);
			expect(elsewhere.requests).toHaveLength(0);
			expect(result.items[0].json).toMatchObject({
				resumed: false,
				reason: 'no question to this number is waiting',
				unusableRows: [{ reference: forged, reason: 'a dot-segment (. or ..) in the path' }],
			});
		});

		it('an encoded dot-segment row is refused the same way', async () => {
			const forged = row('41', 5, {
				resumeUrl: `${n8n.origin()}/webhook-waiting/%2e%2e/webhook/41/steal?signature=${SIGNATURE}`,
			});
			const result = await deliver('deliverReply', replyItem(forged));
			expect(n8n.requests.length + elsewhere.requests.length).toBe(0);
			expect(result.items[0].json).toMatchObject({
				resumed: false,
				unusableRows: [{ reference: forged }],
			});
		});

		it('a forged row copying a linked question does not hide the genuine one', async () => {
			const genuine = row('41', 5);
			row('41', 5, {
				resumeUrl: `${n8n.origin()}/webhook-waiting/../webhook/41/steal?signature=${SIGNATURE}`,
			});
			script('41', [RESUMED]);
			const result = await deliver('deliverReply', replyItem(genuine));
			expect(paths(n8n)).toEqual(['/webhook-waiting/41/ask-node']);
			expect(elsewhere.requests).toHaveLength(0);
			expect(result.items[0].json).toMatchObject({
				resumed: true,
				question: { reference: genuine, executionId: '41' },
				unusableRows: [{ reference: genuine }],
			});
		});

		it('a row on another host gets nothing', async () => {
			const offHost = row('41', 5, { resumeUrl: resumeUrl('41', elsewhere.origin()) });
			const result = await deliver('deliverReply', replyItem(offHost));
			expect(n8n.requests.length + elsewhere.requests.length).toBe(0);
			expect(result.items[0].json).toMatchObject({
				resumed: false,
				unusableRows: [{ reference: offHost, reason: expect.stringMatching(/^not this n8n/) }],
			});
		});

		it('a row whose URL names another execution than its reference is not used', async () => {
			const swapped = row('41', 5, { resumeUrl: resumeUrl('42') });
			script('42', [RESUMED]);
			const result = await deliver('deliverReply', replyItem(swapped));
			expect(n8n.requests).toHaveLength(0);
			expect(result.items[0].json).toMatchObject({
				resumed: false,
				unusableRows: [
					{
						reference: swapped,
						reason:
							"the URL's execution 42 is not the reference's, and no valid retry binding says why",
					},
				],
			});
		});

		it('Deliver Receipt: a forged row tried first is skipped, the genuine row gets the receipt', async () => {
			const reference = row('41', 0, {
				waitsFor: 'receipt',
				resumeUrl: `${n8n.origin()}/webhook-waiting/../webhook/41/steal?signature=${SIGNATURE}`,
			});
			row('41', 0, { waitsFor: 'receipt' });
			script('41', [{ status: 200, body: { resumed: true, answer: 'delivered' } }]);
			const result = await deliver('deliverReceipt', receiptItem(reference));
			expect(paths(n8n)).toEqual(['/webhook-waiting/41/ask-node']);
			expect(elsewhere.requests).toHaveLength(0);
			expect(result.items[0].json).toMatchObject({
				resumed: true,
				delivery: 'delivered',
				unusableRows: [{ reference, reason: 'a dot-segment (. or ..) in the path' }],
			});
		});
	});

	describe('answers whose outcome is unknown', () => {
		it('a resume URL answering 307 to another host: the other host gets nothing, the older question neither', async () => {
			row('41', 30);
			const newer = row('42', 10);
			script('41', [RESUMED]);
			script('42', [
				{ status: 307, body: '', headers: { location: `${elsewhere.origin()}/collect` } },
			]);
			const result = await deliver('deliverReply', replyItem(null));
			expect(elsewhere.requests).toHaveLength(0);
			expect(paths(n8n)).toEqual(['/webhook-waiting/42/ask-node']);
			expect(result.items[0].json).toMatchObject({
				resumed: false,
				unconfirmed: true,
				reason: expect.stringMatching(/307/),
				question: { reference: newer, executionId: '42' },
			});
		});

		it('a 502 from the first candidate: tried again, never offered to the older question, unconfirmed', async () => {
			row('41', 30);
			row('42', 10);
			script('41', [RESUMED]);
			script('42', [BAD_GATEWAY]);
			const result = await deliver('deliverReply', replyItem(null));
			expect(paths(n8n)).toEqual(Array(3).fill('/webhook-waiting/42/ask-node'));
			expect(result.items[0].json).toMatchObject({
				resumed: false,
				unconfirmed: true,
				reason: expect.stringMatching(/it may have taken it$/),
				question: { executionId: '42' },
			});
		}, 20_000);

		it('a run that resumed behind a 502 (then "no action required") keeps the reply from the older question', async () => {
			const linked = row('42', 10);
			row('41', 30);
			script('41', [RESUMED]);
			script('42', [BAD_GATEWAY, FINISHED]);
			const result = await deliver('deliverReply', replyItem(linked));
			expect(paths(n8n)).toEqual(Array(2).fill('/webhook-waiting/42/ask-node'));
			expect(result.items[0].json).toMatchObject({
				resumed: false,
				unconfirmed: true,
				question: { executionId: '42' },
			});
		}, 20_000);

		it('a connection dropped after the request was sent is unconfirmed, not an error', async () => {
			row('41', 30);
			row('42', 10);
			script('41', [RESUMED]);
			script('42', ['reset']);
			const result = await deliver('deliverReply', replyItem(null));
			expect(result.error).toBeUndefined();
			expect(paths(n8n)).toEqual(Array(3).fill('/webhook-waiting/42/ask-node'));
			expect(result.items[0].json).toMatchObject({ resumed: false, unconfirmed: true });
		}, 20_000);

		it("a 200 that is not the waiting node's answer is unconfirmed, and not tried again", async () => {
			row('41', 30);
			row('42', 10);
			script('41', [RESUMED]);
			script('42', [{ status: 200, body: { ok: true } }]);
			const result = await deliver('deliverReply', replyItem(null));
			expect(paths(n8n)).toEqual(['/webhook-waiting/42/ask-node']);
			expect(result.items[0].json).toMatchObject({ resumed: false, unconfirmed: true });
		});

		it('Deliver Receipt: a 502 on the first row stops there', async () => {
			const reference = row('41', 0, { waitsFor: 'receipt' });
			row('41', 0, {
				waitsFor: 'receipt',
				resumeUrl: resumeUrl('41').replace('ask-node', 'other'),
			});
			script('41', [BAD_GATEWAY]);
			n8n.scripts.set('/webhook-waiting/41/other', [{ status: 200, body: { resumed: true } }]);
			const result = await deliver('deliverReceipt', receiptItem(reference));
			expect(new Set(paths(n8n))).toEqual(new Set(['/webhook-waiting/41/ask-node']));
			expect(n8n.requests).toHaveLength(5);
			expect(result.items[0].json).toMatchObject({
				resumed: false,
				unconfirmed: true,
				text: { reference, executionId: '41' },
			});
		}, 30_000);

		it('a connection refused (nothing sent) is still an error, so Retry On Fail can deliver it later', async () => {
			fixture().engine.instanceBaseUrl = `http://127.0.0.1:${await closedPort()}`;
			const reference = row('41', 5, {
				resumeUrl: resumeUrl('41', fixture().engine.instanceBaseUrl),
			});
			const result = await deliver('deliverReply', replyItem(reference));
			// n8n words a refused connection its own way, and keeps ours among its messages.
			expect((result.error as { messages?: string[] } | undefined)?.messages).toEqual([
				expect.stringMatching(/^The asking run could not take the reply: connect ECONNREFUSED/),
			]);
			expect(result.error?.description).toMatch(/nothing was delivered/);
		}, 20_000);
	});
});
