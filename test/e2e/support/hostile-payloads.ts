/**
 * Generated bad requests for the Phonovation Trigger's production URLs, each with the answer the
 * README promises: 401 for a bad or missing signature or URL token (checked first, so anything
 * the signature or token does not vouch for is a 401 whatever else is wrong with it), 400 for a
 * malformed request, 413 for a body over 64 KiB. Where n8n's own body parser refuses a request before the trigger
 * sees it (JSON or XML it cannot parse: 422), or n8n's router does (a method the webhook does
 * not serve: 404), the case expects n8n's answer. No case may be answered 2xx or 5xx.
 */
import { createHash } from 'node:crypto';

import { md5Hex, receiptSignature } from '../../simulator';
import {
	deliveryReceipt,
	inboundRelay,
	optOutRelay,
	processingResult,
	type RelayContext,
} from '../../simulator/relays';
import type { OutgoingRequest } from './load-http';

export type HostileCategory =
	| 'wrong secret'
	| 'tampered'
	| 'bad signature'
	| 'url token'
	| 'truncated'
	| 'oversized'
	| 'invalid encoding'
	| 'duplicate keys'
	| 'wrong format'
	| 'missing fields'
	| 'absurd timestamp'
	| 'wrong method'
	| 'wrong content type'
	| 'markup'
	| 'prototype keys';

export interface HostileCase {
	category: HostileCategory;
	/** What is wrong with it, unique within the list. */
	name: string;
	request: OutgoingRequest;
	/** The answer required for this case. */
	expected: number;
	/**
	 * Send it when no other request is in flight: n8n 2.41 parses every XML body with one shared
	 * xml2js parser, and two XML bodies parsed at once corrupt each other (a broken one can come
	 * out as null, a good one fail), which makes n8n's answer depend on timing.
	 */
	sendAlone?: boolean;
}

export interface HostileTargets {
	/** Path of a trigger selecting inbound messages and opt-outs (signature verification on). */
	repliesPath: string;
	/** Path of a trigger selecting delivery receipts and processing results, with a URL token. */
	eventsPath: string;
	eventsToken: string;
	relaySecret: string;
	nowMs: number;
}

type Entries = Array<[string, string]>;

const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';

/** The README's limits: 401 signature or token, 400 malformed, 413 over 64 KiB. */
export const EXPECTED = { unauthorized: 401, malformed: 400, tooLarge: 413 } as const;

/** n8n answers these itself, before the trigger runs. */
export const N8N_ANSWERS = { unparseableBody: 422, methodNotServed: 404 } as const;

const encodeForm = (entries: Entries) => new URLSearchParams(entries).toString();

const without = (entries: Entries, name: string): Entries =>
	entries.filter(([key]) => key !== name);

const replaced = (entries: Entries, name: string, value: string): Entries =>
	entries.map(([key, old]) => [key, key === name ? value : old]);

const sha = (algorithm: string, text: string) =>
	createHash(algorithm).update(text, 'utf8').digest('hex');

/** Upper-case letters become lower-case and the reverse, so the text always changes. */
const swapCase = (text: string) =>
	[...text].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');

/** Latin letters and the Cyrillic letters that look the same. */
const LOOKALIKES: Record<string, string> = {
	a: 'а',
	e: 'е',
	o: 'о',
	C: 'С',
	S: 'Ѕ',
	T: 'Т',
	Y: 'Ү',
	E: 'Е',
};

/** The first letter that has a lookalike, replaced by it (or a Cyrillic а appended). */
const homoglyph = (text: string) => {
	const index = text.search(/[aeoCSTYE]/);
	return index === -1
		? `${text}а`
		: text.slice(0, index) + LOOKALIKES[text[index]] + text.slice(index + 1);
};

/**
 * Builds the cases. Every form relay starts as a genuine one (signed by the simulator's own
 * signer) and gets exactly one thing wrong, so a refusal can only be for that reason.
 */
export function hostilePayloads(targets: HostileTargets): HostileCase[] {
	const { repliesPath, eventsPath, eventsToken, relaySecret } = targets;
	const context: RelayContext = {
		secret: relaySecret,
		nowMs: targets.nowMs,
		defaultSender: 'Phonovation',
	};
	const cases: HostileCase[] = [];
	const add = (
		category: HostileCategory,
		name: string,
		expected: number,
		request: OutgoingRequest,
	) => cases.push({ category, name, expected, request });
	const form = (path: string, body: string | Buffer, contentType = FORM): OutgoingRequest => ({
		path,
		headers: { 'content-type': contentType },
		body,
	});
	const withToken = (token: string) => `${eventsPath}?token=${encodeURIComponent(token)}`;

	let serial = 0;
	/** A genuine inbound reply from a handset of its own, as field entries in the provider's order. */
	const inbound = (content = `Reply ${++serial}`): Entries =>
		Object.entries(
			inboundRelay({ from: `35386${String(++serial).padStart(7, '0')}`, content }, context).fields,
		);
	const optOut = (): Entries =>
		Object.entries(
			optOutRelay({ from: `35385${String(++serial).padStart(7, '0')}` }, context).fields,
		);
	const receipt = (): Entries =>
		Object.entries(
			deliveryReceipt({ notifyId: `order-${++serial}`, success: true }, context).fields,
		);
	const result = (fields: Record<string, unknown> = {}) =>
		JSON.stringify({
			...processingResult({ notifyId: `order-${++serial}` }, context).fields,
			...fields,
		});
	const get = (entries: Entries, name: string) => entries.find(([key]) => key === name)?.[1] ?? '';

	// Signed with a key that is not the relay secret: near misses and unrelated keys.
	const wrongKeys = [
		`${relaySecret}x`,
		`x${relaySecret}`,
		relaySecret.slice(0, -1),
		relaySecret.toUpperCase(),
		` ${relaySecret}`,
		`${relaySecret} `,
		`${relaySecret}\n`,
		'',
		'demo',
		'secret',
		'null',
		'undefined',
		relaySecret.split('').reverse().join(''),
		...Array.from({ length: 12 }, (_, i) => sha('sha256', `unrelated key ${i}`).slice(0, 16 + i)),
	].filter((key) => key !== relaySecret);
	for (const [i, key] of wrongKeys.entries()) {
		const kind = i % 3;
		if (kind === 2) {
			const entries = receipt();
			const signed = replaced(
				entries,
				'SMS-Verify',
				receiptSignature(get(entries, 'SMS-NotifyId'), true, key),
			);
			add(
				'wrong secret',
				`receipt signed with wrong key #${i}`,
				EXPECTED.unauthorized,
				form(eventsPath, encodeForm(signed)),
			);
			continue;
		}
		const entries = kind === 0 ? inbound() : optOut();
		const signed = replaced(
			entries,
			'SMS-Verify',
			md5Hex(get(entries, 'SMS-From') + get(entries, 'SMS-Content') + key),
		);
		const what = kind === 0 ? 'reply' : 'opt-out';
		add(
			'wrong secret',
			`${what} signed with wrong key #${i}`,
			EXPECTED.unauthorized,
			form(repliesPath, encodeForm(signed)),
		);
	}

	// Genuine relays changed after signing.
	const tamperings: Array<[string, (entries: Entries) => Entries]> = [
		['text appended to', (e) => replaced(e, 'SMS-Content', `${get(e, 'SMS-Content')}!`)],
		['text replaced in', (e) => replaced(e, 'SMS-Content', 'Send me the list')],
		['text emptied in', (e) => replaced(e, 'SMS-Content', '')],
		['trailing space added to', (e) => replaced(e, 'SMS-Content', `${get(e, 'SMS-Content')} `)],
		['letter case swapped in', (e) => replaced(e, 'SMS-Content', swapCase(get(e, 'SMS-Content')))],
		['homoglyph put into', (e) => replaced(e, 'SMS-Content', homoglyph(get(e, 'SMS-Content')))],
		[
			'sender digit changed in',
			(e) =>
				replaced(
					e,
					'SMS-From',
					get(e, 'SMS-From').replace(/.$/, (d) => String((+d + 1) % 10)),
				),
		],
		[
			'plus sign put before the sender of',
			(e) => replaced(e, 'SMS-From', `+${get(e, 'SMS-From')}`),
		],
		[
			'sender and text swapped in',
			(e) =>
				replaced(replaced(e, 'SMS-From', get(e, 'SMS-Content')), 'SMS-Content', get(e, 'SMS-From')),
		],
	];
	const accented = 'Café YES'.normalize('NFC');
	for (const [what, tamper] of tamperings) {
		add(
			'tampered',
			`${what} a reply`,
			EXPECTED.unauthorized,
			form(repliesPath, encodeForm(tamper(inbound(accented)))),
		);
		add(
			'tampered',
			`${what} an opt-out`,
			EXPECTED.unauthorized,
			form(repliesPath, encodeForm(tamper(optOut()))),
		);
	}
	add(
		'tampered',
		'reply text decomposed (NFC to NFD)',
		EXPECTED.unauthorized,
		form(
			repliesPath,
			encodeForm(replaced(inbound(accented), 'SMS-Content', accented.normalize('NFD'))),
		),
	);
	const receiptTamperings: Array<[string, (entries: Entries) => Entries]> = [
		['success flipped to False', (e) => replaced(e, 'SMS-Success', 'False')],
		['notify ID changed', (e) => replaced(e, 'SMS-NotifyId', `${get(e, 'SMS-NotifyId')}0`)],
		['notify ID emptied', (e) => replaced(e, 'SMS-NotifyId', '')],
	];
	for (const [what, tamper] of receiptTamperings) {
		add(
			'tampered',
			`receipt with ${what}`,
			EXPECTED.unauthorized,
			form(eventsPath, encodeForm(tamper(receipt()))),
		);
	}
	const replayed = inbound();
	add(
		'tampered',
		'signature of another reply replayed',
		EXPECTED.unauthorized,
		form(repliesPath, encodeForm(replaced(inbound(), 'SMS-Verify', get(replayed, 'SMS-Verify')))),
	);

	// Signatures that are missing or not the provider's MD5 scheme.
	const badSignatures: Array<[string, (entries: Entries) => string | undefined]> = [
		['missing', () => undefined],
		['empty', () => ''],
		['blank', () => '   '],
		['one character', () => 'a'],
		['31 hex digits', (e) => get(e, 'SMS-Verify').slice(0, 31)],
		['33 hex digits', (e) => `${get(e, 'SMS-Verify')}0`],
		['non-hex', () => 'z'.repeat(32)],
		['0x-prefixed', (e) => `0x${get(e, 'SMS-Verify')}`],
		['base64 of the MD5', (e) => Buffer.from(get(e, 'SMS-Verify'), 'hex').toString('base64')],
		[
			'SHA-1 of the same input',
			(e) => sha('sha1', get(e, 'SMS-From') + get(e, 'SMS-Content') + relaySecret),
		],
		[
			'SHA-256 of the same input',
			(e) => sha('sha256', get(e, 'SMS-From') + get(e, 'SMS-Content') + relaySecret),
		],
		['MD5 without the secret', (e) => md5Hex(get(e, 'SMS-From') + get(e, 'SMS-Content'))],
		['MD5 of the secret alone', () => md5Hex(relaySecret)],
		[
			'MD5 with the secret first',
			(e) => md5Hex(relaySecret + get(e, 'SMS-From') + get(e, 'SMS-Content')),
		],
		[
			'MD5 with text before sender',
			(e) => md5Hex(get(e, 'SMS-Content') + get(e, 'SMS-From') + relaySecret),
		],
		[
			'MD5 with separators',
			(e) => md5Hex(`${get(e, 'SMS-From')}|${get(e, 'SMS-Content')}|${relaySecret}`),
		],
		['the relay secret itself', () => relaySecret],
		['null', () => 'null'],
		['NUL-padded', (e) => `${get(e, 'SMS-Verify')}\u0000`],
	];
	for (const [what, signature] of badSignatures) {
		const entries = inbound();
		const value = signature(entries);
		const changed =
			value === undefined ? without(entries, 'SMS-Verify') : replaced(entries, 'SMS-Verify', value);
		add(
			'bad signature',
			`reply with signature ${what}`,
			EXPECTED.unauthorized,
			form(repliesPath, encodeForm(changed)),
		);
	}
	add(
		'bad signature',
		'opt-out without signature',
		EXPECTED.unauthorized,
		form(repliesPath, encodeForm(without(optOut(), 'SMS-Verify'))),
	);
	add(
		'bad signature',
		'receipt without signature',
		EXPECTED.unauthorized,
		form(eventsPath, encodeForm(without(receipt(), 'SMS-Verify'))),
	);
	const misSigned = receipt();
	const inboundStyle = md5Hex(
		get(misSigned, 'SMS-From') + get(misSigned, 'SMS-NotifyId') + relaySecret,
	);
	add(
		'bad signature',
		'receipt signed as an inbound relay',
		EXPECTED.unauthorized,
		form(eventsPath, encodeForm(replaced(misSigned, 'SMS-Verify', inboundStyle))),
	);

	// Processing results carry no signature: the URL token is their only proof.
	const tokenCases: Array<[string, string]> = [
		['no token', eventsPath],
		['an empty token', withToken('')],
		['a wrong token', withToken('not-the-token')],
		['the token upper-cased', withToken(eventsToken.toUpperCase())],
		['the token with a character added', withToken(`${eventsToken}x`)],
		['the token missing its last character', withToken(eventsToken.slice(0, -1))],
		[
			'the token twice (an array)',
			`${withToken(eventsToken)}&token=${encodeURIComponent(eventsToken)}`,
		],
		[
			'a wrong token before the right one',
			`${withToken('nope')}&token=${encodeURIComponent(eventsToken)}`,
		],
		['the token under another name', `${eventsPath}?Token=${encodeURIComponent(eventsToken)}`],
		['the relay secret as token', withToken(relaySecret)],
		[
			'the right token on a trigger that has none',
			`${repliesPath}?token=${encodeURIComponent(eventsToken)}`,
		],
	];
	for (const [what, path] of tokenCases) {
		add(
			'url token',
			`processing result with ${what}`,
			EXPECTED.unauthorized,
			form(path, result(), JSON_TYPE),
		);
	}
	add(
		'url token',
		'processing result with the token in the body',
		EXPECTED.unauthorized,
		form(eventsPath, result({ token: eventsToken }), JSON_TYPE),
	);
	add('url token', 'processing result with the token in a header', EXPECTED.unauthorized, {
		...form(eventsPath, result(), JSON_TYPE),
		headers: { 'content-type': JSON_TYPE, 'x-token': eventsToken },
	});

	// Cut short before the sender is complete: unverifiable once it looks like a relay, else no relay.
	const whole = encodeForm(inbound('Truncated reply YES'));
	const senderEnds = whole.indexOf('SMS-From=') + 'SMS-From='.length;
	const signatureStarts = whole.indexOf('SMS-Verify=') + 'SMS-Verify='.length;
	const looksLikeRelay = (body: string) => /(^|&)SMS-(From|Content)=/.test(body);
	for (let i = 0; i < 12; i++) {
		const cut = 1 + Math.floor(((senderEnds - 1) * i) / 12);
		const body = whole.slice(0, cut);
		add(
			'truncated',
			`reply cut after ${cut} of ${whole.length} characters`,
			looksLikeRelay(body) ? EXPECTED.unauthorized : EXPECTED.malformed,
			form(repliesPath, body),
		);
	}
	for (let i = 0; i < 10; i++) {
		const cut = signatureStarts + Math.floor((32 * i) / 10);
		add(
			'truncated',
			`reply cut inside its signature after ${cut} characters`,
			EXPECTED.unauthorized,
			form(repliesPath, whole.slice(0, cut)),
		);
	}
	const json = result();
	for (const fraction of [0.1, 0.3, 0.5, 0.7, 0.95]) {
		const cut = Math.floor(json.length * fraction);
		add(
			'truncated',
			`processing result JSON cut after ${cut} characters`,
			N8N_ANSWERS.unparseableBody,
			form(withToken(eventsToken), json.slice(0, cut), JSON_TYPE),
		);
	}

	// Over 64 KiB, however genuine or well-formed otherwise.
	for (const size of [64 * 1024 + 1, 65 * 1024, 128 * 1024, 512 * 1024, 1024 * 1024]) {
		const padded = encodeForm([...inbound(), ['padding', 'x'.repeat(size)]]).slice(0, size);
		add('oversized', `reply padded to ${size} bytes`, EXPECTED.tooLarge, form(repliesPath, padded));
	}
	const longText = 'Y'.repeat(70 * 1024);
	add(
		'oversized',
		'genuinely signed reply with a 70 KiB text',
		EXPECTED.tooLarge,
		form(repliesPath, encodeForm(inbound(longText))),
	);
	add(
		'oversized',
		'receipt with a 100 KiB extra field',
		EXPECTED.tooLarge,
		form(eventsPath, encodeForm([...receipt(), ['SMS-Extra', 'n'.repeat(100 * 1024)]])),
	);
	add(
		'oversized',
		'processing result with a 100 KiB message',
		EXPECTED.tooLarge,
		form(withToken(eventsToken), result({ Message: 'm'.repeat(100 * 1024) }), JSON_TYPE),
	);
	add(
		'oversized',
		'oversized body with a wrong signature',
		EXPECTED.tooLarge,
		form(
			repliesPath,
			encodeForm([
				...replaced(inbound(), 'SMS-Verify', '0'.repeat(32)),
				['padding', 'p'.repeat(80 * 1024)],
			]),
		),
	);
	add(
		'oversized',
		'oversized body as text/plain',
		EXPECTED.tooLarge,
		form(repliesPath, 'x'.repeat(80 * 1024), 'text/plain'),
	);

	// Bytes that are not UTF-8, and percent-escapes that are broken or decode to non-UTF-8.
	const rawInvalid: Array<[string, number[]]> = [
		['0xFF', [0xff]],
		['0xFE', [0xfe]],
		['a bad continuation byte', [0xc3, 0x28]],
		['a lone continuation byte', [0xa0, 0xa1]],
		['a bad 3-byte sequence', [0xe2, 0x28, 0xa1]],
		['a bad 4-byte sequence', [0xf0, 0x28, 0x8c, 0xbc]],
		['an overlong slash', [0xc0, 0xaf]],
		['a UTF-16 surrogate', [0xed, 0xa0, 0x80]],
		['a 5-byte sequence', [0xf8, 0x88, 0x80, 0x80, 0x80]],
		['Latin-1 é', [0xe9]],
	];
	for (const [what, bytes] of rawInvalid) {
		const [head, tail] = encodeForm(inbound('MARKER')).split('MARKER');
		add(
			'invalid encoding',
			`reply text with raw ${what}`,
			EXPECTED.malformed,
			form(repliesPath, Buffer.concat([Buffer.from(head), Buffer.from(bytes), Buffer.from(tail)])),
		);
	}
	add(
		'invalid encoding',
		'reply ending in a cut-off multi-byte character',
		EXPECTED.malformed,
		form(
			repliesPath,
			Buffer.concat([Buffer.from(encodeForm(inbound())), Buffer.from([0xe2, 0x82])]),
		),
	);
	const badEscapes: Array<[string, string]> = [
		['%FF', '%FF'],
		['an escaped bad continuation byte', '%C3%28'],
		['an escaped surrogate', '%ED%A0%80'],
		['an escaped overlong slash', '%C0%AF'],
		['an escaped cut-off character', '%E2%82'],
		['an escape past U+10FFFF', '%F4%90%80%80'],
		['a lone %', '%'],
		['%Z', '%Z'],
		['%ZZ', '%ZZ'],
		['%G1', '%G1'],
		['%%41', '%%41'],
		['a trailing 100%', '100%'],
	];
	for (const [what, escape] of badEscapes) {
		const [head, tail] = encodeForm(inbound('MARKER')).split('MARKER');
		add(
			'invalid encoding',
			`reply text with ${what}`,
			EXPECTED.malformed,
			form(repliesPath, `${head}${escape}${tail}`),
		);
	}
	add(
		'invalid encoding',
		'field name with a broken escape',
		EXPECTED.malformed,
		form(repliesPath, encodeForm(inbound()).replace('SMS-Network', 'SMS-Net%ZZwork')),
	);
	const [beforeMessage, afterMessage] = result({ Message: 'MARKER' }).split('MARKER');
	add(
		'invalid encoding',
		'processing result with raw 0xFF',
		EXPECTED.malformed,
		form(
			withToken(eventsToken),
			Buffer.concat([Buffer.from(beforeMessage), Buffer.from([0xff]), Buffer.from(afterMessage)]),
			JSON_TYPE,
		),
	);

	// The same field twice: which one was signed is ambiguous.
	const duplicates: Array<[string, (entries: Entries) => Entries]> = [
		['SMS-From twice, same value', (e) => [...e, ['SMS-From', get(e, 'SMS-From')]]],
		['SMS-From twice, other value', (e) => [...e, ['SMS-From', '353870000000']]],
		['SMS-Content twice', (e) => [...e, ['SMS-Content', 'something else']]],
		['SMS-Verify twice, wrong one last', (e) => [...e, ['SMS-Verify', '0'.repeat(32)]]],
		['SMS-Verify twice, wrong one first', (e) => [['SMS-Verify', '0'.repeat(32)], ...e]],
		['SMS-From and sms-from', (e) => [...e, ['sms-from', get(e, 'SMS-From')]]],
		['SMS-NotifyId and SMS-NotifyID', (e) => [...e, ['SMS-NotifyID', 'other-ref']]],
		['SMS-Keyphrase and SMS-KeyPhrase', (e) => [...e, ['SMS-KeyPhrase', 'YES']]],
		['SMS-TimeStamp twice', (e) => [...e, ['SMS-TimeStamp', get(e, 'SMS-TimeStamp')]]],
		['SMS-To twice, one the opt-out shortcode', (e) => [...e, ['SMS-To', '50123']]],
	];
	for (const [what, duplicate] of duplicates) {
		add(
			'duplicate keys',
			`reply with ${what}`,
			EXPECTED.malformed,
			form(repliesPath, encodeForm(duplicate(inbound()))),
		);
	}
	add(
		'duplicate keys',
		'receipt with SMS-Success True and False',
		EXPECTED.malformed,
		form(eventsPath, encodeForm([...receipt(), ['SMS-Success', 'False']])),
	);
	add(
		'duplicate keys',
		'receipt with SMS-NotifyId twice',
		EXPECTED.malformed,
		form(eventsPath, encodeForm([...receipt(), ['SMS-NotifyId', 'order-x']])),
	);

	// The wrong format for the event: JSON where a form is expected and the reverse. JSON is a
	// processing result, so at the replies trigger (no URL token) it is refused as unauthenticated.
	const replyObject = Object.fromEntries(inbound());
	const resultAsForm = encodeForm(Object.entries(JSON.parse(result()) as Record<string, string>));
	const formats: Array<[string, OutgoingRequest, number]> = [
		[
			'a reply as a JSON object',
			form(repliesPath, JSON.stringify(replyObject), JSON_TYPE),
			EXPECTED.unauthorized,
		],
		[
			'a reply as a JSON array',
			form(repliesPath, JSON.stringify(inbound()), JSON_TYPE),
			EXPECTED.unauthorized,
		],
		[
			'a JSON string',
			form(repliesPath, '"SMS-From=353871234567"', JSON_TYPE),
			EXPECTED.unauthorized,
		],
		['a JSON number', form(repliesPath, '42', JSON_TYPE), EXPECTED.unauthorized],
		['JSON null', form(repliesPath, 'null', JSON_TYPE), EXPECTED.unauthorized],
		['JSON true', form(repliesPath, 'true', JSON_TYPE), EXPECTED.unauthorized],
		[
			'a form-encoded reply labelled JSON',
			form(repliesPath, encodeForm(inbound()), JSON_TYPE),
			N8N_ANSWERS.unparseableBody,
		],
		[
			'a receipt labelled JSON',
			form(eventsPath, encodeForm(receipt()), JSON_TYPE),
			N8N_ANSWERS.unparseableBody,
		],
		[
			'a processing result labelled form',
			form(withToken(eventsToken), result(), FORM),
			EXPECTED.malformed,
		],
		[
			'a processing result form-encoded',
			form(withToken(eventsToken), resultAsForm, FORM),
			EXPECTED.malformed,
		],
		[
			'a reply as JSON labelled form',
			form(repliesPath, JSON.stringify(replyObject), FORM),
			EXPECTED.malformed,
		],
		[
			'a processing result as a JSON array',
			form(withToken(eventsToken), `[${result()}]`, JSON_TYPE),
			EXPECTED.malformed,
		],
	];
	for (const [what, request, expected] of formats) add('wrong format', what, expected, request);

	// Required fields missing or of the wrong kind; a signed field missing or changed is a bad signature.
	const missing: Array<[string, OutgoingRequest, number?]> = [
		[
			'reply without SMS-From',
			form(repliesPath, encodeForm(without(inbound(), 'SMS-From'))),
			EXPECTED.unauthorized,
		],
		[
			'reply without SMS-Content',
			form(repliesPath, encodeForm(without(inbound(), 'SMS-Content'))),
			EXPECTED.unauthorized,
		],
		[
			'reply without SMS-From and SMS-Content',
			form(repliesPath, encodeForm(without(without(inbound(), 'SMS-From'), 'SMS-Content'))),
		],
		[
			'reply with an empty SMS-From',
			form(repliesPath, encodeForm(replaced(inbound(), 'SMS-From', ''))),
			EXPECTED.unauthorized,
		],
		[
			'reply with a blank SMS-From',
			form(repliesPath, encodeForm(replaced(inbound(), 'SMS-From', '   '))),
			EXPECTED.unauthorized,
		],
		[
			'opt-out without SMS-From',
			form(repliesPath, encodeForm(without(optOut(), 'SMS-From'))),
			EXPECTED.unauthorized,
		],
		[
			'receipt without SMS-NotifyId',
			form(eventsPath, encodeForm(without(receipt(), 'SMS-NotifyId'))),
			EXPECTED.unauthorized,
		],
		[
			'receipt without SMS-Success',
			form(eventsPath, encodeForm(without(receipt(), 'SMS-Success'))),
			EXPECTED.unauthorized,
		],
		[
			'receipt with SMS-Success "yes"',
			form(eventsPath, encodeForm(replaced(receipt(), 'SMS-Success', 'yes'))),
			EXPECTED.unauthorized,
		],
		[
			'receipt with an empty SMS-Success',
			form(eventsPath, encodeForm(replaced(receipt(), 'SMS-Success', ''))),
			EXPECTED.unauthorized,
		],
		[
			'receipt with SMS-TotalSent "many"',
			form(eventsPath, encodeForm(replaced(receipt(), 'SMS-TotalSent', 'many'))),
		],
		[
			'receipt with SMS-TotalToSend -1',
			form(eventsPath, encodeForm(replaced(receipt(), 'SMS-TotalToSend', '-1'))),
		],
		[
			'receipt with SMS-TotalFailed 1.5',
			form(eventsPath, encodeForm(replaced(receipt(), 'SMS-TotalFailed', '1.5'))),
		],
		[
			'only SMS-Type and SMS-Keyphrase',
			form(
				repliesPath,
				encodeForm([
					['SMS-Type', 'AuthCode'],
					['SMS-Keyphrase', 'YES'],
				]),
			),
		],
		['an empty form body', form(repliesPath, '')],
		['a form body of separators', form(repliesPath, '&&&')],
		['a form body of one equals sign', form(repliesPath, '=')],
		['processing result {}', form(withToken(eventsToken), '{}', JSON_TYPE)],
		[
			'processing result without Status',
			form(withToken(eventsToken), JSON.stringify({ NotifyId: 'order-1' }), JSON_TYPE),
		],
		[
			'processing result with Status null',
			form(withToken(eventsToken), result({ Status: null }), JSON_TYPE),
		],
		[
			'processing result with a numeric Status',
			form(withToken(eventsToken), result({ Status: 1 }), JSON_TYPE),
		],
		[
			'processing result with an object NotifyId',
			form(withToken(eventsToken), result({ NotifyId: { id: 1 } }), JSON_TYPE),
		],
		[
			'processing result with an array Message',
			form(withToken(eventsToken), result({ Message: ['a'] }), JSON_TYPE),
		],
	];
	for (const [what, request, expected = EXPECTED.malformed] of missing)
		add('missing fields', what, expected, request);

	// Timestamps that are no instant at all (the signature does not cover them, so it stays valid).
	const absurd = [
		'9999-99-99 99:99:99',
		'0000-00-00 00:00:00',
		'0000-01-01 00:00:00',
		'2024-02-30 12:00:00',
		'2023-02-29 12:00:00',
		'2024-13-01 00:00:00',
		'2024-00-10 00:00:00',
		'2024-01-01 24:00:00',
		'2024-01-01 23:60:00',
		'2024-01-01 23:59:60',
		'-0001-01-01 00:00:00',
		'+275760-09-13 00:00:00',
		'1e308',
		'-1',
		'NaN',
		'Infinity',
		'yesterday',
		'1700000000',
		'2024-01-01',
		'2024-01-01 00:00:00 +0100',
		'20240101 000000',
		"2024-01-01 00:00:00'; DROP TABLE execution_entity;--",
		'２０２４-01-01 00:00:00',
	];
	for (const value of absurd) {
		add(
			'absurd timestamp',
			`reply timestamped ${JSON.stringify(value)}`,
			EXPECTED.malformed,
			form(repliesPath, encodeForm(replaced(inbound(), 'SMS-TimeStamp', value))),
		);
	}
	for (const value of ['2024-02-31 08:00:00', '9999-12-31 25:00:00', 'tomorrow']) {
		add(
			'absurd timestamp',
			`receipt timestamped ${JSON.stringify(value)}`,
			EXPECTED.malformed,
			form(eventsPath, encodeForm(replaced(receipt(), 'SMS-TimeStamp', value))),
		);
	}
	for (const value of [
		'2024-99-01T00:00:00Z',
		'2024-01-01T25:00:00Z',
		'+275760-09-13T00:00:00.000Z',
		'tomorrow',
		12345,
		true,
	]) {
		add(
			'absurd timestamp',
			`processing result finished at ${JSON.stringify(value)}`,
			EXPECTED.malformed,
			form(withToken(eventsToken), result({ FinishedAt: value }), JSON_TYPE),
		);
	}

	// Methods the webhook does not serve (n8n answers before the trigger runs).
	for (const method of ['GET', 'PUT', 'PATCH', 'DELETE']) {
		add('wrong method', `${method} with a genuine reply`, N8N_ANSWERS.methodNotServed, {
			...form(repliesPath, encodeForm(inbound())),
			method,
		});
	}

	// Content types a relay never has.
	const genuine = () => encodeForm(inbound());
	const contentTypes: Array<[string, OutgoingRequest, number]> = [
		['no content type', { path: repliesPath, body: Buffer.from(genuine()) }, EXPECTED.malformed],
		['text/plain', form(repliesPath, genuine(), 'text/plain'), EXPECTED.malformed],
		['text/html', form(repliesPath, genuine(), 'text/html'), EXPECTED.malformed],
		[
			'application/octet-stream',
			form(repliesPath, genuine(), 'application/octet-stream'),
			EXPECTED.malformed,
		],
		[
			'a misspelt form type',
			form(repliesPath, genuine(), 'application/x-www-form-urlencodedx'),
			EXPECTED.malformed,
		],
		[
			'application/json-patch+json (JSON: needs the URL token)',
			form(repliesPath, genuine(), 'application/json-patch+json'),
			EXPECTED.unauthorized,
		],
		[
			'well-formed XML',
			form(
				repliesPath,
				'<relay><from>353871234567</from><text>YES</text></relay>',
				'application/xml',
			),
			EXPECTED.malformed,
		],
		[
			'broken XML',
			form(repliesPath, '<relay><from>353871234567</from', 'application/xml'),
			N8N_ANSWERS.unparseableBody,
		],
		[
			'multipart/form-data',
			form(repliesPath, multipart(inbound()), `multipart/form-data; boundary=${BOUNDARY}`),
			EXPECTED.malformed,
		],
	];
	for (const [what, request, expected] of contentTypes)
		add('wrong content type', `genuine reply sent as ${what}`, expected, request);

	addMarkupCases({
		add,
		form,
		encodeForm,
		inbound,
		optOut,
		receipt,
		result,
		repliesPath,
		eventsPath,
		withToken: withToken(eventsToken),
	});
	addPrototypeCases({
		add,
		form,
		inbound,
		receipt,
		result,
		repliesPath,
		eventsPath,
		withToken: withToken(eventsToken),
	});
	for (const c of cases)
		if (/xml/i.test(c.request.headers?.['content-type'] ?? '')) c.sendAlone = true;

	return cases;
}

const BOUNDARY = 'phonovation-hostile-boundary';

function multipart(entries: Entries): string {
	const parts = entries.map(
		([name, value]) =>
			`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
	);
	return `${parts.join('')}--${BOUNDARY}--\r\n`;
}

/** Script and markup that a refusal rendered as HTML would run. */
export const MARKUP = [
	'<script>alert(document.domain)</script>',
	'<img src=x onerror=alert(1)>',
	'"><svg onload=alert(1)>',
];

const SIGNED: Record<string, string[]> = {
	reply: ['SMS-From', 'SMS-Content', 'SMS-Verify'],
	'opt-out': ['SMS-From', 'SMS-Content', 'SMS-Verify'],
	receipt: ['SMS-NotifyId', 'SMS-Success', 'SMS-Verify'],
};

interface CaseKit {
	add: (
		category: HostileCategory,
		name: string,
		expected: number,
		request: OutgoingRequest,
	) => void;
	form: (path: string, body: string | Buffer, contentType?: string) => OutgoingRequest;
	inbound: () => Entries;
	receipt: () => Entries;
	result: (fields?: Record<string, unknown>) => string;
	repliesPath: string;
	eventsPath: string;
	/** The events path with the right URL token. */
	withToken: string;
}

/**
 * Markup in every field of every event, and in field names. Each case is refused: a broken
 * signature (401), or a genuine one with markup also in the timestamp (400), unless the markup
 * itself breaks the signature. No refusal may echo any of it.
 */
function addMarkupCases(
	kit: CaseKit & { optOut: () => Entries; encodeForm: (entries: Entries) => string },
) {
	const { add, form, repliesPath, eventsPath } = kit;
	const relays: Array<[string, () => Entries, string]> = [
		['reply', kit.inbound, repliesPath],
		['opt-out', kit.optOut, repliesPath],
		['receipt', kit.receipt, eventsPath],
	];
	for (const [kind, make, path] of relays) {
		for (const [name] of make()) {
			const markup = MARKUP[name.length % MARKUP.length];
			const marked = replaced(make(), name, markup);
			add(
				'markup',
				`${kind} with markup in ${name}, signature broken`,
				EXPECTED.unauthorized,
				form(path, kit.encodeForm(replaced(marked, 'SMS-Verify', '0'.repeat(32)))),
			);
			// SMS-Type is not signed, so changing it never makes a receipt be checked as another recipe.
			const unsigned = SIGNED[kind].includes(name);
			add(
				'markup',
				`${kind} with markup in ${name} and its timestamp`,
				unsigned ? EXPECTED.unauthorized : EXPECTED.malformed,
				form(path, kit.encodeForm(replaced(marked, 'SMS-TimeStamp', MARKUP[0]))),
			);
		}
	}
	for (const markup of MARKUP) {
		const name = `SMS-${markup}`;
		add(
			'markup',
			`reply with the field ${name} twice`,
			EXPECTED.malformed,
			form(repliesPath, kit.encodeForm([...kit.inbound(), [name, '1'], [name, '2']])),
		);
		add(
			'markup',
			`reply with the field ${markup}, signature broken`,
			EXPECTED.unauthorized,
			form(
				repliesPath,
				kit.encodeForm([
					...replaced(kit.inbound(), 'SMS-Verify', 'f'.repeat(32)),
					[markup, markup],
				]),
			),
		);
	}
	const marked = {
		Status: MARKUP[0],
		Message: MARKUP[1],
		NotifyId: MARKUP[2],
		[MARKUP[1]]: MARKUP[0],
	};
	add(
		'markup',
		'processing result with markup, no token',
		EXPECTED.unauthorized,
		form(eventsPath, kit.result(marked), JSON_TYPE),
	);
	add(
		'markup',
		'processing result with markup and a markup FinishedAt',
		EXPECTED.malformed,
		form(kit.withToken, kit.result({ ...marked, FinishedAt: MARKUP[2] }), JSON_TYPE),
	);
	add(
		'markup',
		'processing result with markup sent as application/cloudevents+json, no token',
		EXPECTED.unauthorized,
		form(eventsPath, kit.result(marked), 'application/cloudevents+json'),
	);
}

/** Field names that are Object.prototype's, in refused relays: they must not crash or pollute anything. */
function addPrototypeCases(kit: CaseKit) {
	const { add, form, repliesPath, eventsPath } = kit;
	const names = [
		'__proto__',
		'constructor',
		'toString',
		'hasOwnProperty',
		'prototype',
		'__defineGetter__',
	];
	const extra = names.flatMap((name): Entries => [
		[name, 'x'],
		[name, 'y'],
	]);
	add(
		'prototype keys',
		'reply with prototype keys twice each, signature broken',
		EXPECTED.unauthorized,
		form(
			repliesPath,
			new URLSearchParams([
				...replaced(kit.inbound(), 'SMS-Verify', '0'.repeat(32)),
				...extra,
			]).toString(),
		),
	);
	add(
		'prototype keys',
		'genuine reply with prototype keys and a bad timestamp',
		EXPECTED.malformed,
		form(
			repliesPath,
			new URLSearchParams([
				...replaced(kit.inbound(), 'SMS-TimeStamp', 'never'),
				...extra,
			]).toString(),
		),
	);
	add(
		'prototype keys',
		'receipt with prototype keys, signature broken',
		EXPECTED.unauthorized,
		form(
			eventsPath,
			new URLSearchParams([
				...replaced(kit.receipt(), 'SMS-Verify', '0'.repeat(32)),
				...extra,
			]).toString(),
		),
	);
	const json = kit
		.result()
		.replace(
			/^\{/,
			'{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},',
		);
	add(
		'prototype keys',
		'processing result with __proto__ and constructor, no token',
		EXPECTED.unauthorized,
		form(eventsPath, json, JSON_TYPE),
	);
	add(
		'prototype keys',
		'processing result with __proto__ and a bad FinishedAt',
		EXPECTED.malformed,
		form(kit.withToken, json.replace(/"FinishedAt":"[^"]*"/, '"FinishedAt":"never"'), JSON_TYPE),
	);
}
