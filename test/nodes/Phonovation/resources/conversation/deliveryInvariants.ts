/**
 * The promises of Conversation → Deliver Reply and Deliver Receipt, and of the numbering plans,
 * as invariants over generated runs (the way campaign/invariants.ts does it for the campaign).
 *
 * A delivery run is a Question Log with genuine rows (questions and texts waiting for a receipt,
 * asked at generated times, some after a Retry of their execution) mixed with hostile rows (a
 * genuine row's resume URL with dot-segments, encoded slashes, another host, port or scheme, a
 * user and password, extra segments, a production-webhook path, another execution than its Notify
 * ID names, a broken seal or retry binding…), and a sequence of deliveries: signed relays (number
 * and text) delivered again and again with fresh unsigned fields (time stamp, linked Notify ID),
 * and receipts. Each delivery runs the Phonovation node in the real n8n-core engine; its posts go
 * over real HTTP to a played n8n whose waiting webhooks run the waiting node's own webhook()
 * (receiveReply, receiveReceipt) in n8n-core's WebhookContext, or answer as a generated fault (a
 * 5xx, a timeout, a reset, a redirect, a 200 that is not the node's answer, 409 while running),
 * some after the run took the delivery. Every HTTP request the process makes is recorded
 * (node:diagnostics_channel), whatever its address.
 *
 * What must hold (labels, for FUZZ_IGNORE and the failure message):
 * - `1`  no request goes anywhere but this n8n's waiting-webhook address of a genuine row, with a
 *        proof for that row's own question (a forged row is never posted to);
 *   `1r` no redirect is followed;
 *   `1u` every hostile row the operation read is listed in `unusableRows`, and no genuine one;
 *   `V`  an unverified reply or receipt is posted nowhere.
 * - `2once` a delivery resumes at most one run, and the item says resumed only for the run it resumed
 *          (a run resumes once: a replay finds it finished). Without the Answer Code a replay with a
 *          fresh time stamp may answer another question still waiting: documented (docs/conversations.md,
 *          Replays), so not checked; with it, `2code` keeps a replayed answer from any other question;
 *   `2age`  a reply whose time stamp is more than CLOCK_SKEW_MS before its question (or has none)
 *           never answers it;
 *   `2code` with the Answer Code on, a reply without the question's code never answers it (a
 *           replayed answer does not settle a later question);
 *   `2who`  a reply from another number never answers; `K` a delivery resumes only a run of its
 *           kind waiting for it (a receipt, the run of its text);
 *   `2same` the very relay (number, text, time stamp) that answered a question is posted nowhere
 *           again and says `alreadyAnswered` (no other delivery says it); one whose delivery may
 *           have answered (unconfirmed) is posted again to that question only;
 *   `M`     a signed text first delivered from another number (the From/Content boundary moved)
 *           says `replay` (no paid answer), whatever became of the first; no other says it.
 * - `3`  after an answer whose outcome is unknown (5xx, timeout, reset, redirect, a 200 not the
 *        node's), the delivery is offered to no other run and the item says `unconfirmed` with
 *        that run (or, tried again, `resumed` by it); `unconfirmed` only after such an answer.
 * - `R`  a run that answered `resumed: true` is reported resumed; `L` an answer a waiting run would
 *        take is not lost (the item resumes some run, or says why it could not know);
 *   `E`  the node fails only after every try met a run still running (409).
 * - numbering (`numberingProperty`): `N` a national form under a Default Country Code is never read
 *   as another number than libphonenumber-js reads; `Nr` one written with its trunk prefix is read
 *   as it, or refused naming it; `Nx` excluded as that number; `Nt` toMsisdn agrees with normaliseMsisdn.
 *
 * Used by deliveryInvariants.property.test.ts (fixed seed, in `npm test`), by
 * test/nodes/Phonovation/domain/numberingPlans.property.test.ts, and by `npm run fuzz`.
 */
import type { LoggedQuestion } from '../../../../../nodes/Phonovation/resources/conversation/questionLog';
import diagnostics from 'node:diagnostics_channel';
import {
	ClientRequest,
	createServer,
	type IncomingMessage,
	type Server,
	type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';

import fc from 'fast-check';
import type { CountryCode } from 'libphonenumber-js';
import {
	getCountries,
	getCountryCallingCode,
	parsePhoneNumberFromString,
} from 'libphonenumber-js/max';
import metadata from 'libphonenumber-js/metadata.max.json';
import { WebhookContext } from 'n8n-core';
import type {
	IDataObject,
	INode,
	IWebhookData,
	IWebhookDescription,
	IWebhookResponseData,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';

import { NUMBERINGS } from '../../../../../nodes/Phonovation/domain/numberingPlans';
import {
	normaliseMsisdn,
	suppressionForms,
	toMsisdn,
} from '../../../../../nodes/Phonovation/domain/phoneNumbers';
import {
	answerCodeOf,
	withoutCode,
} from '../../../../../nodes/Phonovation/resources/conversation/ask/answerCodes';
import { approvalWordsOf } from '../../../../../nodes/Phonovation/resources/conversation/ask/answers';
import { provenReceipt } from '../../../../../nodes/Phonovation/resources/conversation/proof/receiptProof';
import { CLOCK_SKEW_MS } from '../../../../../nodes/Phonovation/resources/conversation/ask/receiveReply';
import {
	provenReply,
	signedTextMark,
} from '../../../../../nodes/Phonovation/resources/conversation/proof/replyProof';
import { recordedResumeUrl } from '../../../../../nodes/Phonovation/resources/conversation/proof/retryBinding';
import { sealToken } from '../../../../../nodes/Phonovation/resources/conversation/proof/sealedResumeToken';
import { ApprovalReader } from '../../../../../nodes/Phonovation/resources/conversation/ask/approvalWords';
import {
	questionOf,
	questionRef,
} from '../../../../../nodes/Phonovation/resources/conversation/proof/questionRef';
import { additionalDataFor } from '../../../../harness/engine';
import { QUESTION_LOG, QuestionLog } from '../../../../harness/question-log';
import { RecordingResponse } from '../../../../harness/webhook';
import { NODE_TYPE, type PhonovationFixture } from '../../fixture';

// ─── The world: one number asked, questions by execution ────────────────────────────────────────

/** The number every question asks; a reply from ANOTHER_PHONE answers none of them. */
export const PHONE = '353871234567';
const ANOTHER_PHONE = '353861112223';
/** The waiting node's id: every question is asked by it (a Notify ID names node and number). */
const NODE_ID = 'ask-node';
/** Question i's Notify ID names execution FIRST + i; after a Retry it waits under RETRY + i. */
const FIRST_EXECUTION = 40;
const RETRY_EXECUTION = 60;
/** Executions no question of the run is in: a stranger row's Notify ID names one, a swapped URL the other. */
const STRANGER_EXECUTION = '99';
const OTHER_EXECUTION = '98';
const NOT_A_REFERENCE = 'order-2026-0042';

/** What the node's posts wait for an answer (waitingRuns.ts): a generated timeout ends at HANG_MS. */
const REQUEST_TIMEOUT_MS = 30_000;
export const HANG_MS = 150;
/** The pauses between tries (Deliver Reply 1 s, 2 s; Deliver Receipt up to 8 s), taken at once here. */
const PAUSES = new Set([1_000, 2_000, 4_000, 8_000]);

const FINISHED_PAGE = '<html><title>No action required</title></html>';

// ─── What a resume URL answers ───────────────────────────────────────────────────────────────────

/**
 * A waiting webhook's answers other than the node's own. `outcome`: what the node can know of it
 * (`unknown`: may have resumed the run, `unconfirmed` the same without a second try, `notTaken`:
 * n8n refused before running anything). `mayTake`: the run can have taken it first (a proxy's page
 * in front of a resumed run, an answer lost on the way).
 */
export const RESUME_FAULTS = {
	'500': { outcome: 'unknown', mayTake: true },
	'502 page': { outcome: 'unknown', mayTake: true },
	'503 json': { outcome: 'unknown', mayTake: true },
	'504 page': { outcome: 'unknown', mayTake: true },
	timeout: { outcome: 'unknown', mayTake: true },
	reset: { outcome: 'unknown', mayTake: true },
	'301 elsewhere': { outcome: 'unconfirmed', mayTake: false },
	'302 elsewhere': { outcome: 'unconfirmed', mayTake: false },
	'307 elsewhere': { outcome: 'unconfirmed', mayTake: false },
	'308 elsewhere': { outcome: 'unconfirmed', mayTake: false },
	'200 not ours': { outcome: 'unconfirmed', mayTake: true },
	'409 running': { outcome: 'notTaken', mayTake: false },
} as const;
export type ResumeFault = keyof typeof RESUME_FAULTS;

/** One answer of a resume URL; after its list, the node answers for itself. */
export interface ResumeAnswer {
	fault: ResumeFault;
	/** The run took the delivery before this answer (only where the fault allows). */
	takes: boolean;
}

// ─── Hostile resume URLs ─────────────────────────────────────────────────────────────────────────

/** What a mutation builds a URL from: the genuine row's parts and the addresses of the world. */
interface UrlParts {
	/** `http://127.0.0.1:<port>`: this n8n. */
	origin: string;
	port: number;
	/** `<origin>/webhook-waiting/`. */
	base: string;
	/** Another server, on another port: accepts anything, as an attacker's would. */
	elsewhere: string;
	/** The execution the row's URL names (the run's), and the query n8n's node wrote. */
	execution: string;
	query: string;
	genuine: string;
	token: string;
	reference: string;
	secret: string;
	waitsFor: 'reply' | 'receipt';
	retried: boolean;
	/** The genuine URL of another question's run (the row's reference does not name it). */
	otherRunUrl: string;
}

/**
 * Resume URLs a Question Log row must not be posted to (resumeUrl.ts), built from a genuine one.
 * `only`: the kind of row it is hostile for (a seal is a receipt's, a binding a retried row's).
 */
export const MUTATIONS: Record<
	string,
	{ make: (p: UrlParts) => string; only?: (p: UrlParts) => boolean }
> = {
	'dot-segment to a production webhook': {
		make: (p) => `${p.base}../webhook/${p.execution}/steal?${p.query}`,
	},
	'dot-segment that comes back': {
		make: (p) => `${p.base}../webhook-waiting/${p.execution}/${NODE_ID}?${p.query}`,
	},
	'single-dot segment': { make: (p) => `${p.base}./${p.execution}/${NODE_ID}?${p.query}` },
	'encoded dot-segment': {
		make: (p) => `${p.base}%2e%2e/webhook/${p.execution}/steal?${p.query}`,
	},
	'half-encoded dot-segment': {
		make: (p) => `${p.base}.%2E/webhook/${p.execution}/steal?${p.query}`,
	},
	'encoded slash': { make: (p) => `${p.base}${p.execution}%2f${NODE_ID}?${p.query}` },
	'encoded slashes climbing out': {
		make: (p) =>
			`${p.base}${p.execution}%2F..%2F..%2Fwebhook%2F${p.execution}%2F${NODE_ID}?${p.query}`,
	},
	'encoded backslash': { make: (p) => `${p.base}${p.execution}/${NODE_ID}%5c..?${p.query}` },
	backslash: { make: (p) => `${p.base}..\\webhook/${p.execution}/x?${p.query}` },
	'another host': {
		make: (p) => p.genuine.replace(p.origin, 'http://attacker.example'),
	},
	'another host name': {
		make: (p) => p.genuine.replace(p.origin, `http://localhost:${p.port}`),
	},
	'another port': { make: (p) => p.genuine.replace(p.origin, p.elsewhere) },
	'another scheme': {
		make: (p) => p.genuine.replace(p.origin, `https://127.0.0.1:${p.port}`),
	},
	'a user and password': {
		make: (p) => p.genuine.replace(p.origin, `http://user:pass@127.0.0.1:${p.port}`),
	},
	'a host after a user': {
		make: (p) => p.genuine.replace(p.origin, `http://127.0.0.1:${p.port}@${p.elsewhere.slice(7)}`),
	},
	'a production webhook': {
		make: (p) => `${p.origin}/webhook/${p.execution}/${NODE_ID}?${p.query}`,
	},
	'a test webhook': {
		make: (p) => `${p.origin}/webhook-test/${p.execution}/${NODE_ID}?${p.query}`,
	},
	'another path prefix': {
		make: (p) => `${p.origin}/x/webhook-waiting/${p.execution}/${NODE_ID}?${p.query}`,
	},
	"the run's own URL": { make: (p) => `${p.base}${p.execution}?${p.query}` },
	'an extra segment': { make: (p) => `${p.base}${p.execution}/${NODE_ID}/more?${p.query}` },
	'a trailing slash': { make: (p) => `${p.base}${p.execution}/${NODE_ID}/?${p.query}` },
	'an execution id that is not digits': {
		make: (p) => `${p.base}${p.execution}a/${NODE_ID}?${p.query}`,
	},
	'a fragment': { make: (p) => `${p.genuine}#x` },
	'no query': { make: (p) => `${p.base}${p.execution}/${NODE_ID}` },
	'a short signature': { make: (p) => `${p.base}${p.execution}/${NODE_ID}?signature=abc` },
	'another query parameter': {
		make: (p) => `${p.genuine}&next=${encodeURIComponent(p.elsewhere)}`,
	},
	'the query twice': { make: (p) => `${p.genuine}&${p.query}` },
	'a trailing space': { make: (p) => `${p.genuine} ` },
	'a tab a parser would drop': {
		make: (p) =>
			`${p.base}${p.execution.slice(0, 1)}\t${p.execution.slice(1)}/${NODE_ID}?${p.query}`,
	},
	'another execution than its Notify ID names': { make: (p) => p.otherRunUrl },
	'another node of the same run': {
		make: (p) => p.genuine.replace(`/${NODE_ID}?`, '/other-node?'),
	},
	'sealed under another secret': {
		make: (p) =>
			`${p.base}${p.execution}/${NODE_ID}?sealed=${sealToken(p.token, { executionId: p.execution, nodeId: NODE_ID }, `${p.secret}-other`)}`,
		only: (p) => p.waitsFor === 'receipt' && !p.retried,
	},
	'sealed for another execution': {
		make: (p) =>
			`${p.base}${p.execution}/${NODE_ID}?sealed=${sealToken(p.token, { executionId: STRANGER_EXECUTION, nodeId: NODE_ID }, p.secret)}`,
		only: (p) => p.waitsFor === 'receipt' && !p.retried,
	},
	'sealed and signed': {
		make: (p) => `${p.genuine}&signature=${p.token}`,
		only: (p) => p.waitsFor === 'receipt',
	},
	'a retry binding where none is due': {
		make: (p) => `${p.genuine}&bound=${'0'.repeat(64)}`,
		only: (p) => !p.retried,
	},
	'a retry binding under another secret': {
		make: (p) =>
			recordedResumeUrl(
				`${p.base}${p.execution}/${NODE_ID}?${p.query.replace(/&bound=.*$/, '')}`,
				{ reference: p.reference, executionId: p.execution, nodeId: NODE_ID },
				`${p.secret}-other`,
			),
		only: (p) => p.retried,
	},
	'a retry binding for another node': {
		make: (p) =>
			recordedResumeUrl(
				`${p.base}${p.execution}/${NODE_ID}?${p.query.replace(/&bound=.*$/, '')}`,
				{ reference: p.reference, executionId: p.execution, nodeId: 'other-node' },
				p.secret,
			),
		only: (p) => p.retried,
	},
};
export type Mutation = string;

// ─── Generated runs ──────────────────────────────────────────────────────────────────────────────

export interface GeneratedQuestion {
	/** `reply`: Send and Wait for Reply; `receipt`: Send and Wait for Delivery. */
	waitsFor: 'reply' | 'receipt';
	/** Waits under a Retry of the execution its Notify ID names (the row carries a binding). */
	retried: boolean;
	askedMinutesAgo: number;
	/** The row's expiresAt: later, never, or already past (the run still waits). */
	expires: 'later' | 'never' | 'past';
	answerCode: boolean;
	responseType: 'approval' | 'freeText';
	/** Asked (its row and run appear) just before this delivery; 0: before the first. */
	appearsBefore: number;
	/** What its resume URL answers, post after post, before the node answers for itself. */
	answers: ResumeAnswer[];
	/** Its row's URL as the node wrote it, or with the scheme in capitals (the same address). */
	genuineForm: 'asRecorded' | 'upperScheme';
}

export interface Forgery {
	/**
	 * Whose row it copies (its reference and number): a question (index), or none; `madeUpCode`
	 * copies the first question's URL unchanged under a reference in the shape of its own with a
	 * made-up code.
	 */
	of: number | 'stranger' | 'notAReference' | 'madeUpCode';
	mutation: Mutation;
	/** In the log before the genuine row. */
	first: boolean;
}

/** A signed relay: the provider signs its number and text; everything else may change. */
export interface Relay {
	/** `moved`: the relay before it with the From/Content boundary moved by a digit (a replay). */
	from: 'asked' | 'another' | 'moved';
	word: 'YES' | 'NO' | 'Yes please' | 'what time?' | 'STOP';
	/** The code it carries: a question's (index), a wrong one, or none. */
	code: number | 'wrong' | null;
	codeFirst: boolean;
}

/** A delivery's unsigned time stamp. `first`: the one the relay was first delivered with. */
export type Stamp =
	'now' | 'missing' | 'first' | 'dayAgo' | { before: number; by: 'withinSkew' | 'beyondSkew' };

/** A reply's unsigned link: a question's Notify ID (index), a reminder's, another run's. */
export type Link = null | number | 'reminder' | 'strangerRef';

export type GeneratedDelivery =
	| { kind: 'reply'; relay: number; stamp: Stamp; link: Link; verified: boolean }
	| {
			kind: 'receipt';
			of: number;
			/** Reports on a question's text, not a text waiting for its receipt. */
			ofAQuestion: boolean;
			source: 'deliveryReceipt' | 'processingResult';
			delivered: boolean;
			verified: boolean;
	  };

export interface DeliveryRun {
	questions: GeneratedQuestion[];
	forgeries: Forgery[];
	relays: Relay[];
	deliveries: GeneratedDelivery[];
}

const weighted = <T>(...choices: Array<[number, T]>) =>
	fc.oneof(...choices.map(([weight, value]) => ({ weight, arbitrary: fc.constant(value) })));

const faultNames = Object.keys(RESUME_FAULTS) as ResumeFault[];
const resumeAnswer: fc.Arbitrary<ResumeAnswer> = fc
	.record({ fault: fc.constantFrom(...faultNames), takes: fc.boolean() })
	.map(({ fault, takes }) => ({ fault, takes: takes && RESUME_FAULTS[fault].mayTake }));

const generatedQuestion: fc.Arbitrary<GeneratedQuestion> = fc.record({
	waitsFor: weighted<GeneratedQuestion['waitsFor']>([2, 'reply'], [1, 'receipt']),
	retried: weighted([5, false], [1, true]),
	askedMinutesAgo: fc.integer({ min: 0, max: 180 }),
	expires: weighted<GeneratedQuestion['expires']>([5, 'later'], [1, 'never'], [1, 'past']),
	answerCode: fc.boolean(),
	responseType: weighted<GeneratedQuestion['responseType']>([3, 'approval'], [1, 'freeText']),
	appearsBefore: weighted([6, 0], [1, 1], [1, 2]),
	answers: fc.oneof(
		{ weight: 3, arbitrary: fc.constant<ResumeAnswer[]>([]) },
		{ weight: 1, arbitrary: fc.array(resumeAnswer, { minLength: 1, maxLength: 3 }) },
	),
	genuineForm: weighted<GeneratedQuestion['genuineForm']>([6, 'asRecorded'], [1, 'upperScheme']),
});

const forgery: fc.Arbitrary<Forgery> = fc.record({
	of: fc.oneof(
		{ weight: 6, arbitrary: fc.nat(3) },
		{ weight: 1, arbitrary: fc.constant<'stranger'>('stranger') },
		{ weight: 1, arbitrary: fc.constant<'notAReference'>('notAReference') },
		{ weight: 1, arbitrary: fc.constant<'madeUpCode'>('madeUpCode') },
	),
	mutation: fc.constantFrom(...Object.keys(MUTATIONS)),
	first: fc.boolean(),
});

const relay: fc.Arbitrary<Relay> = fc.record({
	from: weighted<Relay['from']>([6, 'asked'], [1, 'another'], [1, 'moved']),
	word: fc.constantFrom<Relay['word']>('YES', 'NO', 'Yes please', 'what time?', 'STOP'),
	code: fc.oneof(
		{ weight: 2, arbitrary: fc.constant(null) },
		{ weight: 3, arbitrary: fc.nat(3) },
		{ weight: 1, arbitrary: fc.constant<'wrong'>('wrong') },
	),
	codeFirst: fc.boolean(),
});

const stamp: fc.Arbitrary<Stamp> = fc.oneof(
	{ weight: 4, arbitrary: fc.constant<Stamp>('now') },
	{ weight: 1, arbitrary: fc.constant<Stamp>('missing') },
	{ weight: 2, arbitrary: fc.constant<Stamp>('first') },
	{ weight: 1, arbitrary: fc.constant<Stamp>('dayAgo') },
	{
		weight: 3,
		arbitrary: fc.record({
			before: fc.nat(3),
			by: fc.constantFrom<'withinSkew' | 'beyondSkew'>('withinSkew', 'beyondSkew'),
		}),
	},
);

const link: fc.Arbitrary<Link> = fc.oneof(
	{ weight: 3, arbitrary: fc.constant(null) },
	{ weight: 3, arbitrary: fc.nat(3) },
	{ weight: 1, arbitrary: fc.constant<Link>('reminder') },
	{ weight: 1, arbitrary: fc.constant<Link>('strangerRef') },
);

const generatedDelivery: fc.Arbitrary<GeneratedDelivery> = fc.oneof(
	{
		weight: 4,
		arbitrary: fc.record({
			kind: fc.constant<'reply'>('reply'),
			relay: fc.nat(1),
			stamp,
			link,
			verified: weighted([12, true], [1, false]),
		}),
	},
	{
		weight: 1,
		arbitrary: fc.record({
			kind: fc.constant<'receipt'>('receipt'),
			of: fc.nat(3),
			ofAQuestion: weighted([8, false], [1, true]),
			source: weighted<'deliveryReceipt' | 'processingResult'>(
				[3, 'deliveryReceipt'],
				[1, 'processingResult'],
			),
			delivered: fc.boolean(),
			verified: weighted([12, true], [1, false]),
		}),
	},
);

export const deliveryRun: fc.Arbitrary<DeliveryRun> = fc.record({
	questions: fc.array(generatedQuestion, { minLength: 1, maxLength: 4 }),
	forgeries: fc.array(forgery, { maxLength: 5 }),
	relays: fc.array(relay, { minLength: 1, maxLength: 2 }),
	deliveries: fc.array(generatedDelivery, { minLength: 1, maxLength: 5 }),
});

// ─── The played n8n ──────────────────────────────────────────────────────────────────────────────

/** A question as asked in a run: its execution, Notify ID, code, the run waiting for it. */
export interface Asked {
	index: number;
	waitsFor: 'reply' | 'receipt';
	/** The execution the run waits under (the Retry's, when retried). */
	execution: string;
	reference: string;
	/** n8n's token for the run: the node-signed URL's signature, sealed in a receipt row. */
	token: string;
	code: string;
	answerCode: boolean;
	responseType: 'approval' | 'freeText';
	askedAt?: string;
	appeared: boolean;
	/** The URL the run's row records, and the address the rule must rebuild from it. */
	url: string;
	address: string;
	/** What its resume URL answers next (consumed as posts come). */
	pending: ResumeAnswer[];
	finished: boolean;
	/** Its webhook is running (n8n answers another request for the run 409 meanwhile). */
	busy?: boolean;
	/** The delivery that resumed it, and with what. */
	resumedBy?: { delivery: number; body: IDataObject };
}

/** A row of the log as the run put it there. */
export interface LoggedRow extends LoggedQuestion {
	/** For the oracle: the question whose genuine row it is, or the mutation that forged it. */
	genuineOf?: number;
	mutation?: Mutation;
}

/** What this n8n's webhook endpoint saw and answered. */
export interface ServerPost {
	delivery: number;
	host: string;
	path: string;
	search: string;
	body: IDataObject;
	/** The question whose run's address it was, if any. */
	question?: number;
	/** `node` (the waiting node answered), a fault, or n8n's own (finished, unknown, bad token…). */
	answered: string;
	status?: number;
	/** The node's answer said `resumed: true`. */
	saidResumed: boolean;
	/** The run resumed while this request was handled. */
	tookIt: boolean;
}

/** A request the process made, wherever it went. */
export interface ClientRequestSeen {
	delivery: number;
	url: string;
}

const listen = async (server: Server) =>
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

const readBody = async (req: IncomingMessage) =>
	await new Promise<string>((resolve) => {
		let raw = '';
		req.on('data', (chunk) => (raw += chunk));
		req.on('end', () => resolve(raw));
	});

const parsedJson = (raw: string): IDataObject => {
	try {
		const value = JSON.parse(raw || '{}') as unknown;
		return value && typeof value === 'object' ? (value as IDataObject) : {};
	} catch {
		return {};
	}
};

/** Every answer goes with `Connection: close`: no socket is reused after a reset. */
function answer(res: ServerResponse, status: number, body: unknown, headers = {}) {
	const json = typeof body !== 'string';
	res
		.writeHead(status, {
			'content-type': json ? 'application/json' : 'text/html',
			connection: 'close',
			...headers,
		})
		.end(json ? JSON.stringify(body) : body);
}

/** This n8n, played: its waiting webhooks, and a 307 to the other host on every other path. */
class PlayedN8n {
	readonly server: Server;
	origin = '';
	port = 0;
	elsewhere = '';
	delivery = -1;
	readonly posts: ServerPost[] = [];
	/** By execution: the runs waiting (or that waited) in this run. */
	readonly runs = new Map<string, Asked>();
	private hanging: ServerResponse[] = [];

	constructor(private readonly fixture: PhonovationFixture) {
		this.server = createServer((req, res) => {
			void readBody(req)
				.then(async (raw) => await this.handle(req, res, raw))
				.catch((error: Error) => answer(res, 500, { message: error.message }));
		});
	}

	async start(elsewhere: string) {
		await listen(this.server);
		this.port = (this.server.address() as AddressInfo).port;
		this.origin = `http://127.0.0.1:${this.port}`;
		this.elsewhere = elsewhere;
	}

	reset() {
		this.posts.length = 0;
		this.runs.clear();
		this.delivery = -1;
		this.dropHanging();
	}

	dropHanging() {
		for (const res of this.hanging) res.socket?.destroy();
		this.hanging = [];
	}

	/** Whether the request will meet a generated timeout (its socket timeout is cut to HANG_MS). */
	hangsNext(request: ClientRequest): boolean {
		if (request.getHeader('host') !== `127.0.0.1:${this.port}`) return false;
		const match = /^\/webhook-waiting\/([^/?]+)\//.exec(request.path);
		const run = match ? this.runs.get(match[1]) : undefined;
		return run?.pending[0]?.fault === 'timeout';
	}

	private async handle(req: IncomingMessage, res: ServerResponse, raw: string) {
		const url = new URL(req.url ?? '/', this.origin);
		const post: ServerPost = {
			delivery: this.delivery,
			host: String(req.headers.host ?? ''),
			path: url.pathname,
			search: url.search,
			body: parsedJson(raw),
			answered: '',
			saidResumed: false,
			tookIt: false,
		};
		this.posts.push(post);
		const send = (answered: string, status: number, body: unknown, headers = {}) => {
			post.answered = answered;
			post.status = status;
			answer(res, status, body, headers);
		};
		const waiting = /^\/webhook-waiting\/([^/]+)\/([^/]+)$/.exec(url.pathname);
		// A production webhook whose workflow answers with a redirect (Respond to Webhook).
		if (!waiting)
			return send('not a waiting webhook: 307', 307, '', {
				location: `${this.elsewhere}${url.pathname}`,
			});
		const run = this.runs.get(waiting[1]);
		if (!run)
			return send('unknown execution', 404, {
				message: `The execution "${waiting[1]}" does not exist`,
			});
		post.question = run.index;
		if (run.finished || waiting[2] !== NODE_ID) return send('finished', 200, FINISHED_PAGE);
		if (url.searchParams.get('signature') !== run.token)
			return send('bad token', 401, { message: 'Invalid token' });
		// A try after a timeout can come while the first still runs the node.
		if (run.busy)
			return send('409 running', 409, {
				message: `The execution "${run.execution}" is running already.`,
			});
		const step = run.pending.shift();
		if (!step) {
			const { status, body } = await this.resume(run, post);
			post.saidResumed = (body as IDataObject)?.resumed === true;
			return send('node', status, body);
		}
		if (step.takes) await this.resume(run, post);
		const fault = step.fault;
		if (fault === 'timeout') {
			post.answered = 'timeout';
			this.hanging.push(res);
			return;
		}
		if (fault === 'reset') {
			post.answered = 'reset';
			req.socket.destroy();
			return;
		}
		if (fault.endsWith('elsewhere'))
			return send(fault, Number(fault.slice(0, 3)), '', {
				location: `${this.elsewhere}/collect`,
			});
		if (fault === '409 running')
			return send(fault, 409, { message: `The execution "${run.execution}" is running already.` });
		if (fault === '200 not ours') return send(fault, 200, { ok: true });
		if (fault === '503 json') return send(fault, 503, { message: 'Service Unavailable' });
		if (fault === '500') return send(fault, 500, { message: 'Internal Server Error' });
		return send(fault, Number(fault.slice(0, 3)), `<html>${fault.slice(0, 3)} Bad Gateway</html>`);
	}

	/** The waiting node's webhook(), in n8n-core's WebhookContext for its execution. */
	private async resume(run: Asked, post: ServerPost): Promise<{ status: number; body: unknown }> {
		run.busy = true;
		try {
			return await this.webhook(run, post);
		} finally {
			run.busy = false;
		}
	}

	private async webhook(run: Asked, post: ServerPost): Promise<{ status: number; body: unknown }> {
		const { engine } = this.fixture;
		const node = waitingNode(run);
		const response = new RecordingResponse();
		const httpRequest = {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			query: {},
			params: {},
			body: post.body,
			header: () => undefined,
			get: () => undefined,
		};
		const additionalData = {
			...additionalDataFor(engine.credentials, undefined, run.execution),
			httpRequest,
			httpResponse: response,
		} as unknown as IWorkflowExecuteAdditionalData;
		const workflow = engine.workflow([node]);
		const nodeType = engine.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
		const webhookDescription = nodeType.description.webhooks?.[0] as IWebhookDescription;
		const webhookData = {
			httpMethod: 'POST',
			node: node.name,
			path: NODE_ID,
			webhookDescription,
			workflowId: workflow.id,
			isTest: false,
		} as unknown as IWebhookData;
		const context = new WebhookContext(
			workflow,
			node,
			additionalData,
			'webhook',
			webhookData,
			[],
			null,
		);
		let result: IWebhookResponseData;
		try {
			result = await nodeType.webhook!.call(context);
		} catch (error) {
			// n8n answers an exception from webhook() with a 500 (and would resume the run as failed).
			return { status: 500, body: { message: (error as Error).message } };
		}
		if (result.workflowData !== undefined) {
			run.finished = true;
			run.resumedBy = { delivery: post.delivery, body: post.body };
			post.tookIt = true;
		}
		return { status: response.statusCode, body: response.body };
	}
}

/** The waiting node as its run paused it: what was asked, of whom, when (its paused item). */
function waitingNode(run: Asked): INode {
	const common = {
		resource: 'conversation',
		recipients: PHONE,
		questionLog: QUESTION_LOG,
	};
	const parameters =
		run.waitsFor === 'reply'
			? {
					...common,
					operation: 'sendAndWait',
					from: '353851234567',
					message: 'Reply YES to confirm',
					responseType: run.responseType,
					options: run.answerCode ? { answerCode: true } : {},
					waitingItem: { to: PHONE, askedAt: run.askedAt ?? '', notifyId: run.reference },
				}
			: {
					...common,
					operation: 'sendAndWaitForDelivery',
					from: 'Phonovation',
					message: 'Reminder: your appointment is tomorrow at 10:00',
					options: {},
					waitingItem: { notifyId: run.reference, sentAt: run.askedAt ?? '', to: PHONE },
				};
	return {
		id: NODE_ID,
		name: 'Ask',
		type: NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters,
		credentials: { phonovationApi: { id: 'cred-1', name: 'Phonovation' } },
	};
}

/** The other host: anything that reaches it is recorded and told it resumed a run. */
function elsewhereServer() {
	const server = createServer((req, res) => {
		void readBody(req).then(() => answer(res, 200, { resumed: true, answer: 'yes' }));
	});
	return server;
}

export interface DeliveryWorld {
	fixture: PhonovationFixture;
	n8n: PlayedN8n;
	elsewhere: string;
	log: QuestionLog;
	secret: string;
	/** Every request the process made during a delivery (diagnostics_channel). */
	requests: ClientRequestSeen[];
	stop(): Promise<void>;
}

/** The played n8n and the other host started, the engine pointed at them, requests recorded. */
export async function startDeliveryWorld(fixture: PhonovationFixture): Promise<DeliveryWorld> {
	const n8n = new PlayedN8n(fixture);
	const other = elsewhereServer();
	await listen(other);
	const elsewhere = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
	await n8n.start(elsewhere);
	const requests: ClientRequestSeen[] = [];
	const created = diagnostics.channel('http.client.request.created');
	const record = (message: unknown) => {
		if (n8n.delivery < 0) return;
		const { request } = message as { request: ClientRequest };
		const host = String(request.getHeader('host') ?? request.host);
		requests.push({ delivery: n8n.delivery, url: `${request.protocol}//${host}${request.path}` });
	};
	created.subscribe(record);
	return {
		fixture,
		n8n,
		elsewhere,
		log: new QuestionLog(fixture.engine),
		secret: fixture.sim.config.relaySecret,
		requests,
		stop: async () => {
			created.unsubscribe(record);
			n8n.dropHanging();
			n8n.server.closeAllConnections();
			other.closeAllConnections();
			await Promise.all(
				[n8n.server, other].map(
					async (server) => await new Promise((resolve) => server.close(resolve)),
				),
			);
		},
	};
}

/**
 * Retry pauses taken at once, and a post to a URL that will not answer given up after HANG_MS
 * instead of 30 s, while a run executes. Undone by the returned function.
 */
function quickTime(n8n: PlayedN8n): () => void {
	const realSetTimeout = globalThis.setTimeout;
	const quick = ((handler: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) =>
		realSetTimeout(
			handler,
			ms !== undefined && PAUSES.has(ms) ? 0 : ms,
			...args,
		)) as typeof setTimeout;
	Object.defineProperty(quick, promisify.custom, {
		value: (realSetTimeout as unknown as Record<symbol, unknown>)[promisify.custom],
	});
	globalThis.setTimeout = quick;
	const realRequestTimeout = ClientRequest.prototype.setTimeout;
	ClientRequest.prototype.setTimeout = function (
		this: ClientRequest,
		ms: number,
		callback?: () => void,
	) {
		const cut = ms === REQUEST_TIMEOUT_MS && n8n.hangsNext(this) ? HANG_MS : ms;
		return realRequestTimeout.call(this, cut, callback);
	};
	return () => {
		globalThis.setTimeout = realSetTimeout;
		ClientRequest.prototype.setTimeout = realRequestTimeout;
	};
}

// ─── Running a generated run ─────────────────────────────────────────────────────────────────────

/** One delivery as made and seen. */
export interface DeliverySeen {
	generated: GeneratedDelivery;
	/** The trigger item handed to the node. */
	item: IDataObject;
	/** Before it: the log's rows, and which questions' runs were still waiting. */
	rows: LoggedRow[];
	waiting: number[];
	/** What each question's resume URL would answer next, before it. */
	pending: ResumeAnswer[][];
	/** Before it: the references the log held as settled by this signed text (any number). */
	settledByText: string[];
	output?: IDataObject;
	error?: string;
}

export interface DeliveryObservation {
	asked: Asked[];
	rows: LoggedRow[];
	deliveries: DeliverySeen[];
	posts: ServerPost[];
	requests: ClientRequestSeen[];
	relays: Array<{ from: string; text: string }>;
	/** The other host (where a followed redirect would go), and this n8n's origin. */
	elsewhere: string;
	origin: string;
	secret: string;
}

const index = (i: number, length: number) => ((i % length) + length) % length;

/** The same signed string with the boundary moved: a digit of the text into From, or back. */
function movedCopy({ from, text }: { from: string; text: string }) {
	return /^\d/.test(text)
		? { from: from + text[0], text: text.slice(1) }
		: { from: from.slice(0, -1), text: from.slice(-1) + text };
}

function resolveRelay(
	relay: Relay,
	asked: Asked[],
	before: Array<{ from: string; text: string }>,
): { from: string; text: string } {
	if (relay.from === 'moved') {
		const original = before.at(-1) ?? resolveRelay({ ...relay, from: 'asked' }, asked, []);
		return movedCopy(original);
	}
	const from = relay.from === 'asked' ? PHONE : ANOTHER_PHONE;
	if (relay.code === null) return { from, text: relay.word };
	const code =
		relay.code === 'wrong'
			? String((Number(asked[0].code) + 1) % 10_000).padStart(4, '0')
			: asked[index(relay.code, asked.length)].code;
	return { from, text: relay.codeFirst ? `${code} ${relay.word}` : `${relay.word} ${code}` };
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Runs the generated run: questions asked as they appear, each delivery by the node in the engine. */
export async function execute(
	world: DeliveryWorld,
	run: DeliveryRun,
): Promise<DeliveryObservation> {
	const { fixture, n8n, log, secret } = world;
	fixture.engine.instanceBaseUrl = n8n.origin;
	n8n.reset();
	log.clear();
	world.requests.length = 0;
	const base = `${n8n.origin}/webhook-waiting/`;

	const asked: Asked[] = run.questions.map((q, i) => {
		const first = String(FIRST_EXECUTION + i);
		const execution = q.retried ? String(RETRY_EXECUTION + i) : first;
		const reference = questionRef(
			{ executionId: first, nodeId: NODE_ID, msisdn: PHONE, ask: 0 },
			secret,
		)!;
		const token = (i + 10).toString(16).padStart(2, '0').repeat(32);
		const signed = `${base}${execution}/${NODE_ID}?signature=${token}`;
		const written =
			q.waitsFor === 'reply'
				? signed
				: `${base}${execution}/${NODE_ID}?sealed=${sealToken(token, { executionId: execution, nodeId: NODE_ID }, secret)}`;
		const recorded = recordedResumeUrl(
			written,
			{ reference, executionId: execution, nodeId: NODE_ID },
			secret,
		);
		return {
			index: i,
			waitsFor: q.waitsFor,
			execution,
			reference,
			token,
			code: answerCodeOf(reference, secret),
			answerCode: q.answerCode,
			responseType: q.responseType,
			appeared: false,
			url: q.genuineForm === 'upperScheme' ? recorded.replace(/^http:/, 'HTTP:') : recorded,
			address: signed,
			pending: [...q.answers],
			finished: false,
		};
	});
	const rows: LoggedRow[] = [];
	let keys = 0;
	const put = (row: LoggedRow) => {
		rows.push(row);
		const { genuineOf: _g, mutation: _m, ...stored } = row;
		log.rows.set(`${row.reference}|${keys++}`, { ...stored });
	};
	const partsOf = (a: Asked): UrlParts => {
		const other = asked.find((b) => b.index !== a.index && b.waitsFor === a.waitsFor);
		const query = a.url.slice(a.url.indexOf('?') + 1);
		return {
			origin: n8n.origin,
			port: n8n.port,
			base,
			elsewhere: world.elsewhere,
			execution: a.execution,
			query,
			genuine: a.url.replace(/^HTTP:/, 'http:'),
			token: a.token,
			reference: a.reference,
			secret,
			waitsFor: a.waitsFor,
			retried: a.execution !== a.reference.split('.')[0],
			otherRunUrl: other ? other.url : `${base}${OTHER_EXECUTION}/${NODE_ID}?${query}`,
		};
	};
	const forged = (f: Forgery, a: Asked, at: { askedAt: string; expiresAt: string }): LoggedRow => {
		const parts = partsOf(a);
		if (f.of === 'madeUpCode')
			return {
				reference: `${a.reference.slice(0, a.reference.lastIndexOf('.'))}.${'A'.repeat(12)}`,
				phone: PHONE,
				resumeUrl: parts.genuine,
				...at,
				...(a.waitsFor === 'receipt' ? { waitsFor: 'receipt' as const } : {}),
				mutation: 'a made-up code for the run its URL names',
			};
		const mutation = MUTATIONS[f.mutation];
		const usable = !mutation.only || mutation.only(parts);
		// A mutation that does not apply to this row copies the row under a reference that is no question's.
		const reference = f.of === 'notAReference' || !usable ? NOT_A_REFERENCE : a.reference;
		// A stranger's row names execution 99 and points (mutated) at this question's run: hostile twice.
		const resumeUrl = f.of === 'notAReference' || !usable ? parts.genuine : mutation.make(parts);
		return {
			reference: f.of === 'stranger' && usable ? strangerRef(secret) : reference,
			phone: PHONE,
			resumeUrl,
			...at,
			...(a.waitsFor === 'receipt' ? { waitsFor: 'receipt' as const } : {}),
			mutation: usable ? f.mutation : `${f.mutation} (under a reference that is no question's)`,
		};
	};

	const appear = (a: Asked) => {
		const q = run.questions[a.index];
		const askedAtMs = Date.now() - q.askedMinutesAgo * 60_000;
		a.askedAt = iso(askedAtMs);
		a.appeared = true;
		const expiresAt =
			q.expires === 'never'
				? ''
				: iso(q.expires === 'past' ? Date.now() - 60_000 : Date.now() + 3_600_000);
		const at = { askedAt: a.askedAt, expiresAt };
		const mine = run.forgeries.filter(
			(f) => typeof f.of === 'number' && index(f.of, asked.length) === a.index,
		);
		for (const f of mine.filter((f) => f.first)) put(forged(f, a, at));
		put({
			reference: a.reference,
			phone: PHONE,
			resumeUrl: a.url,
			...at,
			...(a.waitsFor === 'receipt' ? { waitsFor: 'receipt' as const } : {}),
			genuineOf: a.index,
		});
		for (const f of mine.filter((f) => !f.first)) put(forged(f, a, at));
		n8n.runs.set(a.execution, a);
	};
	// Rows of no question: a stranger's reference, or none at all, copying the first question's URL.
	for (const f of run.forgeries.filter((f) => typeof f.of !== 'number')) {
		const now = { askedAt: iso(Date.now()), expiresAt: iso(Date.now() + 3_600_000) };
		put(forged(f, asked[0], now));
	}

	const relays: Array<{ from: string; text: string }> = [];
	for (const r of run.relays) relays.push(resolveRelay(r, asked, relays));
	const firstStamp = new Map<number, string | null>();
	const deliveries: DeliverySeen[] = [];
	const restore = quickTime(n8n);
	try {
		for (let d = 0; d <= run.deliveries.length; d++) {
			for (const a of asked)
				if (!a.appeared && run.questions[a.index].appearsBefore <= d) appear(a);
			if (d === run.deliveries.length) break;
			const generated = run.deliveries[d];
			const item =
				generated.kind === 'reply'
					? replyItem(generated, asked, relays, firstStamp, secret)
					: receiptItem(generated, asked);
			const seen: DeliverySeen = {
				generated,
				item,
				rows: rows.map((r) => ({ ...r })),
				waiting: asked.filter((a) => a.appeared && !a.finished).map((a) => a.index),
				pending: asked.map((a) => [...a.pending]),
				settledByText: settledByText(log, item, secret),
			};
			n8n.delivery = d;
			const operation = generated.kind === 'reply' ? 'deliverReply' : 'deliverReceipt';
			// Each relay in an execution of its own, as the inbox runs one per relay.
			const result = await fixture.run(
				{ resource: 'conversation', operation, questionLog: QUESTION_LOG },
				[{ json: item }],
				{},
				{ executionId: `relay-${d}` },
			);
			n8n.delivery = -1;
			n8n.dropHanging();
			if (result.error) seen.error = result.error.message;
			else seen.output = result.items[0]?.json;
			deliveries.push(seen);
		}
	} finally {
		restore();
		n8n.delivery = -1;
	}
	return {
		asked,
		rows,
		deliveries,
		posts: [...n8n.posts],
		requests: [...world.requests],
		relays,
		elsewhere: world.elsewhere,
		origin: n8n.origin,
		secret,
	};
}

const strangerRef = (secret: string) =>
	questionRef({ executionId: STRANGER_EXECUTION, nodeId: NODE_ID, msisdn: PHONE, ask: 0 }, secret)!;

function stampOf(stamp: Stamp, asked: Asked[], first: string | null | undefined): string | null {
	if (stamp === 'missing') return null;
	if (stamp === 'dayAgo') return iso(Date.now() - 86_400_000);
	if (stamp === 'first') return first === undefined ? iso(Date.now()) : first;
	if (stamp === 'now') return iso(Date.now());
	const question = asked[index(stamp.before, asked.length)];
	if (!question.askedAt) return iso(Date.now());
	const margin = stamp.by === 'withinSkew' ? CLOCK_SKEW_MS - 2_000 : CLOCK_SKEW_MS + 2_000;
	return iso(Date.parse(question.askedAt) - margin);
}

/** The Phonovation Trigger's item for the relay, its unsigned fields generated anew. */
function replyItem(
	delivery: Extract<GeneratedDelivery, { kind: 'reply' }>,
	asked: Asked[],
	relays: Array<{ from: string; text: string }>,
	firstStamp: Map<number, string | null>,
	secret: string,
): IDataObject {
	const r = index(delivery.relay, relays.length);
	const { from, text } = relays[r];
	const receivedAt = stampOf(delivery.stamp, asked, firstStamp.get(r));
	if (!firstStamp.has(r)) firstStamp.set(r, receivedAt);
	const l = delivery.link;
	const notifyId =
		l === null
			? null
			: l === 'reminder'
				? 'reminder-2030-06-01'
				: l === 'strangerRef'
					? strangerRef(secret)
					: asked[index(l, asked.length)].reference;
	return {
		event: /^STOP/.test(text.replace(/^\d+ /, '')) ? 'optOut' : 'inbound',
		verified: delivery.verified,
		from,
		text,
		relayKey: `signed-${from}${text}`,
		unverified: { ...(receivedAt === null ? {} : { receivedAt }), notifyId },
	};
}

/** The receipt's question: among texts waiting for a receipt, or (ofAQuestion) among questions. */
function receiptTarget(
	delivery: Extract<GeneratedDelivery, { kind: 'receipt' }>,
	asked: Asked[],
): Asked {
	const kind = delivery.ofAQuestion ? 'reply' : 'receipt';
	const pool = asked.filter((a) => a.waitsFor === kind);
	const from = pool.length > 0 ? pool : asked;
	return from[index(delivery.of, from.length)];
}

function receiptItem(
	delivery: Extract<GeneratedDelivery, { kind: 'receipt' }>,
	asked: Asked[],
): IDataObject {
	const { reference } = receiptTarget(delivery, asked);
	if (delivery.source === 'processingResult')
		return {
			event: 'processingResult',
			status: 'MESSAGE_ERROR',
			message: 'null/empty MSISDN',
			notifyId: reference,
			finishedAt: iso(Date.now()),
			...(delivery.verified ? {} : { verified: false }),
		};
	return {
		event: 'deliveryReceipt',
		notifyId: reference,
		delivered: delivery.delivered,
		verified: delivery.verified,
		unverified: {
			to: PHONE,
			from: 'Phonovation',
			totalToSend: 1,
			totalSent: delivery.delivered ? 1 : 0,
			totalFailed: delivery.delivered ? 0 : 1,
			receivedAt: iso(Date.now()),
		},
	};
}

// ─── The oracle ──────────────────────────────────────────────────────────────────────────────────

const OUTCOME_OF = (answered: string): 'unknown' | 'unconfirmed' | 'notTaken' | 'known' => {
	if (answered in RESUME_FAULTS) return RESUME_FAULTS[answered as ResumeFault].outcome;
	return 'known';
};

const approval = new ApprovalReader(approvalWordsOf({}));

/** Whether the waiting node would take this reply as its answer (receiveReply.ts, read from its docs). */
function wouldAnswer(a: Asked, item: IDataObject, secret: string): boolean {
	const unverified = (item.unverified ?? {}) as IDataObject;
	const receivedAt = typeof unverified.receivedAt === 'string' ? unverified.receivedAt : null;
	const notifyId = typeof unverified.notifyId === 'string' ? unverified.notifyId : null;
	if (item.from !== PHONE || receivedAt === null || !a.askedAt) return false;
	if (Date.parse(receivedAt) < Date.parse(a.askedAt) - CLOCK_SKEW_MS) return false;
	if (notifyId !== null && notifyId !== a.reference) {
		const another = questionOf(notifyId, { nodeId: NODE_ID, msisdn: PHONE }, secret);
		if (notifyId.startsWith(`${a.execution}.`) || another !== null) return false;
	}
	let text: string | null = String(item.text);
	if (a.answerCode) text = withoutCode(text, a.code);
	if (text === null) return false;
	return item.event === 'optOut' || a.responseType === 'freeText' || approval.read(text) !== null;
}

/** The references of the log's rows a copy of this reply's signed text settled (Find Questions' `settled`). */
function settledByText(log: QuestionLog, item: IDataObject, secret: string): string[] {
	if (item.event === 'deliveryReceipt' || item.event === 'processingResult') return [];
	const reply = { from: String(item.from), text: String(item.text) };
	const mark = `t:${signedTextMark({ ...reply, receivedAt: null, optedOut: false, notifyId: null }, secret)}@`;
	return [...log.rows.values()]
		.filter((row) => String(row.settledBy ?? '').includes(mark))
		.map((row) => String(row.reference));
}

/** Deliver Reply's reason for a relay whose From is no phone number: it is checked for nothing. */
const NO_NUMBER = 'the reply has no number to match';

/** The rows the operation reads for this delivery (Question Log find, then its own filter). */
function rowsRead(seen: DeliverySeen): LoggedRow[] | null {
	const { item, generated } = seen;
	if (generated.kind === 'reply') {
		// Unverified, or with no number: it reads no question.
		if (item.verified !== true) return null;
		if (seen.output?.reason === NO_NUMBER) return null;
		// A copy with its From/Content boundary moved is stopped before any question is read.
		if (seen.output?.replay === true) return [];
		const link = ((item.unverified as IDataObject).notifyId as string | null) ?? '';
		return seen.rows.filter(
			(r) =>
				(r.phone === item.from ||
					(link !== '' && r.reference === link) ||
					seen.settledByText.includes(r.reference)) &&
				r.waitsFor !== 'receipt',
		);
	}
	const vouched =
		item.event === 'processingResult' ? item.verified !== false : item.verified === true;
	if (!vouched) return null;
	const to = item.event === 'deliveryReceipt' ? PHONE : '';
	return seen.rows.filter(
		(r) =>
			(r.phone === to || r.reference === item.notifyId) &&
			r.reference === item.notifyId &&
			r.waitsFor === 'receipt',
	);
}

const sorted = (list: string[]) => [...list].sort();

/** One signed relay delivered twice: the same number, text and time stamp (or none), verified both times. */
function sameRelay(a: IDataObject, b: IDataObject): boolean {
	const stamp = (x: IDataObject) => (x.unverified as IDataObject | undefined)?.receivedAt;
	return (
		a.verified === true &&
		b.verified === true &&
		a.from === b.from &&
		a.text === b.text &&
		stamp(a) === stamp(b)
	);
}

/**
 * One signed text delivered twice, whatever its unsigned fields: the From and Content the provider
 * signs as one string (a copy with a fresh time stamp, or with the boundary between them moved).
 */
function sameSignedText(a: IDataObject, b: IDataObject): boolean {
	return (
		a.verified === true &&
		b.verified === true &&
		`${String(a.from)}${String(a.text)}` === `${String(b.from)}${String(b.text)}`
	);
}

/** The promises a run broke, each starting with its label (`1u: …`). */
export function violationsOf(run: DeliveryRun, seen: DeliveryObservation): string[] {
	const problems: string[] = [];
	const { asked, secret } = seen;
	const byAddress = new Map(asked.map((a) => [a.address, a]));

	seen.deliveries.forEach((delivery, d) => {
		const { generated, item, output } = delivery;
		const kind = generated.kind;
		const label = `delivery ${d} (${kind})`;
		const posts = seen.posts.filter((p) => p.delivery === d);
		const requests = seen.requests.filter((r) => r.delivery === d);
		const read = rowsRead(delivery);
		const genuine = new Map(
			(read ?? []).filter((r) => r.genuineOf !== undefined).map((r) => [r.genuineOf!, r]),
		);

		// 2same. The very relay (number, text, time stamp) that answered a question answers nothing
		// again; one whose delivery may have answered goes to that question only.
		const earlierSame =
			kind === 'reply' && item.verified === true
				? seen.deliveries.slice(0, d).filter((e) => sameRelay(e.item, item))
				: [];
		const answeredBefore = earlierSame.some((e) => e.output?.resumed === true);
		// 2copy. A copy of a signed text that answered (fresh time stamp, boundary moved) answers no
		// question asked before that answer, and may say alreadyAnswered.
		const copyAnswered =
			kind === 'reply' && item.verified === true
				? seen.deliveries
						.slice(0, d)
						.filter(
							(e) =>
								sameSignedText(e.item, item) &&
								(e.output?.resumed === true || e.output?.unconfirmed === true),
						)
				: [];
		// A copy of a delivery whose outcome was unknown (a fresh time stamp) goes where it went.
		const earlierCopies =
			kind === 'reply' && item.verified === true
				? seen.deliveries.slice(0, d).filter((e) => sameSignedText(e.item, item))
				: [];
		const mayHaveAnswered = new Set(
			earlierCopies
				.filter((e) => e.output?.unconfirmed === true && e.output.question)
				.map((e) => String((e.output!.question as IDataObject).reference)),
		);
		// M. A signed text that came first from another number (the boundary moved) says replay, so
		// the inbox gives it no paid answer (its proof still lets it answer this number's questions);
		// nothing else is called one. A delivery with no number never got that far.
		if (kind === 'reply' && item.verified === true && output?.reason !== NO_NUMBER) {
			const first = seen.deliveries
				.slice(0, d)
				.find(
					(e) =>
						e.generated.kind === 'reply' &&
						sameSignedText(e.item, item) &&
						e.output?.reason !== NO_NUMBER,
				);
			const moved = first !== undefined && String(first.item.from) !== String(item.from);
			if (moved && output !== undefined && output.replay !== true)
				problems.push(
					`M: ${label} is its signed text first delivered from ${String(first.item.from)}, yet it says ${JSON.stringify(outcomeOf(output, delivery.error))}`,
				);
			if (!moved && output?.replay === true)
				problems.push(
					`M: ${label} says replay, but its signed text came from no other number first`,
				);
		}
		// 1. Only this n8n's waiting-webhook address of a genuine row the operation read, for its question.
		const redirects = new Set([`${seen.elsewhere}/collect`]);
		for (const p of posts)
			if (p.answered.endsWith('307')) redirects.add(`${seen.elsewhere}${p.path}`);
		for (const request of requests) {
			const target = byAddress.get(request.url);
			if (redirects.has(request.url) || request.url.startsWith(`${seen.elsewhere}/`)) {
				problems.push(`1r: ${label} made a request to the other host: ${request.url}`);
			} else if (!target) {
				problems.push(
					`1: ${label} made a request to ${JSON.stringify(request.url)}, no genuine row's waiting-webhook address`,
				);
			} else if (target.waitsFor !== kind || !genuine.has(target.index)) {
				problems.push(
					`K: ${label} posted to the run of question ${target.index} (waiting for a ${target.waitsFor}), not one it read a genuine row of`,
				);
			}
		}
		for (const p of posts) {
			if (p.question === undefined || p.host !== new URL(seen.origin).host) continue;
			const a = asked[p.question];
			const target = { executionId: a.execution, reference: a.reference };
			const holds =
				kind === 'reply'
					? provenReply(p.body, target, secret) !== null
					: provenReceipt(p.body, target, secret) !== null;
			if (!holds)
				problems.push(
					`1: ${label} posted to question ${a.index}'s run a proof that is not for its Notify ID (a forged row's?)`,
				);
		}
		if (read === null) {
			if (requests.length > 0 || posts.length > 0)
				problems.push(`V: ${label} is unverified, yet ${requests.length} request(s) were made`);
			if (output?.resumed === true) problems.push(`V: ${label} is unverified, yet resumed`);
		}

		// 1u. Every hostile row read is listed unusable, and no genuine row.
		if (output && read !== null) {
			const expected = read.filter((r) => r.mutation !== undefined).map((r) => r.reference);
			const listed = Array.isArray(output.unusableRows)
				? (output.unusableRows as IDataObject[]).map((r) => String(r.reference))
				: [];
			const receiptSkipped =
				kind === 'receipt' && !/^\d+\.\d+\.[\w-]{12}$/.test(String(item.notifyId));
			if (!receiptSkipped && JSON.stringify(sorted(listed)) !== JSON.stringify(sorted(expected)))
				problems.push(
					`1u: ${label} lists unusable rows ${JSON.stringify(sorted(listed))}, the hostile rows it read are ${JSON.stringify(sorted(expected))}`,
				);
		}

		// 2. What resumed, and for what.
		const resumed = asked.filter((a) => a.resumedBy?.delivery === d);
		if (resumed.length > 1)
			problems.push(
				`2once: ${label} resumed ${resumed.length} runs (questions ${resumed.map((a) => a.index).join(', ')})`,
			);
		for (const a of resumed) {
			if (a.waitsFor !== kind)
				problems.push(`K: ${label} resumed question ${a.index}, waiting for a ${a.waitsFor}`);
			if (kind === 'receipt') {
				if (item.notifyId !== a.reference)
					problems.push(`K: ${label} for ${String(item.notifyId)} resumed the run of another text`);
				continue;
			}
			const unverified = item.unverified as IDataObject;
			const stamp = typeof unverified.receivedAt === 'string' ? unverified.receivedAt : null;
			if (stamp === null)
				problems.push(`2age: ${label} without a time stamp answered question ${a.index}`);
			else if (Date.parse(stamp) < Date.parse(a.askedAt!) - CLOCK_SKEW_MS)
				problems.push(
					`2age: ${label} stamped ${stamp} answered question ${a.index} asked at ${a.askedAt} (more than ${CLOCK_SKEW_MS} ms before)`,
				);
			if (a.answerCode && withoutCode(String(item.text), a.code) === null)
				problems.push(
					`2code: ${label} "${String(item.text)}" answered question ${a.index}, whose code ${a.code} it does not carry`,
				);
			if (item.from !== PHONE)
				problems.push(`2who: ${label} from ${String(item.from)} answered question ${a.index}`);
		}

		// 3. After an answer whose outcome is unknown: that run only, and the item says so.
		const toRuns = posts.filter((p) => p.question !== undefined);
		const unknownAt = toRuns.findIndex((p) =>
			['unknown', 'unconfirmed'].includes(OUTCOME_OF(p.answered)),
		);
		const named = namedIn(output, kind);
		if (unknownAt >= 0) {
			const x = toRuns[unknownAt];
			const after = toRuns.slice(unknownAt + 1);
			const others = after.filter((p) => p.question !== x.question);
			if (others.length > 0)
				problems.push(
					`3: ${label} met "${x.answered}" at question ${x.question}'s run, then was offered to question(s) ${[...new Set(others.map((p) => p.question))].join(', ')}`,
				);
			const last = [x, ...after].filter((p) => p.question === x.question).at(-1)!;
			const runOf = asked[x.question!].execution;
			if (last.answered === 'node' && last.saidResumed) {
				if (output?.resumed !== true || named?.executionId !== runOf)
					problems.push(
						`3: ${label} was taken by question ${x.question}'s run on a later try, but the item says ${JSON.stringify(outcomeOf(output, delivery.error))}`,
					);
			} else if (
				output?.resumed !== false ||
				output?.unconfirmed !== true ||
				named?.executionId !== runOf
			) {
				problems.push(
					`3: ${label} met "${x.answered}" at question ${x.question}'s run (execution ${runOf}), but the item says ${JSON.stringify(outcomeOf(output, delivery.error))}`,
				);
			}
		} else if (output?.unconfirmed === true && mayHaveAnswered.size === 0) {
			problems.push(
				`3: ${label} says unconfirmed, but every answer it got was known: ${posts.map((p) => p.answered).join(', ')}`,
			);
		}

		// R. The run that said resumed is the one the item names.
		const saidResumed = posts.filter((p) => p.saidResumed);
		if (output?.resumed === true) {
			const run = asked.find((a) => a.execution === named?.executionId);
			if (
				!run ||
				run.resumedBy?.delivery !== d ||
				!saidResumed.some((p) => p.question === run.index)
			)
				problems.push(
					`2once: ${label} says it resumed execution ${String(named?.executionId)}, which no answer of this delivery said`,
				);
		} else if (saidResumed.length > 0 && unknownAt < 0) {
			problems.push(
				`R: question ${saidResumed[0].question}'s run answered resumed: true to ${label}, but the item says ${JSON.stringify(outcomeOf(output, delivery.error))}`,
			);
		}

		// E. The node fails only when no try reached a run (409 while it ran, every time).
		if (delivery.error !== undefined) {
			const last = toRuns.at(-1);
			const tries = last ? toRuns.filter((p) => p.question === last.question) : [];
			const onlyRunning = tries.length > 0 && tries.every((p) => p.answered === '409 running');
			if (!onlyRunning || !/could not take the (reply|receipt)/.test(delivery.error))
				problems.push(`E: ${label} failed: ${delivery.error}`);
		}

		if (answeredBefore && (posts.length > 0 || output?.alreadyAnswered !== true))
			problems.push(
				`2same: ${label} is a relay that answered a question before, yet it made ${posts.length} post(s) and says ${JSON.stringify(outcomeOf(output, delivery.error))}`,
			);
		if (!answeredBefore && copyAnswered.length === 0 && output?.alreadyAnswered === true)
			problems.push(`2same: ${label} says alreadyAnswered, but no earlier delivery of it answered`);
		for (const earlier of copyAnswered.filter((e) => e.output?.resumed === true)) {
			const answeredRef = String((earlier.output!.question as IDataObject | undefined)?.reference);
			const answeredQ = asked.find((a) => a.reference === answeredRef);
			// Posting again to the question it answered (finished by then), or where a delivery of it
			// may have gone (unconfirmed), answers nothing new.
			const older = posts.filter(
				(p) =>
					p.question !== undefined &&
					p.question !== answeredQ?.index &&
					!mayHaveAnswered.has(asked[p.question].reference) &&
					answeredQ?.askedAt !== undefined &&
					Date.parse(asked[p.question].askedAt!) <= Date.parse(answeredQ.askedAt),
			);
			if (older.length > 0)
				problems.push(
					`2copy: ${label} is a copy of the signed text that answered question ${answeredQ?.index}, yet it was posted to question ${older[0].question}, asked no later`,
				);
		}
		const elsewhere = posts.filter(
			(p) => p.question === undefined || !mayHaveAnswered.has(asked[p.question].reference),
		);
		if (!answeredBefore && mayHaveAnswered.size > 0 && elsewhere.length > 0)
			problems.push(
				`2same: ${label} may have answered question(s) ${[...mayHaveAnswered].join(', ')} before, yet it was posted to question ${elsewhere[0].question}`,
			);

		// L. An answer a waiting run would take is not lost.
		if (
			output &&
			output.resumed === false &&
			output.unconfirmed !== true &&
			output.alreadyAnswered !== true &&
			read !== null
		) {
			const takers = [...genuine.values()]
				.map((row) => ({ row, a: asked[row.genuineOf!] }))
				.filter(
					({ row, a }) =>
						delivery.waiting.includes(a.index) &&
						delivery.pending[a.index].length === 0 &&
						a.waitsFor === kind &&
						(kind === 'receipt'
							? row.reference === item.notifyId
							: (row.expiresAt === '' ||
									Date.parse(row.expiresAt) > Date.now() ||
									row.reference === (item.unverified as IDataObject).notifyId) &&
								wouldAnswer(a, item, secret)),
				);
			if (takers.length > 0)
				problems.push(
					`L: ${label} resumed nothing (${String(output.reason)}), though question ${takers[0].a.index}'s run waited and would take it`,
				);
		}
	});
	return problems;
}

/** The question (Deliver Reply) or text (Deliver Receipt) the item names. */
const namedIn = (output: IDataObject | undefined, kind: 'reply' | 'receipt') =>
	(kind === 'reply' ? output?.question : output?.text) as IDataObject | undefined;

const outcomeOf = (output: IDataObject | undefined, error: string | undefined) =>
	error !== undefined
		? { error }
		: {
				resumed: output?.resumed,
				unconfirmed: output?.unconfirmed,
				reason: output?.reason,
				run: (output?.event === 'inbound' || output?.event === 'optOut'
					? output?.question
					: output?.text) as unknown,
			};

// ─── The property ────────────────────────────────────────────────────────────────────────────────

/** The run in words, with what happened, for a failure message. */
export function describeRun(run: DeliveryRun, seen: DeliveryObservation): string {
	const origin = seen.origin;
	const short = (url: string) =>
		url.split(origin).join('<n8n>').split(seen.elsewhere).join('<elsewhere>');
	return JSON.stringify(
		{
			questions: seen.asked.map((a) => ({
				question: a.index,
				waitsFor: a.waitsFor,
				reference: a.reference,
				execution: a.execution,
				askedAt: a.askedAt,
				answerCode: a.answerCode ? a.code : undefined,
				responseType: a.waitsFor === 'reply' ? a.responseType : undefined,
				resumeUrlAnswers: run.questions[a.index].answers.map(
					(x) => `${x.fault}${x.takes ? ' (after taking it)' : ''}`,
				),
				resumedBy: a.resumedBy?.delivery,
			})),
			rows: seen.rows.map(
				(r) =>
					`${r.reference} ${r.waitsFor ?? 'reply'} ${r.genuineOf !== undefined ? 'genuine' : `FORGED (${r.mutation})`}: ${short(r.resumeUrl)} expires ${r.expiresAt || 'never'}`,
			),
			relays: seen.relays,
			deliveries: seen.deliveries.map((d, i) => ({
				item: d.item,
				posts: seen.posts
					.filter((p) => p.delivery === i)
					.map(
						(p) =>
							`${p.host === new URL(origin).host ? '' : p.host}${p.path} → ${p.answered}${p.status ? ` ${p.status}` : ''}${p.tookIt ? ' (run resumed)' : ''}`,
					),
				requests: seen.requests.filter((r) => r.delivery === i).map((r) => short(r.url)),
				output: d.error
					? { error: d.error }
					: {
							...outcomeOf(d.output, undefined),
							answer: d.output?.answer,
							unusableRows: d.output?.unusableRows,
						},
			})),
		},
		null,
		1,
	);
}

export interface PropertyOptions {
	/** Told after each run (shrinking runs included), with how long it took. */
	onRun?: (ms: number) => void;
	/** Shown each run and what was seen (coverage counts). */
	observe?: (run: DeliveryRun, seen: DeliveryObservation) => void;
	/** Labels of violations not to count (FUZZ_IGNORE). */
	ignore?: readonly string[];
	/** Told every run's broken promises instead of failing on the first (FUZZ_SURVEY). */
	survey?: (problems: string[], describe: () => string) => void;
}

/** The label a violation starts with (`1u: …` → `1u`). */
export const labelOf = (problem: string) => problem.slice(0, problem.indexOf(':'));

/** The Deliver Reply / Deliver Receipt property over generated runs. */
export function deliveryProperty(world: () => DeliveryWorld, options: PropertyOptions = {}) {
	const ignored = new Set(options.ignore ?? []);
	return fc.asyncProperty(deliveryRun, async (run) => {
		const started = Date.now();
		const seen = await execute(world(), run);
		options.onRun?.(Date.now() - started);
		options.observe?.(run, seen);
		const problems = violationsOf(run, seen).filter((p) => !ignored.has(labelOf(p)));
		if (problems.length === 0) return;
		if (options.survey) options.survey(problems, () => describeRun(run, seen));
		else throw new Error(`${problems.join('\n')}\nRun:\n${describeRun(run, seen)}`);
	});
}

// ─── Numbers of every country ────────────────────────────────────────────────────────────────────

/** One region's record in libphonenumber's metadata: slot 5 its trunk prefix, slot 11 its number types. */
type CountryRecord = [string, string, string, number[], unknown, string | 0, ...unknown[]];
const RECORDS = metadata.countries as unknown as Record<string, CountryRecord>;
const MAIN_REGION = Object.fromEntries(
	Object.entries(metadata.country_calling_codes).map(([code, regions]) => [code, regions[0]]),
) as Record<string, CountryCode>;
const trunkPrefixOf = (region: CountryCode) => RECORDS[region]?.[5] || '';

/** How a national form is written: digits, libphonenumber's format, or grouped by hand. */
export type NationalForm = 'digits' | 'formatted' | 'grouped';
/** How the Default Country Code is written: `44`, `+44`, `0044`. */
export type CodeSpelling = 'bare' | 'plus' | 'idd';

export interface GeneratedNumber {
	region: CountryCode;
	/** Where its national significant number came from: a number type of the region, or the generated plan. */
	source: 'type' | 'plan';
	nsn: string;
	form: NationalForm;
	spelling: CodeSpelling;
	/** The sizes of its groups (in turn), the separator between them, and the first in brackets. */
	cuts: number[];
	separator: number;
	bracketFirst: boolean;
}

const REGIONS = getCountries().filter((region) =>
	Object.hasOwn(NUMBERINGS, getCountryCallingCode(region)),
);

const patternArbitraries = new Map<string, fc.Arbitrary<string>>();
function matching(pattern: string): fc.Arbitrary<string> {
	let arbitrary = patternArbitraries.get(pattern);
	if (!arbitrary) {
		arbitrary = fc.stringMatching(new RegExp(`^(?:${pattern})$`));
		patternArbitraries.set(pattern, arbitrary);
	}
	return arbitrary;
}

/** A region's national significant numbers: from its number types, or from numberingPlans.generated.json. */
function nationalNumbers(region: CountryCode, source: 'type' | 'plan'): fc.Arbitrary<string> {
	const code = getCountryCallingCode(region);
	if (source === 'plan') {
		const numbering = NUMBERINGS[code];
		const plans = [numbering.plan, ...(numbering.others ? [numbering.others] : [])];
		return fc.oneof(...plans.map(matching));
	}
	const types = ((RECORDS[region]?.[11] ?? []) as Array<[string, number[]?] | 0>).flatMap((type) =>
		type && type[0] ? [type[0]] : [],
	);
	if (types.length === 0) return nationalNumbers(region, 'plan');
	return fc.oneof(...types.map(matching));
}

const SEPARATORS = [' ', '-', '.', '\u00A0'];

export const generatedNumber: fc.Arbitrary<GeneratedNumber> = fc
	.record({
		region: fc.constantFrom(...REGIONS),
		source: weighted<'type' | 'plan'>([3, 'type'], [1, 'plan']),
		form: fc.constantFrom<NationalForm>('digits', 'formatted', 'grouped'),
		spelling: weighted<CodeSpelling>([4, 'bare'], [1, 'plus'], [1, 'idd']),
		cuts: fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 4 }),
		separator: fc.nat(SEPARATORS.length - 1),
		bracketFirst: fc.boolean(),
	})
	.chain((n) => nationalNumbers(n.region, n.source).map((nsn) => ({ ...n, nsn })));

/**
 * The number as written at home: its trunk prefix (where the region has one: Hungary's 06, Russia's
 * 8, the US's 1) and its national significant number; where it has none (Spain, Italy), the
 * national significant number alone. libphonenumber's national format only where it keeps the
 * trunk prefix (an Irish 1520… number is written without its 0: no national form with a trunk prefix).
 */
export function writtenNumber(n: GeneratedNumber): string {
	const trunk = trunkPrefixOf(n.region);
	const digits = trunk + n.nsn;
	if (n.form === 'digits') return digits;
	if (n.form === 'formatted') {
		const parsed = parsePhoneNumberFromString(`+${getCountryCallingCode(n.region)}${n.nsn}`);
		const national = parsed?.isValid() ? parsed.formatNational() : '';
		return national.replace(/\D/g, '').startsWith(trunk) ? national : digits;
	}
	const groups: string[] = [];
	let at = 0;
	for (let i = 0; at < digits.length; i++) {
		const size = n.cuts[i % n.cuts.length];
		groups.push(digits.slice(at, at + size));
		at += size;
	}
	if (n.bracketFirst && groups.length > 1) groups[0] = `(${groups[0]})`;
	const separator = SEPARATORS[n.separator];
	// One point before at most 2 digits is a spreadsheet's decimal point (phoneNumbers.ts DECIMAL).
	if (separator === '.' && groups.length === 2 && groups[1].length <= 2) return groups.join(' ');
	return groups.join(separator);
}

const spelled = (code: string, spelling: CodeSpelling) =>
	spelling === 'plus' ? `+${code}` : spelling === 'idd' ? `00${code}` : code;

/**
 * The promises a generated national form broke (`N…: …`), or none; null when it is no national
 * form of a number of the region (libphonenumber finds the number invalid, or reads no number).
 */
export function numberingViolations(n: GeneratedNumber): string[] | null {
	const written = writtenNumber(n);
	// 00… is international under every Default Country Code.
	if (written.replace(/\D/g, '').startsWith('00')) return null;
	const code = getCountryCallingCode(n.region);
	// A national significant number the plans allow but no number type of the region has (a general
	// pattern is wide): its national form is no number's, and may be another's (Israel's 015 4… is a
	// call to +45 through carrier 015).
	if (!parsePhoneNumberFromString(`+${code}${n.nsn}`)?.isValid()) return null;
	const oracle = parsePhoneNumberFromString(written.replace(/\u00A0/g, ' '), MAIN_REGION[code]);
	if (!oracle?.isValid()) return null;
	// Read by libphonenumber as a call abroad through the country's own international prefix: not a
	// national form to it. Where that prefix starts with the trunk prefix (Israel's 012–019), the node
	// reads such a number as national: Israel's 1-535-240-0000 written 015 352 400000 is +972
	// 15352400000 to it, a call to +352 400000 (Luxembourg) to libphonenumber. Reported; not checked here.
	if (oracle.countryCallingCode !== code) return null;
	const msisdn = oracle.number.slice(1);
	const defaultCode = spelled(code, n.spelling);
	const ours = normaliseMsisdn(written, defaultCode);
	const problems: string[] = [];
	const at = `${JSON.stringify(written)} under Default Country Code ${defaultCode} (${n.region})`;
	if (ours.ok && ours.msisdn !== msisdn)
		problems.push(`N: ${at} is read as ${ours.msisdn}; libphonenumber reads ${msisdn}`);
	const trunk = trunkPrefixOf(n.region);
	const withTrunk = trunk !== '' && written.replace(/\D/g, '').startsWith(trunk);
	if (!ours.ok && withTrunk) {
		const underMinimum = /^too short/.test(ours.reason) && msisdn.length < 8;
		if (!underMinimum && !ours.reason.includes(msisdn))
			problems.push(`Nr: ${at} is refused without naming ${msisdn}: ${ours.reason}`);
	}
	if (msisdn.length >= 8 && !suppressionForms(written, defaultCode).includes(msisdn))
		problems.push(
			`Nx: ${at} as an Exclude Numbers entry does not exclude ${msisdn}: ${JSON.stringify(suppressionForms(written, defaultCode))}`,
		);
	// toMsisdn takes the code as parseCountryCode gives it: bare digits.
	const fast = toMsisdn(written, code);
	if (fast !== (ours.ok ? ours.msisdn : undefined))
		problems.push(
			`Nt: ${at}: toMsisdn gives ${String(fast)}, normaliseMsisdn ${ours.ok ? ours.msisdn : ours.reason}`,
		);
	return problems;
}

/** The numbering property: every generated national form read as libphonenumber reads it, or refused. */
export function numberingProperty(
	options: Omit<PropertyOptions, 'onRun' | 'observe'> & { onRun?: (checked: boolean) => void } = {},
) {
	const ignored = new Set(options.ignore ?? []);
	return fc.property(generatedNumber, (n) => {
		const found = numberingViolations(n);
		options.onRun?.(found !== null);
		const problems = (found ?? []).filter((p) => !ignored.has(labelOf(p)));
		if (problems.length === 0) return;
		const describe = () => JSON.stringify({ ...n, written: writtenNumber(n) });
		if (options.survey) options.survey(problems, describe);
		else throw new Error(`${problems.join('\n')}\nNumber: ${describe()}`);
	});
}
