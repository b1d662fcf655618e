import {
	readResumeUrl,
	type ResumeUrlReading,
} from '../../../../../../nodes/Phonovation/resources/conversation/proof/resumeUrl';
import { sealToken } from '../../../../../../nodes/Phonovation/resources/conversation/proof/sealedResumeToken';
import { recordedResumeUrl } from '../../../../../../nodes/Phonovation/resources/conversation/proof/retryBinding';
import { questionRef } from '../../../../../../nodes/Phonovation/resources/conversation/proof/questionRef';

const BASE = 'https://n8n.example.com/base/webhook-waiting/';
const SIGNATURE = 'ab'.repeat(32);
const SECRET = 'relay-secret';
const PHONE = '353871234567';
const REFERENCE = questionRef(
	{ executionId: '4211', nodeId: 'node-1', msisdn: PHONE, ask: 0 },
	SECRET,
)!;
const GOOD = `${BASE}4211/node-1?signature=${SIGNATURE}`;

/** The rule on a row of the asked number with this URL and reference. */
const readResumeUrlOf = (resumeUrl: string, base = BASE, reference = REFERENCE, secret = SECRET) =>
	readResumeUrl({ reference, phone: PHONE, resumeUrl }, base, secret);

const unusable = (reading: ResumeUrlReading) => ('unusable' in reading ? reading.unusable : null);

describe('the resume URL rule: a Question Log row chooses no address', () => {
	it("reads this n8n's node URL, and rebuilds the address from the base and the parts", () => {
		expect(readResumeUrlOf(GOOD, BASE, REFERENCE)).toEqual({
			target: { executionId: '4211', nodeId: 'node-1', url: GOOD },
		});
		// A UUID node id, the default port and an upper-case host are the same address.
		const uuid = '6f1c1b52-1a4e-4e7b-9d0a-0c6a3f2b9e11';
		const url = `HTTPS://N8N.example.com:443/base/webhook-waiting/4211/${uuid}?signature=${SIGNATURE}`;
		const uuidReference = questionRef(
			{ executionId: '4211', nodeId: uuid, msisdn: PHONE, ask: 0 },
			SECRET,
		)!;
		expect(readResumeUrlOf(url, BASE, uuidReference)).toEqual({
			target: {
				executionId: '4211',
				nodeId: uuid,
				url: `${BASE}4211/${uuid}?signature=${SIGNATURE}`,
			},
		});
	});

	it.each<[string, string]>([
		[
			'a dot-segment to a production webhook',
			`${BASE}../../webhook/4211/hook?signature=${SIGNATURE}`,
		],
		[
			'a dot-segment that comes back',
			`${BASE}../webhook-waiting/4211/node-1?signature=${SIGNATURE}`,
		],
		['a single-dot segment', `${BASE}./4211/node-1?signature=${SIGNATURE}`],
		['an encoded dot-segment', `${BASE}%2e%2e/webhook/4211/x?signature=${SIGNATURE}`],
		['a half-encoded dot-segment', `${BASE}.%2E/webhook/4211/x?signature=${SIGNATURE}`],
		['an encoded slash', `${BASE}4211%2fnode-1/x?signature=${SIGNATURE}`],
		['an encoded backslash', `${BASE}4211/node%5c1?signature=${SIGNATURE}`],
		['a backslash', `${BASE}..\\webhook/4211/x?signature=${SIGNATURE}`],
		['another host', `https://evil.example/base/webhook-waiting/4211/n?signature=${SIGNATURE}`],
		[
			'another port',
			`https://n8n.example.com:8443/base/webhook-waiting/4211/n?signature=${SIGNATURE}`,
		],
		['another scheme', `http://n8n.example.com/base/webhook-waiting/4211/n?signature=${SIGNATURE}`],
		[
			'a user and password',
			`https://u:p@n8n.example.com/base/webhook-waiting/4211/n?signature=${SIGNATURE}`,
		],
		[
			'a host after a user',
			`https://n8n.example.com@evil.example/base/webhook-waiting/4211/n?signature=${SIGNATURE}`,
		],
		[
			'another path prefix',
			`https://n8n.example.com/base/webhook/4211/node-1?signature=${SIGNATURE}`,
		],
		["the run's own URL", `${BASE}4211?signature=${SIGNATURE}`],
		['an extra segment', `${BASE}4211/node-1/more?signature=${SIGNATURE}`],
		['a trailing slash', `${BASE}4211/node-1/?signature=${SIGNATURE}`],
		['an execution id that is not digits', `${BASE}4211a/node-1?signature=${SIGNATURE}`],
		['a node id with other characters', `${BASE}4211/a%20b?signature=${SIGNATURE}`],
		['a fragment', `${BASE}4211/node-1?signature=${SIGNATURE}#x`],
		['no signature', `${BASE}4211/node-1`],
		['a short signature', `${BASE}4211/node-1?signature=abc`],
		['another query parameter', `${BASE}4211/node-1?signature=${SIGNATURE}&next=x`],
		['a second signature', `${BASE}4211/node-1?signature=${SIGNATURE}&signature=${SIGNATURE}`],
		['a space', `${BASE}4211/node-1?signature=${SIGNATURE} `],
		['a newline a parser would drop', `${BASE}42\n11/node-1?signature=${SIGNATURE}`],
		['not a URL', 'webhook-waiting/4211/node-1'],
	])('refuses %s', (_case, url) => {
		expect(unusable(readResumeUrlOf(url, BASE, REFERENCE))).toEqual(expect.any(String));
	});

	it("refuses a URL of another execution than the row's own reference names", () => {
		const other = `${BASE}4212/node-1?signature=${SIGNATURE}`;
		expect(unusable(readResumeUrlOf(other, BASE, REFERENCE))).toMatch(/execution 4212/);
		expect(unusable(readResumeUrlOf(GOOD, BASE, 'order-2026-0042'))).toMatch(/not a question/);
	});

	it("refuses a reference the URL's node did not make for the row's number", () => {
		const notOurs = /not the URL's node's question to this number/;
		// A made-up code in the shape of a reference, for the genuine URL's execution.
		expect(unusable(readResumeUrlOf(GOOD, BASE, '4211.0.abcdefghijkl'))).toMatch(notOurs);
		// The genuine reference copied onto another node of the same run (another Wait node).
		expect(unusable(readResumeUrlOf(GOOD.replace('node-1', 'node-2')))).toMatch(notOurs);
		// …or onto another number's row, or read under another Relay Secret, or none.
		const otherNumber = { reference: REFERENCE, phone: '353870000000', resumeUrl: GOOD };
		expect(unusable(readResumeUrl(otherNumber, BASE, SECRET))).toMatch(notOurs);
		expect(unusable(readResumeUrlOf(GOOD, BASE, REFERENCE, 'another secret'))).toMatch(notOurs);
		expect(unusable(readResumeUrlOf(GOOD, BASE, REFERENCE, ''))).toMatch(notOurs);
	});

	it('refuses everything when the waiting base is unknown or the root', () => {
		expect(unusable(readResumeUrlOf(GOOD, '', REFERENCE))).toEqual(expect.any(String));
		expect(unusable(readResumeUrlOf(GOOD, 'https://n8n.example.com/', REFERENCE))).toEqual(
			expect.any(String),
		);
	});
});

describe('a wait for delivery: its run token sealed in the row, opened only with the Relay Secret', () => {
	const TOKEN = 'cd'.repeat(32);
	const sealedRow = (secret: string, target = { executionId: '4211', nodeId: 'node-1' }) =>
		`${BASE}4211/node-1?sealed=${sealToken(TOKEN, target, secret)}`;

	it('posts with the opened token, to the address rebuilt from the base', () => {
		expect(readResumeUrlOf(sealedRow(SECRET), BASE, REFERENCE, SECRET)).toEqual({
			target: {
				executionId: '4211',
				nodeId: 'node-1',
				url: `${BASE}4211/node-1?signature=${TOKEN}`,
			},
		});
	});

	it.each<[string, string, string]>([
		['sealed under another secret', sealedRow('another secret'), SECRET],
		[
			'sealed for another execution',
			sealedRow(SECRET, { executionId: '4212', nodeId: 'node-1' }),
			SECRET,
		],
		[
			'sealed for another node',
			sealedRow(SECRET, { executionId: '4211', nodeId: 'node-2' }),
			SECRET,
		],
		['read without the secret (Deliver Reply)', sealedRow(SECRET), ''],
		['sealed and signed at once', `${sealedRow(SECRET)}&signature=${SIGNATURE}`, SECRET],
	])('is unusable when %s', (_, url, secret) => {
		expect(unusable(readResumeUrlOf(url, BASE, REFERENCE, secret))).toMatch(
			/sealed for this execution/,
		);
	});
});

describe('after a Retry of the execution: the Notify ID names the first execution, the row the Retry', () => {
	const FIRST = REFERENCE;
	const retried = `${BASE}4300/node-1?signature=${SIGNATURE}`;
	const pairing = { reference: FIRST, executionId: '4300', nodeId: 'node-1' };

	it('is used when a binding keyed by the Relay Secret vouches for the pair', () => {
		const row = recordedResumeUrl(retried, pairing, SECRET);
		expect(new URL(row).searchParams.get('bound')).toMatch(/^[0-9a-f]{64}$/);
		expect(readResumeUrlOf(row, BASE, FIRST, SECRET)).toEqual({
			target: { executionId: '4300', nodeId: 'node-1', url: retried },
		});
	});

	it('is recorded without a binding when the Notify ID names the execution itself', () => {
		expect(recordedResumeUrl(GOOD, { ...pairing, executionId: '4211' }, SECRET)).toBe(GOOD);
	});

	it.each<[string, string, string]>([
		['without a binding', retried, SECRET],
		['with a binding under another secret', recordedResumeUrl(retried, pairing, 'another'), SECRET],
		['read without the secret', recordedResumeUrl(retried, pairing, SECRET), ''],
		[
			'with a binding for another node',
			recordedResumeUrl(retried, { ...pairing, nodeId: 'node-2' }, SECRET),
			SECRET,
		],
		['with a binding where none is due', `${GOOD}&bound=${'0'.repeat(64)}`, SECRET],
		[
			'with two bindings',
			`${recordedResumeUrl(retried, pairing, SECRET)}&bound=${'0'.repeat(64)}`,
			SECRET,
		],
	])('is unusable %s', (_, url, secret) => {
		expect(readResumeUrlOf(url, BASE, FIRST, secret)).toHaveProperty('unusable');
	});
});
