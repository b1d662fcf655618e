/**
 * The campaign's money promises as invariants over whole generated runs (issue 23): a run is input
 * items, the node's parameters, n8n's retry and On Error settings and a fault schedule for the
 * provider simulator; it is executed in the real n8n engine against the simulator over HTTP, and
 * what the provider processed is checked against what was asked and what the node reported.
 *
 * Used by `invariants.property.test.ts` (a fixed seed, 200 runs, in `npm test`) and by
 * `test/fuzz/campaignInvariants.ts` (`npm run fuzz`: a random seed, 5,000 runs by default).
 *
 * Every generated value names its choices (a fault is `'503'`, a number is a subscriber and a
 * way of writing it) so that a counterexample fast-check prints can be read as a scenario.
 * To extend the generator, add an entry to one of the registries below (number forms, invalid
 * entries, Exclude Numbers shapes, faults): the oracle reads the same registries.
 */
import fc from 'fast-check';
import { DateTime, Settings } from 'luxon';
import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import type { Fault } from '../../../../simulator';
import type { PhonovationFixture } from '../../fixture';

// ─── Subscribers and the ways people write their numbers ────────────────────────────────────────

interface Subscriber {
	/** The msisdn the node must send (international, digits only). */
	msisdn: string;
	/** What follows the country code. */
	national: string;
	country: '353' | '44';
	/** An Irish mobile: a spreadsheet may drop its leading 0 (871000001). */
	irishMobile: boolean;
}

const subscriber = (country: '353' | '44', national: string, irishMobile = false): Subscriber => ({
	msisdn: country + national,
	national,
	country,
	irishMobile,
});

/**
 * A small pool, so that items often share numbers. The landline is valid for the node but refused
 * by the provider (it texts mobiles only): it becomes `rejected by provider`, or a 400 when a
 * batch holds nothing else.
 */
export const SUBSCRIBERS: readonly Subscriber[] = [
	subscriber('353', '871000001', true),
	subscriber('353', '871000002', true),
	subscriber('353', '851000003', true),
	subscriber('353', '861000004', true),
	subscriber('44', '7911123456'),
	subscriber('353', '12345678'),
];

const isIrish = (msisdn: string) => msisdn.startsWith('353');

/** `871000001` → `87 100 0001`; `7911123456` → `7911 123456`; a landline `1 234 5678`. */
function grouped(s: Subscriber): string {
	const n = s.national;
	if (s.country === '44') return `${n.slice(0, 4)} ${n.slice(4)}`;
	if (n.startsWith('1')) return `${n.slice(0, 1)} ${n.slice(1, 4)} ${n.slice(4)}`;
	return `${n.slice(0, 2)} ${n.slice(2, 5)} ${n.slice(5)}`;
}

/**
 * How a recipient (or an Exclude Numbers entry) may be written, each meaning the subscriber's
 * msisdn under the node's documented rules (README "Numbers"). `null`: not a way this
 * subscriber's number is written (national form is Irish only: Default Country Code is 353).
 */
export const NUMBER_FORMS = {
	digits: (s: Subscriber) => s.msisdn,
	plus: (s: Subscriber) => `+${s.msisdn}`,
	plusSpaced: (s: Subscriber) => `+${s.country} ${grouped(s)}`,
	doubleZero: (s: Subscriber) => `00${s.msisdn}`,
	spacedDoubleZero: (s: Subscriber) => `00 ${s.country} ${grouped(s)}`,
	trunkZero: (s: Subscriber) => `+${s.country} (0)${grouped(s)}`,
	national: (s: Subscriber) => (s.country === '353' ? `0${s.national}` : null),
	nationalSpaced: (s: Subscriber) => (s.country === '353' ? `0${grouped(s)}` : null),
	nationalDashed: (s: Subscriber) => (s.country === '353' ? `0${grouped(s).replace(/ /g, '-')}` : null),
	jsNumber: (s: Subscriber) => Number(s.msisdn),
} satisfies Record<string, (s: Subscriber) => string | number | null>;
export type NumberForm = keyof typeof NUMBER_FORMS;

/**
 * Exclude Numbers reads an Irish mobile whose leading 0 a spreadsheet dropped (README "Exclude
 * Numbers never misses a number it can read"); as a recipient the same text is invalid.
 */
export const EXCLUSION_ONLY_FORMS = {
	lostZero: (s: Subscriber) => (s.irishMobile ? s.national : null),
	lostZeroNumber: (s: Subscriber) => (s.irishMobile ? Number(s.national) : null),
} satisfies Record<string, (s: Subscriber) => string | number | null>;
export type ExclusionForm = NumberForm | keyof typeof EXCLUSION_ONLY_FORMS;

/** Entries that are no number a recipient can have (too short, letters, an Irish mobile without its 0). */
export const INVALID_ENTRIES: readonly (string | number)[] = ['12345', 'abc', '0871234', '+353 87 100', 871000001, '871000002', '+44 12', 'n/a'];

/**
 * Exclude Numbers entries that cannot be read as a number: they exclude no one, so they stop the
 * run (Unreadable Exclusions = Fail, the default) or are listed in `warnings` (Warn).
 */
export const UNREADABLE_EXCLUSIONS: readonly string[] = ['abc', 'n/a', '12345', 'opted out'];

function written(who: number, form: ExclusionForm): string | number {
	const s = SUBSCRIBERS[who];
	const write = (NUMBER_FORMS as Record<string, (s: Subscriber) => string | number | null>)[form] ??
		(EXCLUSION_ONLY_FORMS as Record<string, (s: Subscriber) => string | number | null>)[form];
	return write(s) ?? s.msisdn;
}

// ─── A generated run ─────────────────────────────────────────────────────────────────────────────

/** One entry of an item's recipients: a subscriber written some way, or something invalid. */
export type RecipientEntry = { who: number; form: NumberForm } | { invalid: number };

/** How an item holds its entries in `$json.phone`. */
export const PHONE_SHAPES = {
	/** One entry as it is (string or JS number); several joined with ", ". */
	value: (values: (string | number)[]) => (values.length === 1 ? values[0] : values.map(String).join(', ')),
	array: (values: (string | number)[]) => values,
	semicolons: (values: (string | number)[]) => values.map(String).join(';'),
	lines: (values: (string | number)[]) => values.map(String).join('\n'),
} satisfies Record<string, (values: (string | number)[]) => unknown>;
export type PhoneShape = keyof typeof PHONE_SHAPES;

export interface GeneratedItem {
	recipients: RecipientEntry[];
	shape: PhoneShape;
	/** `$json.name`, read by a per-item text ('' makes the text empty: a campaign-wide violation). */
	name: string;
	/** A Notify ID over 30 characters for this item when Notify ID is per item: an item-level violation. */
	longRef: boolean;
}

export type ExclusionEntry = { who: number; form: ExclusionForm } | { unreadable: number };

/**
 * The shapes Exclude Numbers was documented to accept when this fuzzer was written (README
 * "Exclude Numbers", `splitRecipients` in domain/phoneNumbers.ts): a plain string (one entry, or
 * entries separated by commas, semicolons or new lines), one JS number, an array of strings and
 * numbers, nested arrays. Each shape builds the parameter from the entries' written values, so a
 * shape the node reads since (objects with a phone field, whole n8n items, space-separated lists,
 * tel: URIs, spreadsheet floats) is one more entry here; the oracle needs no change.
 */
export const EXCLUDE_SHAPES = {
	commas: (values: (string | number)[]) => values.map(String).join(', '),
	semicolons: (values: (string | number)[]) => values.map(String).join('; '),
	lines: (values: (string | number)[]) => values.map(String).join('\n'),
	array: (values: (string | number)[]) => `={{ ${JSON.stringify(values)} }}`,
	nestedArray: (values: (string | number)[]) =>
		`={{ ${JSON.stringify(values.map((v, i) => (i % 2 === 0 ? [v] : v)))} }}`,
	/** One entry as an expression giving the value itself (a JS number stays a number). */
	expression: (values: (string | number)[]) =>
		values.length === 1 ? `={{ ${JSON.stringify(values[0])} }}` : `={{ ${JSON.stringify(values)} }}`,
} satisfies Record<string, (values: (string | number)[]) => string>;
export type ExcludeShape = keyof typeof EXCLUDE_SHAPES;

/** Texts: one for all, one per item, one that changes with the clock (between attempts too), or both. */
export const TEXTS = {
	fixed: 'Sale today',
	perItem: '={{ $json.name }}',
	clock: "=Code valid until {{ $now.toFormat('HH:mm:ss.SSS') }}",
	perItemClock: "=Hi {{ $json.name }}, {{ $now.toFormat('HH:mm:ss.SSS') }}",
} as const;
export type TextMode = keyof typeof TEXTS;

export const NOTIFY_IDS = {
	none: undefined,
	fixed: 'promo-7',
	execution: '={{ $execution.id }}',
	perItem: '={{ $json.ref }}',
} as const;
export type NotifyIdMode = keyof typeof NOTIFY_IDS;

/** Request Timeout of every run: a `late` delay outlasts it, a `slow` one does not. */
export const REQUEST_TIMEOUT_MS = 300;

/**
 * Faults for the next campaign requests, in order (`pass` lets one through untouched). What each
 * means for the provider: processed (a campaign is recorded) or not.
 */
export const CAMPAIGN_FAULTS = {
	pass: { kind: 'delay', ms: 0 },
	'429': { kind: 'status', status: 429, retryAfter: 0 },
	'429 wait 1s': { kind: 'status', status: 429, retryAfter: 1 },
	'processed, then 500': { kind: 'answer', status: 500, body: 'Internal Server Error' },
	'processed, then 201 empty': { kind: 'answer', status: 201, body: '' },
	'500': { kind: 'status', status: 500 },
	'502': { kind: 'status', status: 502 },
	'503': { kind: 'status', status: 503 },
	'late (processed after the timeout)': { kind: 'delay', ms: 2 * REQUEST_TIMEOUT_MS },
	slow: { kind: 'delay', ms: 50 },
	reset: { kind: 'reset' },
} satisfies Record<string, Fault>;
export type CampaignFault = keyof typeof CAMPAIGN_FAULTS;

export type OnError = 'stopWorkflow' | 'continueRegularOutput' | 'continueErrorOutput';

export interface GeneratedRun {
	items: GeneratedItem[];
	text: TextMode;
	/** Milliseconds the clock ($now) moves at each read, cycled: 0s make items (or attempts) share a text. */
	clockSteps: number[];
	notifyId: NotifyIdMode;
	/** `unreadable`: the Unreadable Exclusions option (Fail, the default, stops the run on an entry it cannot read). */
	exclude: { shape: ExcludeShape; entries: ExclusionEntry[]; unreadable: 'fail' | 'warn' } | null;
	/** `FreeText` is an international sender: Irish numbers become `undeliverable`. */
	sender: 'Phonovation' | 'FreeText';
	invalidNumbers: 'skip' | 'fail';
	/** Default Country Code: `35` is no country's calling code (it would make 087… a Finnish +358 number). */
	countryCode?: '353' | '35';
	/**
	 * Quiet Hours from an hour ago to an hour ahead in Dublin (real time: each request is judged
	 * against the clock), with no zone named: every subscriber (Ireland, UK) is inside them, whatever
	 * the workflow's zone, so every request must carry a sendAt at their end.
	 */
	quietHours?: boolean;
	/** The workflow's time zone (n8n's own default is America/New_York). */
	workflowZone?: 'Europe/Dublin' | 'America/New_York';
	batchSize: number;
	parallelRequests: number;
	/** Adaptive Parallel Requests (on unless false). */
	adaptive?: boolean;
	/** A provider with a limit: at most this many campaign requests at once, 429 (Retry-After: 0) above it. */
	providerLimit?: number;
	faults: CampaignFault[];
	/** Answers of HTTP 500 to the first sender-list requests. */
	senderListFailures: number;
	retry: { retryOnFail: boolean; maxTries: number };
	onError: OnError;
}

const weighted = <T>(...choices: Array<[number, T]>) =>
	fc.oneof(...choices.map(([weight, value]) => ({ weight, arbitrary: fc.constant(value) })));

const numberForms = Object.keys(NUMBER_FORMS) as NumberForm[];
const exclusionForms = [...numberForms, ...(Object.keys(EXCLUSION_ONLY_FORMS) as ExclusionForm[])];

const recipientEntry: fc.Arbitrary<RecipientEntry> = fc.oneof(
	{ weight: 6, arbitrary: fc.record({ who: fc.nat(SUBSCRIBERS.length - 1), form: fc.constantFrom(...numberForms) }) },
	{ weight: 1, arbitrary: fc.record({ invalid: fc.nat(INVALID_ENTRIES.length - 1) }) },
);

/**
 * Items that break a rule of their own (no number, an empty text, a Notify ID too long) are rare:
 * without Continue On Fail any of them stops the run before anything is sent.
 */
const generatedItem: fc.Arbitrary<GeneratedItem> = fc.record({
	recipients: fc.oneof(
		{ weight: 30, arbitrary: fc.array(recipientEntry, { minLength: 1, maxLength: 4 }) },
		{ weight: 1, arbitrary: fc.constant<RecipientEntry[]>([]) },
	),
	shape: fc.constantFrom(...(Object.keys(PHONE_SHAPES) as PhoneShape[])),
	name: weighted<string>([15, 'Ann'], [15, 'Bob'], [10, 'Cian'], [1, '']),
	longRef: weighted([60, false], [1, true]),
});

const exclusionEntry: fc.Arbitrary<ExclusionEntry> = fc.oneof(
	{ weight: 6, arbitrary: fc.record({ who: fc.nat(SUBSCRIBERS.length - 1), form: fc.constantFrom(...exclusionForms) }) },
	{ weight: 1, arbitrary: fc.record({ unreadable: fc.nat(UNREADABLE_EXCLUSIONS.length - 1) }) },
);

const campaignFault = weighted<CampaignFault>(
	[6, 'pass'],
	[3, '429'],
	[1, '429 wait 1s'],
	[3, 'processed, then 500'],
	[1, 'processed, then 201 empty'],
	[1, '500'],
	[3, '502'],
	[3, '503'],
	[2, 'late (processed after the timeout)'],
	[1, 'slow'],
	[3, 'reset'],
);

export const generatedRun: fc.Arbitrary<GeneratedRun> = fc.record({
	items: fc.array(generatedItem, { minLength: 1, maxLength: 12 }),
	text: weighted<TextMode>([3, 'fixed'], [3, 'perItem'], [3, 'clock'], [2, 'perItemClock']),
	clockSteps: fc.array(weighted([2, 0], [2, 1]), { minLength: 1, maxLength: 5 }),
	notifyId: weighted<NotifyIdMode>([3, 'none'], [1, 'fixed'], [2, 'execution'], [3, 'perItem']),
	exclude: fc.option(
		fc.record({
			shape: fc.constantFrom(...(Object.keys(EXCLUDE_SHAPES) as ExcludeShape[])),
			entries: fc.array(exclusionEntry, { minLength: 1, maxLength: 3 }),
			unreadable: weighted<'fail' | 'warn'>([1, 'fail'], [3, 'warn']),
		}),
		{ freq: 2 },
	),
	sender: weighted<GeneratedRun['sender']>([6, 'Phonovation'], [1, 'FreeText']),
	invalidNumbers: weighted<GeneratedRun['invalidNumbers']>([9, 'skip'], [1, 'fail']),
	countryCode: weighted<'353' | '35'>([30, '353'], [1, '35']),
	quietHours: weighted([5, false], [1, true]),
	workflowZone: weighted<'Europe/Dublin' | 'America/New_York'>([1, 'Europe/Dublin'], [1, 'America/New_York']),
	batchSize: fc.integer({ min: 1, max: 3 }),
	parallelRequests: fc.integer({ min: 1, max: 4 }),
	adaptive: fc.boolean(),
	providerLimit: weighted([4, 0], [1, 1], [1, 2]),
	faults: fc.array(campaignFault, { maxLength: 6 }),
	senderListFailures: weighted([16, 0], [1, 1], [1, 2]),
	retry: fc.record({ retryOnFail: fc.boolean(), maxTries: fc.integer({ min: 1, max: 3 }) }),
	onError: weighted<OnError>([1, 'stopWorkflow'], [1, 'continueRegularOutput'], [1, 'continueErrorOutput']),
});

// ─── The run as n8n sees it ──────────────────────────────────────────────────────────────────────

/** Each entry's written value and the msisdn the node must make of it (null: invalid). */
function entryOf(entry: RecipientEntry): { value: string | number; msisdn: string | null } {
	if ('invalid' in entry) return { value: INVALID_ENTRIES[entry.invalid], msisdn: null };
	return { value: written(entry.who, entry.form), msisdn: SUBSCRIBERS[entry.who].msisdn };
}

function exclusionOf(entry: ExclusionEntry): { value: string | number; msisdn: string | null } {
	if ('unreadable' in entry) return { value: UNREADABLE_EXCLUSIONS[entry.unreadable], msisdn: null };
	return { value: written(entry.who, entry.form), msisdn: SUBSCRIBERS[entry.who].msisdn };
}

const LONG_REF = 'x'.repeat(31);

export function inputItems(run: GeneratedRun): INodeExecutionData[] {
	return run.items.map((item, i) => {
		const values = item.recipients.map((e) => entryOf(e).value);
		const json: Record<string, unknown> = { name: item.name, ref: item.longRef ? LONG_REF : `ref-${i}` };
		if (values.length > 0) json.phone = PHONE_SHAPES[item.shape](values) as INodeExecutionData['json'][string];
		return { json: json as INodeExecutionData['json'] };
	});
}

/** The run's Quiet Hours now: from an hour ago to an hour ahead in Dublin, and their end as the provider's sendAt. */
export function quietWindowNow(): { quietHours: string; end: string } {
	const now = DateTime.now().setZone('Europe/Dublin');
	const end = now.plus({ hours: 1 }).startOf('minute');
	return { quietHours: `${now.minus({ hours: 1 }).toFormat('HH:mm')}-${end.toFormat('HH:mm')}`, end: end.toUTC().toFormat("yyyy-MM-dd'T'HH:mm'Z'") };
}

export function nodeParameters(run: GeneratedRun, quietHours?: string): INodeParameters {
	const options: INodeParameters = {
		messageType: 'transactional',
		batchSize: run.batchSize,
		parallelRequests: run.parallelRequests,
		...(run.adaptive === false ? { adaptiveParallelRequests: false } : {}),
		timeout: REQUEST_TIMEOUT_MS,
		invalidNumbers: run.invalidNumbers,
	};
	if (run.countryCode === '35') options.defaultCountryCode = '35';
	if (run.quietHours) options.quietHours = quietHours ?? '(an hour ago to an hour ahead, in Dublin)';
	const notifyId = NOTIFY_IDS[run.notifyId];
	if (notifyId !== undefined) options.notifyId = notifyId;
	if (run.exclude) {
		options.excludeNumbers = EXCLUDE_SHAPES[run.exclude.shape](run.exclude.entries.map((e) => exclusionOf(e).value));
		if (run.exclude.unreadable === 'warn') options.unreadableExclusions = 'warn';
	}
	return {
		resource: 'campaign',
		operation: 'send',
		from: run.sender,
		text: TEXTS[run.text],
		recipients: '={{ $json.phone }}',
		options,
	};
}

/**
 * n8n's node settings. n8n reads a Wait Between Tries of 0 as its default of 1,000 ms, so 1 ms
 * stands for "no wait"; it also runs at least 2 tries when Retry On Fail is on, whatever Max Tries says.
 */
export function nodeSettings(run: GeneratedRun) {
	return {
		retryOnFail: run.retry.retryOnFail,
		maxTries: run.retry.maxTries,
		waitBetweenTries: 1,
		onError: run.onError,
	};
}

// ─── Executing a run ─────────────────────────────────────────────────────────────────────────────

const CAMPAIGN = '/api/v2/Campaign';
const SENDER_LIST = '/api/v2/senderlist';

export interface Observation {
	/** What the provider processed, request by request: every recipientInfo entry. */
	processed: Array<Array<{ msisdn: string; notifyId: string | null }>>;
	/** Each processed request's sendAt (null: none). */
	sendAts: Array<string | null>;
	/** With Quiet Hours: the sendAt their end makes (every request must be held until then). */
	quietHoursEnd?: string;
	/** The numbers the provider accepted (not refused as invalid). */
	acceptedByProvider: string[];
	error?: { message: string; acceptedRecipients?: unknown };
	/** Every output item (all outputs), with the input item it is paired with. */
	outputs: Array<{ output: number; item: number | undefined; json: Record<string, any> }>;
}

/** A fixed moment: only whether two reads of $now differ matters (it decides which items share a text). */
const CLOCK_START = Date.UTC(2030, 5, 1, 9, 0, 0, 0);

/** $now (luxon) moves by the run's steps at each read, so texts that change between attempts are reproducible. */
function installClock(steps: number[]): () => void {
	const previous = Settings.now;
	let at = CLOCK_START;
	let read = 0;
	Settings.now = () => {
		const now = at;
		at += steps[read++ % steps.length];
		return now;
	};
	return () => {
		Settings.now = previous;
	};
}

/** Every request the simulator took has been answered (a late one is processed after the node gave up on it). */
async function settled(fixture: PhonovationFixture, deadlineMs = 10_000): Promise<void> {
	const until = Date.now() + deadlineMs;
	const open = () => {
		const arrived = new Set<number>();
		for (const e of fixture.sim.timeline) {
			if (e.event === '+') arrived.add(e.seq);
			else arrived.delete(e.seq);
		}
		return arrived.size;
	};
	while (open() > 0) {
		if (Date.now() > until) throw new Error(`the simulator still has ${open()} request(s) open after ${deadlineMs} ms`);
		await new Promise((resolve) => setTimeout(resolve, 5));
	}
}

function pairedIndex(paired: unknown): number | undefined {
	if (typeof paired === 'number') return paired;
	if (Array.isArray(paired)) return paired.length === 1 ? pairedIndex(paired[0]) : undefined;
	if (paired && typeof paired === 'object' && 'item' in paired) return (paired as { item: number }).item;
	return undefined;
}

export async function execute(fixture: PhonovationFixture, run: GeneratedRun): Promise<Observation> {
	fixture.reset();
	for (const fault of run.faults) fixture.sim.injectFault(CAMPAIGN, CAMPAIGN_FAULTS[fault]);
	if (run.senderListFailures > 0) fixture.sim.injectFault(SENDER_LIST, { kind: 'status', status: 500 }, run.senderListFailures);
	const window = run.quietHours ? quietWindowNow() : undefined;
	const zone = fixture.engine.timezone;
	fixture.engine.timezone = run.workflowZone ?? zone;
	const restoreClock = installClock(run.clockSteps);
	fixture.sim.config.campaignLimit = run.providerLimit ? { max: run.providerLimit, retryAfter: 0 } : undefined;
	let result;
	try {
		result = await fixture.run(nodeParameters(run, window?.quietHours), inputItems(run), nodeSettings(run));
	} finally {
		restoreClock();
		fixture.engine.timezone = zone;
		fixture.sim.config.campaignLimit = undefined;
	}
	await settled(fixture);
	const campaigns = fixture.sim.campaigns;
	return {
		sendAts: campaigns.map((c) => (c.body.sendAt as string | undefined) ?? null),
		quietHoursEnd: window?.end,
		processed: campaigns.map((c) =>
			(c.body.recipientInfo as Array<{ msisdn: string; notifyId?: string }>).map((r) => ({ msisdn: r.msisdn, notifyId: r.notifyId ?? null })),
		),
		acceptedByProvider: campaigns.flatMap((c) => c.accepted.map((r) => r.msisdn)),
		error: result.error && {
			message: result.error.message,
			acceptedRecipients: (result.error as { context?: Record<string, unknown> }).context?.acceptedRecipients,
		},
		outputs: result.outputs.flatMap((items, output) =>
			items.map((item) => ({ output, item: pairedIndex(item.pairedItem), json: item.json as Record<string, any> })),
		),
	};
}

// ─── The invariants ──────────────────────────────────────────────────────────────────────────────

/** Statuses that say the provider never processed this number for this item. */
const NOT_PROCESSED = new Set(['not sent', 'invalid', 'excluded', 'duplicate', 'undeliverable']);
/** Statuses that say it did, exactly once (the provider may still refuse the number itself). */
const PROCESSED_ONCE = new Set(['accepted', 'rejected by provider']);

interface Expected {
	/** Per item: the msisdn each of its entries stands for (null: invalid), in order. */
	entries: Array<Array<string | null>>;
	excluded: Set<string>;
	/** Per number: how many distinct items may text it (asked for it, not excluded, deliverable). */
	allowed: Map<string, number>;
	/** A Notify ID that names the item, so a processed recipient can be told apart from another item's. */
	refOf: (item: number) => string | null;
}

function expectationsOf(run: GeneratedRun): Expected {
	const excluded = new Set(
		(run.exclude?.entries ?? []).map((e) => exclusionOf(e).msisdn).filter((m): m is string => m !== null),
	);
	const entries = run.items.map((item) => item.recipients.map((e) => entryOf(e).msisdn));
	const deliverable = (m: string) => !excluded.has(m) && !(run.sender === 'FreeText' && isIrish(m));
	const allowed = new Map<string, number>();
	for (const list of entries) {
		for (const m of new Set(list)) if (m !== null && deliverable(m)) allowed.set(m, (allowed.get(m) ?? 0) + 1);
	}
	const refOf = (i: number) =>
		run.notifyId === 'perItem' ? (run.items[i].longRef ? LONG_REF : `ref-${i}`) : run.notifyId === 'fixed' ? 'promo-7' : run.notifyId === 'execution' ? 'test-execution' : null;
	return { entries, excluded, allowed, refOf };
}

const countBy = <T>(list: T[]) => {
	const counts = new Map<T, number>();
	for (const x of list) counts.set(x, (counts.get(x) ?? 0) + 1);
	return counts;
};

/**
 * Why the node must send nothing at all, if it must (README): an Exclude Numbers entry it cannot
 * read while Unreadable Exclusions is Fail (every item breaks that rule); with Invalid Numbers =
 * Fail and no Continue On Fail, any number it cannot send.
 */
function mustSendNothing(run: GeneratedRun, expected: Expected): string | undefined {
	if (run.countryCode === '35') return "Default Country Code 35, which is no country's calling code";
	const unreadable = (run.exclude?.entries ?? []).some((e) => 'unreadable' in e);
	if (unreadable && run.exclude?.unreadable !== 'warn') return 'an unreadable Exclude Numbers entry with Unreadable Exclusions = Fail';
	if (run.invalidNumbers !== 'fail' || run.onError !== 'stopWorkflow') return undefined;
	if (expected.entries.some((list) => list.length === 0 || list.includes(null))) return 'an invalid number with Invalid Numbers = Fail';
	if (run.sender === 'FreeText' && expected.entries.some((list) => list.some((m) => m !== null && isIrish(m)))) {
		return 'an Irish number for an international sender with Invalid Numbers = Fail';
	}
	return undefined;
}

/** The recipients an output item reports, its compact accepted numbers as recipients too. */
function reportedRecipients(report: Record<string, any>): Array<{ msisdn: string | null; status: string; notifyId: string | null }> {
	const listed = (report.recipients ?? []) as Array<{ msisdn: string | null; status: string; notifyId: string | null }>;
	const compact = ((report.acceptedNumbers ?? []) as string[]).map((msisdn) => ({ msisdn, status: 'accepted', notifyId: null as string | null }));
	return [...listed, ...compact];
}

/**
 * Every broken promise of this run, in words (empty: all held), each starting with its label:
 * - `1` no number is processed more often than distinct items (not excluding it, able to reach it) asked for it;
 * - `2` no excluded number is processed;
 * - `3` (run ended without an error) every item reports each of its numbers, and per number (and
 *   Notify ID, when that names the item) the items reporting it accepted or rejected by provider ≤
 *   times processed ≤ those plus the items reporting it unconfirmed; `3c` more items claim it than
 *   it was processed, `3d` / `3n` / `3b` a processing hides behind `duplicate` / `not sent` / an
 *   item that is only `{ error }` ("Nothing was sent"), `3r` accepted against the provider's verdict;
 * - `4` an item with `success: true` has no unconfirmed recipient;
 * - `5` a stopping error's `acceptedRecipients` lists only numbers the provider accepted;
 * - `fail` a rule that stops the whole run (README) stops it before anything is processed;
 * - `q` with Quiet Hours on now in the subscribers' zone, every request carries a sendAt at their end.
 */
export function violationsOf(run: GeneratedRun, seen: Observation): string[] {
	const problems: string[] = [];
	const expected = expectationsOf(run);
	const processed = seen.processed.flat();
	const timesProcessed = countBy(processed.map((r) => r.msisdn));

	// 1. No number is processed more often than distinct items (not excluded, deliverable) asked for it;
	//    with a Notify ID per item, no (item, number) pair is processed twice.
	for (const [msisdn, times] of timesProcessed) {
		const allowed = expected.allowed.get(msisdn) ?? 0;
		if (times > allowed) problems.push(`1: ${msisdn} was processed ${times} time(s), but only ${allowed} item(s) may text it`);
	}
	if (run.notifyId === 'perItem') {
		for (const [pair, times] of countBy(processed.map((r) => `${r.msisdn} for ${r.notifyId}`))) {
			if (times > 1) problems.push(`1: ${pair} was processed ${times} times`);
		}
	}

	// q. With Quiet Hours on now in every subscriber's zone, no request goes out without a sendAt at their end.
	if (seen.quietHoursEnd) {
		seen.sendAts.forEach((sendAt, i) => {
			if (sendAt === null || sendAt < seen.quietHoursEnd!) {
				problems.push(`q: request ${i + 1} was processed with sendAt ${sendAt}, inside Quiet Hours that end at ${seen.quietHoursEnd}`);
			}
		});
	}

	// 2. No excluded number is ever processed.
	for (const msisdn of expected.excluded) {
		if (timesProcessed.has(msisdn)) problems.push(`2: excluded ${msisdn} was processed ${timesProcessed.get(msisdn)} time(s)`);
	}

	// Rules that stop the whole run before anything is sent.
	const stopper = mustSendNothing(run, expected);
	if (stopper && processed.length > 0) problems.push(`fail: ${stopper}, yet ${processed.length} recipient(s) were processed`);

	// 5. A run that stops with an error lists in its context.acceptedRecipients only numbers the provider accepted.
	if (seen.error) {
		const listed = Array.isArray(seen.error.acceptedRecipients) ? (seen.error.acceptedRecipients as string[]) : [];
		const accepted = new Set(seen.acceptedByProvider);
		for (const m of listed) {
			if (!accepted.has(m)) problems.push(`5: the error's acceptedRecipients lists ${m}, which the provider did not accept`);
		}
		return problems;
	}

	// 3. Every input item reports every one of its recipients, with a status that matches what the provider processed.
	const byItem = new Map<number, Array<(typeof seen.outputs)[number]>>();
	for (const out of seen.outputs) {
		if (out.item === undefined) {
			problems.push(`3: an output item is paired with no single input item: ${JSON.stringify(out.json).slice(0, 300)}`);
			continue;
		}
		byItem.set(out.item, [...(byItem.get(out.item) ?? []), out]);
	}
	// Per key (number, and Notify ID when it names the item): reported processed once / maybe / not at all.
	const once = new Map<string, number>();
	const maybe = new Map<string, number>();
	const providerAccepted = new Set(seen.acceptedByProvider);
	/** Per key: how many items report it with each "never processed" status. */
	const notProcessed = new Map<string, Map<string, number>>();
	const saidNotProcessed = (key: string, status: string) => {
		const counts = notProcessed.get(key) ?? new Map<string, number>();
		counts.set(status, (counts.get(status) ?? 0) + 1);
		notProcessed.set(key, counts);
	};
	const keyOf = (msisdn: string, notifyId: string | null) => (run.notifyId === 'perItem' ? `${msisdn} for ${notifyId}` : msisdn);
	run.items.forEach((_, i) => {
		const outs = byItem.get(i) ?? [];
		if (outs.length !== 1) {
			problems.push(`3: item ${i} has ${outs.length} output items`);
			return;
		}
		const [{ json }] = outs;
		const hasDetails = json.details && typeof json.details === 'object';
		// Blocked by a rule (`{ error }` alone, "Nothing was sent"): its numbers count as never
		// processed for it, so the per-number check below flags any that were.
		if (json.error !== undefined && !hasDetails) {
			for (const m of new Set(expected.entries[i])) if (m !== null) saidNotProcessed(keyOf(m, expected.refOf(i)), 'error item');
			return;
		}
		const report = (hasDetails ? json.details : json) as Record<string, any>;
		const reported = reportedRecipients(report);
		const wanted = expected.entries[i].length > 0 ? expected.entries[i] : [null];
		const got = reported.map((r) => r.msisdn);
		const sorted = (list: Array<string | null>) => [...list].map(String).sort();
		if (JSON.stringify(sorted(got)) !== JSON.stringify(sorted(wanted))) {
			problems.push(`3: item ${i} reports numbers ${JSON.stringify(got)}, its input stands for ${JSON.stringify(wanted)}`);
			return;
		}
		for (const r of reported) {
			if (r.msisdn === null) {
				if (r.status !== 'invalid') problems.push(`3: item ${i} reports an invalid entry as ${r.status}`);
				continue;
			}
			if (expected.excluded.has(r.msisdn) && r.status !== 'excluded') {
				problems.push(`3: item ${i} reports excluded ${r.msisdn} as ${r.status}`);
			}
			const key = keyOf(r.msisdn, r.notifyId ?? expected.refOf(i));
			if (NOT_PROCESSED.has(r.status)) saidNotProcessed(key, r.status);
			if (PROCESSED_ONCE.has(r.status)) once.set(key, (once.get(key) ?? 0) + 1);
			else if (r.status === 'unconfirmed') maybe.set(key, (maybe.get(key) ?? 0) + 1);
			else if (!NOT_PROCESSED.has(r.status)) problems.push(`3: item ${i} reports ${r.msisdn} with status ${r.status}`);
			// 3r: the provider's own verdict on a number it processed (it refuses landlines, whoever sends them).
			if (r.status === 'accepted' && !providerAccepted.has(r.msisdn)) {
				problems.push(`3r: item ${i} reports ${r.msisdn} accepted, but the provider never accepted it`);
			}
			if (r.status === 'rejected by provider' && providerAccepted.has(r.msisdn)) {
				problems.push(`3r: item ${i} reports ${r.msisdn} rejected by provider, but the provider accepted it`);
			}
			// 4. An item that reports success never has an unconfirmed recipient.
			if (r.status === 'unconfirmed' && json.success === true) {
				problems.push(`4: item ${i} reports success: true with ${r.msisdn} unconfirmed`);
			}
		}
	});
	const processedByKey = countBy(processed.map((r) => keyOf(r.msisdn, r.notifyId)));
	for (const key of new Set([...once.keys(), ...maybe.keys(), ...processedByKey.keys()])) {
		const times = processedByKey.get(key) ?? 0;
		const low = once.get(key) ?? 0;
		const high = low + (maybe.get(key) ?? 0);
		if (times < low || times > high) {
			const said = [...(notProcessed.get(key) ?? new Map<string, number>())];
			// Finer labels, so that FUZZ_IGNORE can look past one cause: 3c more items claim the number
			// than it was processed; 3d / 3n / 3b the processings no item owns up to are as many as
			// items that call it a duplicate ("sent once") / "not sent" / that are bare error items.
			const excess = times - high;
			const cover = (status: string) => excess > 0 && excess <= (notProcessed.get(key)?.get(status) ?? 0);
			const label = times < low ? '3c' : cover('duplicate') ? '3d' : cover('not sent') ? '3n' : cover('error item') ? '3b' : '3';
			problems.push(
				`${label}: ${key} was processed ${times} time(s), but the items report it accepted ${low} time(s), unconfirmed ${high - low} time(s)` +
					(said.length ? `, and ${said.map(([status, n]) => `${status} ${n} time(s)`).join(', ')}` : ''),
			);
		}
	}
	return problems;
}

// ─── The property ────────────────────────────────────────────────────────────────────────────────

/** The run in words, with what happened, for a failure message. */
export function describeRun(run: GeneratedRun, seen: Observation): string {
	return JSON.stringify(
		{
			parameters: nodeParameters(run),
			settings: nodeSettings(run),
			items: inputItems(run).map((i) => i.json),
			clockSteps: run.clockSteps,
			campaignFaults: run.faults,
			providerLimit: run.providerLimit,
			senderListFailures: run.senderListFailures,
			processed: seen.processed.map((c) => c.map((r) => (r.notifyId ? `${r.msisdn}/${r.notifyId}` : r.msisdn))),
			error: seen.error?.message,
			outputs: seen.outputs.map((o) => {
				const report = (o.json.details ?? o.json) as Record<string, any>;
				return {
					output: o.output,
					item: o.item,
					error: o.json.error,
					success: report.success,
					recipients: reportedRecipients(report).map((r) => `${r.msisdn}: ${r.status}`),
				};
			}),
		},
		null,
		1,
	);
}

export interface PropertyOptions {
	/** Told after each run (shrinking runs included), with how long it took. */
	onRun?: (run: GeneratedRun, ms: number) => void;
	/**
	 * Labels of violations not to count ('1'…'5', '3b', '3c', '3d', '3n', '3r', 'fail', 'q'): only for `npm run
	 * fuzz` with FUZZ_IGNORE, to look past a violation already reported. `npm test` ignores none.
	 */
	ignore?: readonly string[];
}

/** The property over generated runs. */
export function campaignProperty(fixture: () => PhonovationFixture, options: PropertyOptions = {}) {
	const ignored = new Set(options.ignore ?? []);
	return fc.asyncProperty(generatedRun, async (run) => {
		const started = Date.now();
		const seen = await execute(fixture(), run);
		options.onRun?.(run, Date.now() - started);
		const problems = violationsOf(run, seen).filter((p) => !ignored.has(p.slice(0, p.indexOf(':'))));
		if (problems.length > 0) throw new Error(`${problems.join('\n')}\nRun:\n${describeRun(run, seen)}`);
	});
}
