import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { questionRef } from '../../nodes/Phonovation/resources/conversation/proof/questionRef';

const SIGNATURE = 'ab'.repeat(32);
/** The node the played runs wait at. */
const WAITING_NODE = 'ask-node';

/**
 * The reference a genuine Question Log row holds: the one the node at `nodeId` made for its first
 * question to `phone` in `executionId`, under the Relay Secret.
 */
export const referenceOf = (
	executionId: string,
	phone: string,
	secret: string,
	nodeId = WAITING_NODE,
): string => questionRef({ executionId, nodeId, msisdn: phone, ask: 0 }, secret)!;

/** A waiting run's answer to a delivery: status and body (our node's JSON, or n8n's HTML page). */
export type Answer = { status: number; body: unknown };
/** n8n's waiting-webhook endpoint, played: each execution answers from its script, in turn. */
export function waitingRuns() {
	const scripts = new Map<string, Answer[]>();
	const posts: Array<{ executionId: string; body: Record<string, unknown> }> = [];
	const server: Server = createServer((req, res) => {
		let raw = '';
		req.on('data', (chunk) => (raw += chunk));
		req.on('end', () => {
			const executionId = (req.url ?? '').split('/')[2];
			posts.push({ executionId, body: JSON.parse(raw || '{}') });
			const script = scripts.get(executionId) ?? [];
			const answer = (script.length > 1 ? script.shift() : script[0]) ?? {
				status: 404,
				body: { message: 'not found' },
			};
			const json = typeof answer.body !== 'string';
			res
				.writeHead(answer.status, { 'content-type': json ? 'application/json' : 'text/html' })
				.end(json ? JSON.stringify(answer.body) : answer.body);
		});
	});
	return {
		server,
		posts,
		scripts,
		url: (executionId: string) =>
			`http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook-waiting/${executionId}/${WAITING_NODE}?signature=${SIGNATURE}`,
	};
}

/**
 * Played waiting runs as this n8n's waiting webhooks for an engine's tests (its instance URL
 * points at them while the suite runs), cleared before each test.
 */
export function useWaitingRuns(engine: () => { instanceBaseUrl: string }) {
	const runs = waitingRuns();
	beforeAll(async () => {
		await new Promise<void>((resolve) => runs.server.listen(0, '127.0.0.1', resolve));
		const { port } = runs.server.address() as AddressInfo;
		engine().instanceBaseUrl = `http://127.0.0.1:${port}`;
	});
	afterAll(() => {
		engine().instanceBaseUrl = 'http://127.0.0.1:5678';
		runs.server.close();
	});
	beforeEach(() => {
		runs.posts.length = 0;
		runs.scripts.clear();
	});
	return runs;
}

/**
 * A question (or, with `row.waitsFor`, a text) waiting in execution `executionId` as the Question
 * Log holds it, its run played to answer with `answers`: its reference. Asked now and open for an
 * hour unless `row` says otherwise.
 */
export function waitingQuestion(
	log: { rows: Map<string, Record<string, unknown>> },
	runs: Pick<ReturnType<typeof waitingRuns>, 'scripts' | 'url'>,
	question: {
		executionId: string;
		phone: string;
		secret: string;
		answers: Answer[];
		row?: Record<string, unknown>;
	},
): string {
	const { executionId, phone, secret, answers, row = {} } = question;
	const reference = referenceOf(executionId, phone, secret);
	log.rows.set(reference, {
		reference,
		phone,
		resumeUrl: runs.url(executionId),
		askedAt: new Date().toISOString(),
		expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
		...row,
	});
	runs.scripts.set(executionId, answers);
	return reference;
}
