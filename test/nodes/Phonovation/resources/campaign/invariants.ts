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
 *
 * What the provider's documentation leaves unshown (marked [U] in docs/provider-api.md: a gap
 * that can cost money or text a suppressed
 * number) is generated too (issue 31): answers without `success: true` (a 200 `success: false`, a
 * 200 that is no JSON), 5xx with and without the provider's JSON, provider `errors` as objects or
 * nulls, connections that never open (DNS, refused), timeouts, a Send At or Quiet Hours that begin
 * while a request waits, other countries' national forms with their Default Country Code, CRM rows
 * in Exclude Numbers, and a Retry of the failed execution. Whether a request may have been
 * processed is judged by one rule (see `trustedRefusal`): only the provider's own refusal is one.
 */
import dns from 'node:dns';

import fc from 'fast-check';
import { DateTime, Settings } from 'luxon';
import type { IExecuteContextData, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { type Fault, simulatorCredentialData } from '../../../../simulator';
import type { CampaignExchange } from '../../../../simulator/simulator';
import type { PhonovationFixture } from '../../fixture';

// ─── Subscribers and the ways people write their numbers ────────────────────────────────────────

type Country = '353' | '44' | '33';

interface Subscriber {
	/** The msisdn the node must send (international, digits only). */
	msisdn: string;
	/** What follows the country code. */
	national: string;
	country: Country;
	/** A mobile: a spreadsheet may drop the leading 0 of its national form (871000001, 7911123456, 612345678). */
	mobile: boolean;
}

const subscriber = (country: Country, national: string, mobile = true): Subscriber => ({
	msisdn: country + national,
	national,
	country,
	mobile,
});

/**
 * A small pool, so that items often share numbers. The landline is valid for the node but refused
 * by the provider (it texts mobiles only): it becomes `rejected by provider`, or a 400 when a
 * batch holds nothing else. The French mobiles are in another time zone (Quiet Hours per recipient).
 */
export const SUBSCRIBERS: readonly Subscriber[] = [
	subscriber('353', '871000001'),
	subscriber('353', '871000002'),
	subscriber('353', '851000003'),
	subscriber('353', '861000004'),
	subscriber('44', '7911123456'),
	subscriber('353', '12345678', false),
	subscriber('33', '612345678'),
	subscriber('33', '712345679'),
];

const isIrish = (msisdn: string) => msisdn.startsWith('353');

/** The time zone a recipient's Quiet Hours are judged in (the node's table for these countries). */
export function zoneOfNumber(msisdn: string): string | undefined {
	if (msisdn.startsWith('353')) return 'Europe/Dublin';
	if (msisdn.startsWith('44')) return 'Europe/London';
	if (msisdn.startsWith('33')) return 'Europe/Paris';
	return undefined;
}

/**
 * `871000001` → `87 100 0001`; `7911123456` → `7911 123456`; `612345678` → `6 12 34 56 78`; a landline `1 234 5678`.
 */
function grouped(s: Subscriber): string {
	const n = s.national;
	if (s.country === '44') return `${n.slice(0, 4)} ${n.slice(4)}`;
	if (s.country === '33') return `${n.slice(0, 1)} ${n.slice(1).replace(/(\d\d)(?=\d)/g, '$1 ')}`;
	if (n.startsWith('1')) return `${n.slice(0, 1)} ${n.slice(1, 4)} ${n.slice(4)}`;
	return `${n.slice(0, 2)} ${n.slice(2, 5)} ${n.slice(5)}`;
}

/** The run's Default Country Code: `35` is no country's calling code (it would make 087… a Finnish +358 number). */
export type CountryCode = Country | '35';

/**
 * How a recipient (or an Exclude Numbers entry) may be written, each meaning the subscriber's
 * msisdn under the node's documented rules (README "Numbers"). `null`: not a way this
 * subscriber's number is written (the national form 0… is read with the Default Country Code, so
 * it is only written for a subscriber of that country: `087…` with 353, `07911…` with 44, `06…` with 33).
 */
export const NUMBER_FORMS = {
	digits: (s: Subscriber) => s.msisdn,
	plus: (s: Subscriber) => `+${s.msisdn}`,
	plusSpaced: (s: Subscriber) => `+${s.country} ${grouped(s)}`,
	doubleZero: (s: Subscriber) => `00${s.msisdn}`,
	spacedDoubleZero: (s: Subscriber) => `00 ${s.country} ${grouped(s)}`,
	trunkZero: (s: Subscriber) => `+${s.country} (0)${grouped(s)}`,
	national: (s: Subscriber, cc: CountryCode) => (s.country === cc ? `0${s.national}` : null),
	nationalSpaced: (s: Subscriber, cc: CountryCode) => (s.country === cc ? `0${grouped(s)}` : null),
	nationalDashed: (s: Subscriber, cc: CountryCode) =>
		s.country === cc ? `0${grouped(s).replace(/ /g, '-')}` : null,
	jsNumber: (s: Subscriber) => Number(s.msisdn),
} satisfies Record<string, (s: Subscriber, cc: CountryCode) => string | number | null>;
export type NumberForm = keyof typeof NUMBER_FORMS;

/**
 * Exclude Numbers reads a mobile of the Default Country Code's country whose leading 0 a
 * spreadsheet dropped (README "Exclude Numbers never misses a number it can read": `871234567`
 * with 353, `7911123456` with 44, `612345678` with 33); as a recipient the same text is invalid
 * (or another country's number).
 */
export const EXCLUSION_ONLY_FORMS = {
	lostZero: (s: Subscriber, cc: CountryCode) => (s.mobile && s.country === cc ? s.national : null),
	lostZeroNumber: (s: Subscriber, cc: CountryCode) =>
		s.mobile && s.country === cc ? Number(s.national) : null,
} satisfies Record<string, (s: Subscriber, cc: CountryCode) => string | number | null>;
export type ExclusionForm = NumberForm | keyof typeof EXCLUSION_ONLY_FORMS;

/** Entries that are no number a recipient can have (too short, letters, an Irish mobile without its 0). */
export const INVALID_ENTRIES: readonly (string | number)[] = [
	'12345',
	'abc',
	'0871234',
	'+353 87 100',
	871000001,
	'871000002',
	'+44 12',
	'n/a',
];
/**
 * Those invalid only because the Default Country Code is Irish (with 44, `0871234` is a UK number and `871000001` an
 * international one).
 */
const INVALID_ONLY_IN_IRELAND = new Set([2, 4, 5]);

/**
 * Exclude Numbers entries that cannot be read as a number: they exclude no one, so they stop the
 * run (Unreadable Exclusions = Fail, the default) or are listed in `warnings` (Warn).
 */
export const UNREADABLE_EXCLUSIONS: readonly string[] = ['abc', 'n/a', '12345', 'opted out'];

function written(who: number, form: ExclusionForm, cc: CountryCode): string | number {
	const s = SUBSCRIBERS[who];
	const write =
		(NUMBER_FORMS as Record<string, (s: Subscriber, cc: CountryCode) => string | number | null>)[
			form
		] ??
		(
			EXCLUSION_ONLY_FORMS as Record<
				string,
				(s: Subscriber, cc: CountryCode) => string | number | null
			>
		)[form];
	return write(s, cc) ?? s.msisdn;
}

// ─── A generated run ─────────────────────────────────────────────────────────────────────────────

/** One entry of an item's recipients: a subscriber written some way, or something invalid. */
export type RecipientEntry = { who: number; form: NumberForm } | { invalid: number };

/** How an item holds its entries in `$json.phone`. */
export const PHONE_SHAPES = {
	/** One entry as it is (string or JS number); several joined with ", ". */
	value: (values: (string | number)[]) =>
		values.length === 1 ? values[0] : values.map(String).join(', '),
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

const CRM_NAMES = ['Ann Byrne', 'Bob Kelly', 'Cian Walsh'];
const expression = (value: unknown) => `={{ ${JSON.stringify(value, null, 1)} }}`;

/**
 * A CRM contact as an export gives it: an empty Phone, the number under another field that says
 * phone (`MobilePhone`, `HomePhone`, `Work Phone`…: the field names vary by CRM and by entry), other fields around it.
 */
const crmRow = (fields: readonly string[]) => (value: string | number, i: number) => ({
	Name: CRM_NAMES[i % CRM_NAMES.length],
	Email: `contact${i}@example.com`,
	Phone: '',
	[fields[i % fields.length]]: value,
});
const CRM_ROW = crmRow(['MobilePhone', 'HomePhone', 'Work Phone']);
const CRM_ITEM = crmRow(['Mobile Phone', 'Phone 2', 'TelNo']);

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
		values.length === 1
			? `={{ ${JSON.stringify(values[0])} }}`
			: `={{ ${JSON.stringify(values)} }}`,
	/** CRM rows (`{ Name, Email, Phone: "", MobilePhone }`), one object alone, several in an array. */
	crmRows: (values: (string | number)[]) =>
		expression(values.length === 1 ? CRM_ROW(values[0], 0) : values.map(CRM_ROW)),
	/** Whole n8n items of a CRM node (`$('Contacts').all()`): read by their json (`Mobile Phone`, `Phone 2`, `TelNo`). */
	crmItems: (values: (string | number)[]) =>
		expression(values.map((v, i) => ({ json: CRM_ITEM(v, i), pairedItem: { item: 0 } }))),
	/** CRM rows whose number is under a home phone field, the mobile one empty. */
	crmHomePhone: (values: (string | number)[]) =>
		expression(
			values.map((v, i) => ({ 'Contact ID': 1000 + i, MobilePhone: '', 'Home Phone': v })),
		),
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

const PROXY_PAGE = (status: number, reason: string) =>
	`<html>\r\n<head><title>${status} ${reason}</title></head>\r\n<body>\r\n<center><h1>${status} ${reason}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
/**
 * Envoy's answer when the upstream (the API) dropped the connection after it had the request: it may have processed
 * it.
 */
const UPSTREAM_RESET =
	'upstream connect error or disconnect/reset before headers. reset reason: connection termination';

/**
 * Faults for the next campaign requests, in order (`pass` lets one through untouched). What each
 * means for the provider: processed (a campaign is recorded) or not; the oracle reads the
 * simulator's record of each request (`campaignExchanges`), not these names.
 */
export const CAMPAIGN_FAULTS = {
	pass: { kind: 'delay', ms: 0 },
	'429': { kind: 'status', status: 429, retryAfter: 0 },
	'429 wait 1s': { kind: 'status', status: 429, retryAfter: 1 },
	'processed, then 500': { kind: 'answer', status: 500, body: 'Internal Server Error' },
	'processed, then 201 empty': { kind: 'answer', status: 201, body: '' },
	/**
	 * A 2xx whose body says `success: false`: only `success: true` confirms, so this may have been processed (it was).
	 */
	'processed, then 200 success:false': {
		kind: 'answer',
		status: 200,
		contentType: 'application/json; charset=utf-8',
		body: JSON.stringify({
			success: false,
			message: 'Error scheduling campaign',
			errors: ['Internal error, please try again'],
		}),
	},
	'processed, then 200 HTML': {
		kind: 'answer',
		status: 200,
		contentType: 'text/html',
		body: '<html><body><h1>Request received</h1></body></html>',
	},
	'processed, then 502 proxy page': {
		kind: 'answer',
		status: 502,
		contentType: 'text/html',
		body: PROXY_PAGE(502, 'Bad Gateway'),
	},
	'processed, then 503 upstream reset': { kind: 'answer', status: 503, body: UPSTREAM_RESET },
	'processed, then 503 proxy page': {
		kind: 'answer',
		status: 503,
		contentType: 'text/html',
		body: PROXY_PAGE(503, 'Service Temporarily Unavailable'),
	},
	'processed, then 504 proxy page': {
		kind: 'answer',
		status: 504,
		contentType: 'text/html',
		body: PROXY_PAGE(504, 'Gateway Time-out'),
	},
	/** A redirect after processing (a 303 is what a server answers a processed POST with); never followed. */
	'processed, then 303 redirect': { kind: 'answer', status: 303, body: '' },
	'accepted, errors as objects': { kind: 'errorsAs', shape: 'objects' },
	'accepted, errors mixed with nulls': { kind: 'errorsAs', shape: 'mixed' },
	'accepted, errors null': { kind: 'errorsAs', shape: 'null' },
	'500': { kind: 'status', status: 500 },
	'502': { kind: 'status', status: 502 },
	/** The provider's own JSON CampaignResponse (`success: false`) with a 503: a refusal it vouches for. */
	'503': { kind: 'status', status: 503 },
	'503 proxy page (not processed)': {
		kind: 'status',
		status: 503,
		contentType: 'text/html',
		body: PROXY_PAGE(503, 'Service Temporarily Unavailable'),
	},
	'late (processed after the timeout)': { kind: 'delay', ms: 2 * REQUEST_TIMEOUT_MS },
	slow: { kind: 'delay', ms: 50 },
	reset: { kind: 'reset' },
} satisfies Record<string, Fault>;
export type CampaignFault = keyof typeof CAMPAIGN_FAULTS;

export type OnError = 'stopWorkflow' | 'continueRegularOutput' | 'continueErrorOutput';

export type Zone = 'Europe/Dublin' | 'Europe/Paris';

/**
 * Quiet Hours (real time, judged against the wall clock as each request goes):
 * - `now`: from an hour ago to an hour ahead in `anchor`'s local time: every subscriber of that
 *   zone (and a zone an hour away, partly) is inside them, so those requests must carry a sendAt;
 * - `soon`: from the next minute on, for an hour, in `anchor`'s local time; the run starts half a
 *   second before that minute (the wall clock is moved), so a request that waits crosses it.
 * `named`: the Quiet Hours Time Zone option; without it they are judged in each recipient's zone.
 */
export interface QuietHoursSetting {
	when: 'now' | 'soon';
	anchor: Zone;
	named?: Zone;
}

/**
 * A connection to the credential's Base URL that never opens, for the first `failures` campaign
 * requests (the sender list is read first, normally): the host name does not resolve (`ENOTFOUND`,
 * `EAI_AGAIN`) or nothing listens (`ECONNREFUSED`). The provider never sees those requests.
 */
export interface Unreachable {
	failures: number;
	how: 'ENOTFOUND' | 'EAI_AGAIN' | 'ECONNREFUSED';
}

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
	/** Default Country Code (353 unless set). */
	countryCode?: CountryCode;
	quietHours?: QuietHoursSetting;
	/**
	 * The Schedule operation instead of Send: Send At half an hour ahead (`later`), or the next
	 * minute with the run starting half a second before it (`soon`: a request that waits finds it passed).
	 */
	schedule?: 'later' | 'soon';
	/**
	 * With a `soon` moment: the first campaign request is answered 429 with Retry-After: 1, so its
	 * repeat goes after the moment (a wait of the node's own making, like a pacer slot).
	 */
	waitAcrossTheMoment?: boolean;
	/** The workflow's time zone (n8n's own default is America/New_York). */
	workflowZone?: 'Europe/Dublin' | 'America/New_York';
	batchSize: number;
	parallelRequests: number;
	/** Adaptive Parallel Requests (on unless false). */
	adaptive?: boolean;
	/** A provider with a limit: at most this many campaign requests at once, 429 (Retry-After: 0) above it. */
	providerLimit?: number;
	faults: CampaignFault[];
	/** Connections to the Base URL that never open (campaign requests). */
	unreachable?: Unreachable;
	/** Answers of HTTP 500 to the first sender-list requests. */
	senderListFailures: number;
	retry: { retryOnFail: boolean; maxTries: number };
	onError: OnError;
	/** An execution that ends in an error is retried once, as n8n's Retry does (with the node context it saved). */
	executionRetry?: boolean;
	/**
	 * Each row writes its options its own way, meaning the same (`21:00 – 08:00`, `Transactional`,
	 * `" 400 "`, Dry Run `FALSE`), as a spreadsheet does: rows must still be one campaign.
	 */
	spellings?: boolean;
}

const weighted = <T>(...choices: Array<[number, T]>) =>
	fc.oneof(...choices.map(([weight, value]) => ({ weight, arbitrary: fc.constant(value) })));

const numberForms = Object.keys(NUMBER_FORMS) as NumberForm[];

const recipientEntry: fc.Arbitrary<RecipientEntry> = fc.oneof(
	{
		weight: 6,
		arbitrary: fc.record({
			who: fc.nat(SUBSCRIBERS.length - 1),
			form: fc.constantFrom(...numberForms),
		}),
	},
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

/**
 * A suppression list is where national forms and lost zeros turn up (a spreadsheet of opt-outs): they are likelier
 * there.
 */
const exclusionForm = fc.oneof(
	{ weight: 1, arbitrary: fc.constantFrom(...numberForms) },
	{
		weight: 1,
		arbitrary: fc.constantFrom<ExclusionForm>(
			'national',
			'nationalSpaced',
			'lostZero',
			'lostZeroNumber',
		),
	},
);

const exclusionEntry: fc.Arbitrary<ExclusionEntry> = fc.oneof(
	{ weight: 6, arbitrary: fc.record({ who: fc.nat(SUBSCRIBERS.length - 1), form: exclusionForm }) },
	{ weight: 1, arbitrary: fc.record({ unreadable: fc.nat(UNREADABLE_EXCLUSIONS.length - 1) }) },
);

/**
 * The expensive faults (a second's wait, a timeout) keep their share of before; the provider's unknowns
 * (docs/provider-api.md) are cheap.
 */
const campaignFault = weighted<CampaignFault>(
	[6, 'pass'],
	[3, '429'],
	[1, '429 wait 1s'],
	[3, 'processed, then 500'],
	[1, 'processed, then 201 empty'],
	[2, 'processed, then 200 success:false'],
	[1, 'processed, then 200 HTML'],
	[1, 'processed, then 502 proxy page'],
	[1, 'processed, then 503 upstream reset'],
	[1, 'processed, then 503 proxy page'],
	[1, 'processed, then 504 proxy page'],
	[1, 'processed, then 303 redirect'],
	[1, 'accepted, errors as objects'],
	[1, 'accepted, errors mixed with nulls'],
	[1, 'accepted, errors null'],
	[1, '500'],
	[2, '502'],
	[3, '503'],
	[1, '503 proxy page (not processed)'],
	[2, 'late (processed after the timeout)'],
	[1, 'slow'],
	[3, 'reset'],
);

/** `value` in `yes` of `yes + no` runs, else undefined. */
const sometimes = <T>(
	yes: number,
	no: number,
	value: fc.Arbitrary<T>,
): fc.Arbitrary<T | undefined> =>
	fc.oneof({ weight: no, arbitrary: fc.constant(undefined) }, { weight: yes, arbitrary: value });

const zone = weighted<Zone>([1, 'Europe/Dublin'], [1, 'Europe/Paris']);

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
	countryCode: weighted<CountryCode>([12, '353'], [4, '44'], [4, '33'], [1, '35']),
	quietHours: sometimes(
		1,
		3,
		fc.record({
			when: weighted<'now' | 'soon'>([3, 'now'], [1, 'soon']),
			anchor: zone,
			named: sometimes(1, 2, zone),
		}),
	),
	schedule: weighted<'later' | 'soon' | undefined>([18, undefined], [1, 'later'], [1, 'soon']),
	waitAcrossTheMoment: weighted([5, false], [1, true]),
	workflowZone: weighted<'Europe/Dublin' | 'America/New_York'>(
		[1, 'Europe/Dublin'],
		[1, 'America/New_York'],
	),
	batchSize: fc.integer({ min: 1, max: 3 }),
	parallelRequests: fc.integer({ min: 1, max: 4 }),
	adaptive: fc.boolean(),
	providerLimit: weighted([4, 0], [1, 1], [1, 2]),
	faults: fc.array(campaignFault, { maxLength: 6 }),
	unreachable: sometimes(
		1,
		9,
		fc.record({
			failures: fc.integer({ min: 1, max: 2 }),
			how: weighted<Unreachable['how']>([2, 'ENOTFOUND'], [1, 'EAI_AGAIN'], [1, 'ECONNREFUSED']),
		}),
	),
	senderListFailures: weighted([16, 0], [1, 1], [1, 2]),
	retry: fc.record({ retryOnFail: fc.boolean(), maxTries: fc.integer({ min: 1, max: 3 }) }),
	onError: weighted<OnError>(
		[1, 'stopWorkflow'],
		[1, 'continueRegularOutput'],
		[1, 'continueErrorOutput'],
	),
	executionRetry: weighted([3, false], [1, true]),
	spellings: weighted([2, false], [1, true]),
});

// ─── The run as n8n sees it ──────────────────────────────────────────────────────────────────────

const countryCodeOf = (run: GeneratedRun): CountryCode => run.countryCode ?? '353';

/** Each entry's written value and the msisdn the node must make of it (null: invalid). */
function entryOf(
	entry: RecipientEntry,
	cc: CountryCode,
): { value: string | number; msisdn: string | null } {
	if ('invalid' in entry) {
		// With another country's code those few are numbers after all: another invalid entry stands in.
		const index = cc !== '353' && INVALID_ONLY_IN_IRELAND.has(entry.invalid) ? 1 : entry.invalid;
		return { value: INVALID_ENTRIES[index], msisdn: null };
	}
	return { value: written(entry.who, entry.form, cc), msisdn: SUBSCRIBERS[entry.who].msisdn };
}

function exclusionOf(
	entry: ExclusionEntry,
	cc: CountryCode,
): { value: string | number; msisdn: string | null } {
	if ('unreadable' in entry)
		return { value: UNREADABLE_EXCLUSIONS[entry.unreadable], msisdn: null };
	return { value: written(entry.who, entry.form, cc), msisdn: SUBSCRIBERS[entry.who].msisdn };
}

const LONG_REF = 'x'.repeat(31);

export function inputItems(run: GeneratedRun): INodeExecutionData[] {
	const cc = countryCodeOf(run);
	return run.items.map((item, i) => {
		const values = item.recipients.map((e) => entryOf(e, cc).value);
		const json: Record<string, unknown> = {
			name: item.name,
			ref: item.longRef ? LONG_REF : `ref-${i}`,
		};
		if (values.length > 0)
			json.phone = PHONE_SHAPES[item.shape](values) as INodeExecutionData['json'][string];
		return { json: json as INodeExecutionData['json'] };
	});
}

/** Quiet Hours as the oracle judges them: minutes after local midnight, in these zones (none: each recipient's). */
export interface QuietWindow {
	option: string;
	start: number;
	end: number;
	named?: Zone;
}

const minutesOf = (at: DateTime) => at.hour * 60 + at.minute;

/**
 * The run's Quiet Hours against the (possibly moved) wall clock: from an hour ago to an hour
 * ahead, or from `moment` (a minute's start) for an hour, in the anchor zone's local time.
 */
export function quietWindowOf(
	setting: QuietHoursSetting,
	nowMs: number,
	moment?: number,
): QuietWindow {
	const zone = setting.named ?? setting.anchor;
	const now = DateTime.fromMillis(nowMs, { zone });
	const start =
		setting.when === 'soon' && moment !== undefined
			? DateTime.fromMillis(moment, { zone })
			: now.minus({ hours: 1 });
	const end =
		setting.when === 'soon' && moment !== undefined
			? start.plus({ hours: 1 })
			: now.plus({ hours: 1 }).startOf('minute');
	return {
		option: `${start.toFormat('HH:mm')}-${end.toFormat('HH:mm')}`,
		start: minutesOf(start),
		end: minutesOf(end),
		named: setting.named,
	};
}

/** Whether `ms` is inside the window in `zone`'s local time (its end is outside, as in the node). */
export function insideQuietHours(ms: number, window: QuietWindow, zone: string): boolean {
	const minute = minutesOf(DateTime.fromMillis(ms, { zone }));
	return window.start > window.end
		? minute >= window.start || minute < window.end
		: minute >= window.start && minute < window.end;
}

/** What the moment-dependent parameters are for one execution of a run. */
export interface Moments {
	quiet?: QuietWindow;
	/** The Schedule's Send At as given to the node (ISO, UTC). */
	sendAt?: string;
	/** The minute the run starts half a second before, when it has a `soon` moment (epoch ms, moved clock). */
	moment?: number;
}

const capitalised = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** Ways a spreadsheet writes each option's value, all meaning the same. */
const SPELLINGS: Record<string, (value: unknown) => unknown[]> = {
	messageType: (v) => [v, capitalised(String(v)), String(v).toUpperCase()],
	invalidNumbers: (v) =>
		v === 'skip' ? ['skip', 'Skip and Report', 'SKIP'] : ['fail', 'Fail', 'FAIL'],
	unreadableExclusions: (v) => [v, capitalised(String(v)), ` ${String(v).toUpperCase()} `],
	batchSize: (n) => [n, String(n), ` ${String(n)} `],
	timeout: (n) => [n, String(n)],
	dryRun: () => [false, 'false', 'FALSE', 0, 'no', 'off', ''],
	quietHours: (w) =>
		/^\d\d:\d\d-\d\d:\d\d$/.test(String(w))
			? [w, String(w).replace('-', ' – '), String(w).replace(/^0/, '').replace('-', ' to ')]
			: [w],
	quietHoursTimeZone: (z) => [z, String(z).toLowerCase()],
};

/** The options, each row choosing its own spelling of every value by its index. */
function spelledPerRow(options: INodeParameters): INodeParameters {
	const spelled: INodeParameters = { ...options, dryRun: false };
	for (const [name, spellingsOf] of Object.entries(SPELLINGS)) {
		if (spelled[name] === undefined) continue;
		const ways = spellingsOf(spelled[name]);
		spelled[name] = `={{ ${JSON.stringify(ways)}[$itemIndex % ${ways.length}] }}`;
	}
	return spelled;
}

export function nodeParameters(run: GeneratedRun, moments: Moments = {}): INodeParameters {
	const options: INodeParameters = {
		messageType: 'transactional',
		batchSize: run.batchSize,
		parallelRequests: run.parallelRequests,
		...(run.adaptive === false ? { adaptiveParallelRequests: false } : {}),
		timeout: REQUEST_TIMEOUT_MS,
		invalidNumbers: run.invalidNumbers,
	};
	if (run.countryCode && run.countryCode !== '353') options.defaultCountryCode = run.countryCode;
	if (run.quietHours) {
		options.quietHours =
			moments.quiet?.option ??
			`(${run.quietHours.when}, in ${run.quietHours.named ?? run.quietHours.anchor})`;
		if (run.quietHours.named) options.quietHoursTimeZone = run.quietHours.named;
	}
	const notifyId = NOTIFY_IDS[run.notifyId];
	if (notifyId !== undefined) options.notifyId = notifyId;
	if (run.exclude) {
		const cc = countryCodeOf(run);
		options.excludeNumbers = EXCLUDE_SHAPES[run.exclude.shape](
			run.exclude.entries.map((e) => exclusionOf(e, cc).value),
		);
		if (run.exclude.unreadable === 'warn') options.unreadableExclusions = 'warn';
	}
	return {
		resource: 'campaign',
		operation: run.schedule ? 'schedule' : 'send',
		from: run.sender,
		text: TEXTS[run.text],
		recipients: '={{ $json.phone }}',
		...(run.schedule ? { sendAt: moments.sendAt ?? `(${run.schedule})` } : {}),
		options: run.spellings ? spelledPerRow(options) : options,
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

/** A campaign request that reached the provider, as the oracle reads it. */
export interface SeenRequest {
	/** Epoch ms (moved clock): when it arrived. */
	arrivedAt: number;
	/** Every recipientInfo entry it carried. */
	recipients: Array<{ msisdn: string; notifyId: string | null }>;
	sendAt: string | null;
	/** The numbers the provider processed and accepted (empty: not processed). */
	accepted: string[];
	processed: boolean;
	/** Its answer said so (`success: true` in a 2xx JSON CampaignResponse), in time for the node to read it. */
	confirmed: boolean;
	/**
	 * Refused in a way the provider vouches for (see `trustedRefusal`), in time for the node to read it: nothing was
	 * processed.
	 */
	trustedRefusal: boolean;
	/** For a failure message: status (0 a dropped connection), the fault met, ms from arrival to answer. */
	answer: string;
}

export interface Observation {
	/** What the provider processed, request by request: every recipientInfo entry. */
	processed: Array<Array<{ msisdn: string; notifyId: string | null }>>;
	/** Every campaign request that reached the provider, processed or not, in arrival order. */
	requests: SeenRequest[];
	/** The Quiet Hours window, Send At and `soon` moment the run was given. */
	moments: Moments;
	/** The numbers the provider accepted (not refused as invalid), whether or not its answer said so. */
	acceptedByProvider: string[];
	/** The numbers the provider accepted in an answer that confirmed it in time. */
	confirmedAccepted: string[];
	/** Connections that never opened. */
	neverOpened: number;
	/** Executions run: 2 when the failed one was retried. */
	executions: number;
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

/** How long before its `soon` moment a run starts: setting up, logging in and reading the sender list take less. */
export const LEAD_MS = 500;
/**
 * A request judged just before a moment reaches the provider a little after it; one that arrives
 * later than this after the moment was posted on a verdict that waited. A verdict given before the
 * moment (the run starts LEAD_MS before it) that waits out a 429's second arrives 500–1,000 ms
 * after it: this is below that, and far above a request's own way from verdict to provider.
 */
export const MOMENT_TOLERANCE_MS = 400;

/**
 * The wall clock moved (every `new Date()` and `Date.now()` in this process: the node, n8n, the
 * simulator) so that it reads LEAD_MS before the start of a minute: that minute is the run's
 * moment. Time still runs at its pace; the move is under a minute. Undone by the returned function.
 */
function moveWallClock(): { moment: number; restore: () => void } {
	const RealDate = globalThis.Date;
	const real = RealDate.now();
	const moment = Math.ceil((real + LEAD_MS + 1) / 60_000) * 60_000;
	const offset = moment - LEAD_MS - real;
	class MovedDate extends RealDate {
		constructor(...args: unknown[]) {
			if (args.length === 0) super(RealDate.now() + offset);
			else super(...(args as [string]));
		}

		static override now(): number {
			return RealDate.now() + offset;
		}

		static [Symbol.hasInstance](value: unknown): boolean {
			return value instanceof RealDate;
		}
	}
	globalThis.Date = MovedDate as DateConstructor;
	return {
		moment,
		restore: () => {
			globalThis.Date = RealDate;
		},
	};
}

/** The credential's Base URL during an `unreachable` run: `localhost`, whose look-ups `breakConnections` answers. */
const UNREACHABLE_HOST = 'localhost';

type LookupCallback = (...args: unknown[]) => void;

/**
 * Makes the next `failures` connections to UNREACHABLE_HOST never open, once the sender list has
 * been read: the look-up fails (`ENOTFOUND`, `EAI_AGAIN`), or points at a loopback address where
 * nothing listens (`ECONNREFUSED`); every other look-up of it finds the simulator. Returns how
 * many failed so far, and the undo.
 */
function breakConnections(
	fixture: PhonovationFixture,
	unreachable: Unreachable,
): { failed: () => number; restore: () => void } {
	const original = dns.lookup;
	let failed = 0;
	const lookup = (hostname: string, options: unknown, callback?: LookupCallback) => {
		if (typeof options === 'function') return lookup(hostname, {}, options as LookupCallback);
		const call = (host: string) =>
			(original as unknown as (h: string, o: unknown, c?: LookupCallback) => void).call(
				dns,
				host,
				options,
				callback,
			);
		if (hostname !== UNREACHABLE_HOST) return call(hostname);
		if (failed < unreachable.failures && fixture.sim.count('GET', SENDER_LIST) > 0) {
			failed++;
			if (unreachable.how === 'ECONNREFUSED') return call('127.0.0.3');
			const error = Object.assign(new Error(`getaddrinfo ${unreachable.how} ${hostname}`), {
				code: unreachable.how,
				errno: unreachable.how === 'ENOTFOUND' ? -3008 : -3001,
				syscall: 'getaddrinfo',
				hostname,
			});
			return process.nextTick(() => callback?.(error));
		}
		return call('127.0.0.1');
	};
	(dns as { lookup: unknown }).lookup = lookup;
	return {
		failed: () => failed,
		restore: () => {
			(dns as { lookup: unknown }).lookup = original;
		},
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
		if (Date.now() > until)
			throw new Error(`the simulator still has ${open()} request(s) open after ${deadlineMs} ms`);
		await new Promise((resolve) => setTimeout(resolve, 5));
	}
}

function pairedIndex(paired: unknown): number | undefined {
	if (typeof paired === 'number') return paired;
	if (Array.isArray(paired)) return paired.length === 1 ? pairedIndex(paired[0]) : undefined;
	if (paired && typeof paired === 'object' && 'item' in paired)
		return (paired as { item: number }).item;
	return undefined;
}

const parsed = (text: string | undefined): unknown => {
	try {
		return text === undefined ? undefined : JSON.parse(text);
	} catch {
		return undefined;
	}
};

/**
 * THE rule for "may it have been processed?": a refusal is trusted (the request may be repeated)
 * only when the provider says so: an HTTP 4xx (429 included), or a 503 whose body is the
 * provider's own JSON CampaignResponse with `success: false`. A connection that never opened
 * (DNS, TLS, refused) is trusted too: such a request never reaches the provider, so it is not in
 * its record at all. Everything else may have been processed: a 2xx without `success: true` (a
 * 200 `success: false` included), every other 5xx (a 503 page of a proxy, possibly after the API
 * processed it), a timeout, a reset, a redirect.
 */
export function trustedRefusal(exchange: Pick<CampaignExchange, 'status' | 'answer'>): boolean {
	const { status } = exchange;
	if (status === undefined || status === 0) return false;
	if (status >= 400 && status < 500) return true;
	if (status !== 503) return false;
	const body = parsed(exchange.answer) as { success?: unknown } | undefined;
	return !!body && typeof body === 'object' && body.success === false;
}

/**
 * Whether the node can have read the answer: given before its Timeout, with a margin either way
 * (its clock starts before the request arrives).
 */
function answeredWithin(
	exchange: CampaignExchange,
	margin: 'surely in time' | 'not surely too late',
): boolean {
	if (exchange.answeredAt === undefined || exchange.status === 0) return false;
	const took = exchange.answeredAt - exchange.arrivedAt;
	return margin === 'surely in time'
		? took < REQUEST_TIMEOUT_MS - 100
		: took < REQUEST_TIMEOUT_MS + 100;
}

/** The answer confirmed acceptance to the node: a 2xx JSON `success: true`, answered before the node's Timeout. */
function confirmed(exchange: CampaignExchange): boolean {
	if (
		exchange.campaignId === undefined ||
		exchange.status === undefined ||
		exchange.status < 200 ||
		exchange.status >= 300
	)
		return false;
	if (!answeredWithin(exchange, 'not surely too late')) return false;
	return (parsed(exchange.answer) as { success?: unknown } | undefined)?.success === true;
}

function seenRequests(fixture: PhonovationFixture): SeenRequest[] {
	const campaigns = new Map(fixture.sim.campaigns.map((c) => [c.id, c]));
	return fixture.sim.campaignExchanges.map((exchange) => {
		const campaign =
			exchange.campaignId === undefined ? undefined : campaigns.get(exchange.campaignId);
		const info = Array.isArray(exchange.body?.recipientInfo)
			? (exchange.body.recipientInfo as Array<{ msisdn: string; notifyId?: string }>)
			: [];
		const took =
			exchange.answeredAt === undefined ? 'open' : `${exchange.answeredAt - exchange.arrivedAt} ms`;
		return {
			arrivedAt: exchange.arrivedAt,
			recipients: info.map((r) => ({ msisdn: String(r.msisdn), notifyId: r.notifyId ?? null })),
			sendAt: (exchange.body?.sendAt as string | undefined) ?? null,
			accepted: campaign ? campaign.accepted.map((r) => r.msisdn) : [],
			processed: campaign !== undefined,
			confirmed: confirmed(exchange),
			// A refusal the node waited out its Timeout for is, to the node, no answer at all.
			trustedRefusal: trustedRefusal(exchange) && answeredWithin(exchange, 'surely in time'),
			answer: `${exchange.status ?? 'open'}${exchange.fault ? ` (${exchange.fault})` : ''} after ${took}`,
		};
	});
}

type Runner = (contextData?: IExecuteContextData) => ReturnType<PhonovationFixture['run']>;

export async function execute(
	fixture: PhonovationFixture,
	run: GeneratedRun,
): Promise<Observation> {
	fixture.reset();
	const soon = run.quietHours?.when === 'soon' || run.schedule === 'soon';
	const wall = soon ? moveWallClock() : undefined;
	const moments: Moments = { moment: wall?.moment };
	if (run.quietHours) moments.quiet = quietWindowOf(run.quietHours, Date.now(), wall?.moment);
	if (run.schedule)
		moments.sendAt = new Date(
			run.schedule === 'soon' ? wall!.moment : Date.now() + 30 * 60_000,
		).toISOString();
	if (soon && run.waitAcrossTheMoment)
		fixture.sim.injectFault(CAMPAIGN, CAMPAIGN_FAULTS['429 wait 1s']);
	for (const fault of run.faults) fixture.sim.injectFault(CAMPAIGN, CAMPAIGN_FAULTS[fault]);
	if (run.senderListFailures > 0)
		fixture.sim.injectFault(SENDER_LIST, { kind: 'status', status: 500 }, run.senderListFailures);
	const broken = run.unreachable ? breakConnections(fixture, run.unreachable) : undefined;
	if (run.unreachable) {
		const baseUrl = `http://${UNREACHABLE_HOST}:${new URL(fixture.sim.url).port}`;
		fixture.engine.credentials.set('cred-1', {
			...simulatorCredentialData(fixture.sim, { baseUrl }),
			accessToken: '',
		});
	}
	const zone = fixture.engine.timezone;
	fixture.engine.timezone = run.workflowZone ?? zone;
	const restoreClock = installClock(run.clockSteps);
	fixture.sim.config.campaignLimit = run.providerLimit
		? { max: run.providerLimit, retryAfter: 0 }
		: undefined;
	const runOnce: Runner = (contextData) =>
		fixture.run(
			nodeParameters(run, moments),
			inputItems(run),
			nodeSettings(run),
			contextData ? { contextData } : undefined,
		);
	let result;
	let executions = 1;
	try {
		result = await runOnce();
		if (run.executionRetry && result.error) {
			// n8n's Retry of a failed execution: the same workflow and input, the node context it saved.
			executions++;
			result = await runOnce(result.run.data.executionData?.contextData ?? {});
		}
	} finally {
		restoreClock();
		fixture.engine.timezone = zone;
		fixture.sim.config.campaignLimit = undefined;
		broken?.restore();
	}
	try {
		await settled(fixture);
	} finally {
		wall?.restore();
	}
	const requests = seenRequests(fixture);
	return {
		processed: fixture.sim.campaigns.map((c) =>
			(c.body.recipientInfo as Array<{ msisdn: string; notifyId?: string }>).map((r) => ({
				msisdn: r.msisdn,
				notifyId: r.notifyId ?? null,
			})),
		),
		requests,
		moments,
		acceptedByProvider: fixture.sim.campaigns.flatMap((c) => c.accepted.map((r) => r.msisdn)),
		confirmedAccepted: requests.filter((r) => r.confirmed).flatMap((r) => r.accepted),
		neverOpened: broken?.failed() ?? 0,
		executions,
		error: result.error && {
			message: result.error.message,
			acceptedRecipients: (result.error as { context?: Record<string, unknown> }).context
				?.acceptedRecipients,
		},
		outputs: result.outputs.flatMap((items, output) =>
			items.map((item) => ({
				output,
				item: pairedIndex(item.pairedItem),
				json: item.json as Record<string, any>,
			})),
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
	const cc = countryCodeOf(run);
	const excluded = new Set(
		(run.exclude?.entries ?? [])
			.map((e) => exclusionOf(e, cc).msisdn)
			.filter((m): m is string => m !== null),
	);
	const entries = run.items.map((item) => item.recipients.map((e) => entryOf(e, cc).msisdn));
	const deliverable = (m: string) => !excluded.has(m) && !(run.sender === 'FreeText' && isIrish(m));
	const allowed = new Map<string, number>();
	for (const list of entries) {
		for (const m of new Set(list))
			if (m !== null && deliverable(m)) allowed.set(m, (allowed.get(m) ?? 0) + 1);
	}
	const refOf = (i: number) =>
		run.notifyId === 'perItem'
			? run.items[i].longRef
				? LONG_REF
				: `ref-${i}`
			: run.notifyId === 'fixed'
				? 'promo-7'
				: run.notifyId === 'execution'
					? 'test-execution'
					: null;
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
	if (run.countryCode === '35')
		return "Default Country Code 35, which is no country's calling code";
	const unreadable = (run.exclude?.entries ?? []).some((e) => 'unreadable' in e);
	if (unreadable && run.exclude?.unreadable !== 'warn')
		return 'an unreadable Exclude Numbers entry with Unreadable Exclusions = Fail';
	if (run.invalidNumbers !== 'fail' || run.onError !== 'stopWorkflow') return undefined;
	if (expected.entries.some((list) => list.length === 0 || list.includes(null)))
		return 'an invalid number with Invalid Numbers = Fail';
	if (
		run.sender === 'FreeText' &&
		expected.entries.some((list) => list.some((m) => m !== null && isIrish(m)))
	) {
		return 'an Irish number for an international sender with Invalid Numbers = Fail';
	}
	return undefined;
}

/** The recipients an output item reports, its compact accepted numbers as recipients too. */
function reportedRecipients(
	report: Record<string, any>,
): Array<{ msisdn: string | null; status: string; notifyId: string | null }> {
	const listed = (report.recipients ?? []) as Array<{
		msisdn: string | null;
		status: string;
		notifyId: string | null;
	}>;
	const compact = ((report.acceptedNumbers ?? []) as string[]).map((msisdn) => ({
		msisdn,
		status: 'accepted',
		notifyId: null as string | null,
	}));
	return [...listed, ...compact];
}

/** A JavaScript error the node let out (a TypeError on an answer it did not expect): never a message for the user. */
const CRASH =
	/is not a function|Cannot read properties of|Cannot set properties of|is not iterable|Cannot convert undefined or null|\b(TypeError|ReferenceError|RangeError)\b/;

const sendAtMs = (sendAt: string) => Date.parse(sendAt.replace(/Z$/, ':00Z'));
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Every broken promise of this run, in words (empty: all held), each starting with its label:
 * - `1` no number is processed more often than distinct items (not excluding it, able to reach it)
 *   asked for it, across Retry On Fail and a Retry of the execution;
 * - `2` no excluded number is processed;
 * - `3` (run ended without an error) every item reports each of its numbers, and per number (and
 *   Notify ID, when that names the item) the items reporting it accepted or rejected by provider ≤
 *   times processed ≤ those plus the items reporting it unconfirmed; `3c` more items claim it than
 *   it was processed, `3d` / `3n` / `3b` a processing hides behind `duplicate` / `not sent` / an
 *   item that is only `{ error }` ("Nothing was sent"), `3r` accepted though no answer confirmed it
 *   (`success: true` in time), or rejected by provider though the provider accepted it;
 * - `4` an item with `success: true`, or any item of a run that stops on errors yet ended without
 *   one, has no unconfirmed recipient (unconfirmed is an error on every attempt);
 * - `5` a stopping error's `acceptedRecipients` lists only numbers whose acceptance an answer confirmed;
 * - `u` `unconfirmed` only where a request carrying the number reached the provider and was not
 *   refused in a way it vouches for (`trustedRefusal`): a connection that never opened, a 4xx or a
 *   503 with the provider's JSON processed nothing;
 * - `q` with Quiet Hours, no request that may have been processed goes out inside them (in any of
 *   its recipients' zones, or the named one) without a sendAt outside them; judged by when it reached
 *   the provider, MOMENT_TOLERANCE_MS after the node's verdict at the latest;
 * - `s` a Schedule's request carries a sendAt, not already past when it reached the provider;
 * - `x` the node never fails with a JavaScript error (a TypeError on an answer it did not expect);
 * - `fail` a rule that stops the whole run (README) stops it before anything is processed.
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
		if (times > allowed)
			problems.push(
				`1: ${msisdn} was processed ${times} time(s), but only ${allowed} item(s) may text it`,
			);
	}
	// 1. Rows with one text (and options that mean the same, however written) are one campaign:
	//    a number they share is processed once.
	if (run.text === 'fixed') {
		for (const [msisdn, times] of timesProcessed) {
			if (times > 1)
				problems.push(
					`1: ${msisdn} was processed ${times} times, though every row has the same text`,
				);
		}
	}
	if (run.notifyId === 'perItem') {
		for (const [pair, times] of countBy(processed.map((r) => `${r.msisdn} for ${r.notifyId}`))) {
			if (times > 1) problems.push(`1: ${pair} was processed ${times} times`);
		}
	}

	// q / s. The time rules, judged by when each request that may have been processed reached the provider.
	const maybeProcessed = seen.requests
		.map((r, i) => ({ r, i }))
		.filter(({ r }) => !r.trustedRefusal);
	const quiet = seen.moments.quiet;
	if (quiet) {
		for (const { r, i } of maybeProcessed) {
			const zones = quiet.named
				? [quiet.named]
				: [
						...new Set(
							r.recipients.map(
								(x) => zoneOfNumber(x.msisdn) ?? run.workflowZone ?? 'Europe/Dublin',
							),
						),
					];
			const inside = zones.filter((zone) =>
				r.sendAt !== null
					? insideQuietHours(sendAtMs(r.sendAt), quiet, zone)
					: insideQuietHours(r.arrivedAt, quiet, zone) &&
						insideQuietHours(r.arrivedAt - MOMENT_TOLERANCE_MS, quiet, zone),
			);
			if (inside.length > 0) {
				const how =
					r.sendAt !== null ? `with sendAt ${r.sendAt}` : `at ${iso(r.arrivedAt)} without a sendAt`;
				problems.push(
					`q: request ${i + 1} (${r.answer}) reached the provider ${how}, inside Quiet Hours ${quiet.option} in ${inside.join(', ')}`,
				);
			}
		}
	}
	if (run.schedule) {
		for (const { r, i } of maybeProcessed) {
			if (r.sendAt === null)
				problems.push(
					`s: request ${i + 1} of a Schedule (${r.answer}) reached the provider without a sendAt: it goes at once`,
				);
			else if (sendAtMs(r.sendAt) <= r.arrivedAt - MOMENT_TOLERANCE_MS) {
				problems.push(
					`s: request ${i + 1} of a Schedule (${r.answer}) reached the provider at ${iso(r.arrivedAt)} with sendAt ${r.sendAt}, already past`,
				);
			}
		}
	}

	// 2. No excluded number is ever processed.
	for (const msisdn of expected.excluded) {
		if (timesProcessed.has(msisdn))
			problems.push(`2: excluded ${msisdn} was processed ${timesProcessed.get(msisdn)} time(s)`);
	}

	// Rules that stop the whole run before anything is sent.
	const stopper = mustSendNothing(run, expected);
	if (stopper && processed.length > 0)
		problems.push(`fail: ${stopper}, yet ${processed.length} recipient(s) were processed`);

	// x. Never a JavaScript error, in the run's error or in an item's.
	const crashes = [seen.error?.message, ...seen.outputs.map((o) => o.json.error)].filter(
		(m): m is string => typeof m === 'string' && CRASH.test(m),
	);
	if (crashes.length > 0)
		problems.push(`x: the node failed with a JavaScript error: ${crashes[0]}`);

	const confirmedAccepted = new Set(seen.confirmedAccepted);
	// 5. A run that stops with an error lists in its context.acceptedRecipients only numbers the provider accepted.
	if (seen.error) {
		const listed = Array.isArray(seen.error.acceptedRecipients)
			? (seen.error.acceptedRecipients as string[])
			: [];
		for (const m of listed) {
			if (!confirmedAccepted.has(m))
				problems.push(
					`5: the error's acceptedRecipients lists ${m}, whose acceptance no answer of the provider confirmed`,
				);
		}
		return problems;
	}

	// 3. Every input item reports every one of its recipients, with a status that matches what the provider processed.
	const byItem = new Map<number, Array<(typeof seen.outputs)[number]>>();
	for (const out of seen.outputs) {
		if (out.item === undefined) {
			problems.push(
				`3: an output item is paired with no single input item: ${JSON.stringify(out.json).slice(0, 300)}`,
			);
			continue;
		}
		byItem.set(out.item, [...(byItem.get(out.item) ?? []), out]);
	}
	// Per key (number, and Notify ID when it names the item): reported processed once / maybe / not at all.
	const once = new Map<string, number>();
	const maybe = new Map<string, number>();
	const providerAccepted = new Set(seen.acceptedByProvider);
	/** Numbers carried by a request that reached the provider and may have been processed. */
	const mayHaveBeenProcessed = new Set(
		maybeProcessed.flatMap(({ r }) => r.recipients.map((x) => x.msisdn)),
	);
	/** Per key: how many items report it with each "never processed" status. */
	const notProcessed = new Map<string, Map<string, number>>();
	const saidNotProcessed = (key: string, status: string) => {
		const counts = notProcessed.get(key) ?? new Map<string, number>();
		counts.set(status, (counts.get(status) ?? 0) + 1);
		notProcessed.set(key, counts);
	};
	const keyOf = (msisdn: string, notifyId: string | null) =>
		run.notifyId === 'perItem' ? `${msisdn} for ${notifyId}` : msisdn;
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
			for (const m of new Set(expected.entries[i]))
				if (m !== null) saidNotProcessed(keyOf(m, expected.refOf(i)), 'error item');
			return;
		}
		const report = (hasDetails ? json.details : json) as Record<string, any>;
		const reported = reportedRecipients(report);
		const wanted = expected.entries[i].length > 0 ? expected.entries[i] : [null];
		const got = reported.map((r) => r.msisdn);
		const sorted = (list: Array<string | null>) => [...list].map(String).sort();
		if (JSON.stringify(sorted(got)) !== JSON.stringify(sorted(wanted))) {
			problems.push(
				`3: item ${i} reports numbers ${JSON.stringify(got)}, its input stands for ${JSON.stringify(wanted)}`,
			);
			return;
		}
		for (const r of reported) {
			if (r.msisdn === null) {
				if (r.status !== 'invalid')
					problems.push(`3: item ${i} reports an invalid entry as ${r.status}`);
				continue;
			}
			if (expected.excluded.has(r.msisdn) && r.status !== 'excluded') {
				problems.push(`3: item ${i} reports excluded ${r.msisdn} as ${r.status}`);
			}
			const key = keyOf(r.msisdn, r.notifyId ?? expected.refOf(i));
			if (NOT_PROCESSED.has(r.status)) saidNotProcessed(key, r.status);
			if (PROCESSED_ONCE.has(r.status)) once.set(key, (once.get(key) ?? 0) + 1);
			else if (r.status === 'unconfirmed') maybe.set(key, (maybe.get(key) ?? 0) + 1);
			else if (!NOT_PROCESSED.has(r.status))
				problems.push(`3: item ${i} reports ${r.msisdn} with status ${r.status}`);
			// 3r: accepted only on the provider's word, in time (an answer with success: true); refused only when it
			// refused it.
			if (r.status === 'accepted' && !confirmedAccepted.has(r.msisdn)) {
				problems.push(
					`3r: item ${i} reports ${r.msisdn} accepted, but no answer of the provider confirmed it` +
						(providerAccepted.has(r.msisdn)
							? ' (it was processed: its answer did not say success: true in time)'
							: ''),
				);
			}
			if (r.status === 'rejected by provider' && providerAccepted.has(r.msisdn)) {
				problems.push(
					`3r: item ${i} reports ${r.msisdn} rejected by provider, but the provider accepted it`,
				);
			}
			// u. Unconfirmed only where it may have been processed: not after a refusal the provider vouches for.
			if (r.status === 'unconfirmed' && !mayHaveBeenProcessed.has(r.msisdn)) {
				problems.push(
					`u: item ${i} reports ${r.msisdn} unconfirmed, but no request carrying it reached the provider except ones it refused itself (4xx, 503 with its JSON)` +
						(seen.neverOpened > 0
							? `; ${seen.neverOpened} connection(s) never opened (${run.unreachable?.how})`
							: ''),
				);
			}
			// 4. An item that reports success never has an unconfirmed recipient; nor does a run that stops on errors and
			// did not.
			if (r.status === 'unconfirmed' && json.success === true) {
				problems.push(`4: item ${i} reports success: true with ${r.msisdn} unconfirmed`);
			}
			if (r.status === 'unconfirmed' && run.onError === 'stopWorkflow') {
				problems.push(
					`4: item ${i} reports ${r.msisdn} unconfirmed, yet the run (On Error: stop) ended without an error`,
				);
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
			const cover = (status: string) =>
				excess > 0 && excess <= (notProcessed.get(key)?.get(status) ?? 0);
			const label =
				times < low
					? '3c'
					: cover('duplicate')
						? '3d'
						: cover('not sent')
							? '3n'
							: cover('error item')
								? '3b'
								: '3';
			problems.push(
				`${label}: ${key} was processed ${times} time(s), but the items report it accepted ${low} time(s), unconfirmed ${high - low} time(s)` +
					(said.length
						? `, and ${said.map(([status, n]) => `${status} ${n} time(s)`).join(', ')}`
						: ''),
			);
		}
	}
	return problems;
}

// ─── The property ────────────────────────────────────────────────────────────────────────────────

/** The run in words, with what happened, for a failure message. */
export function describeRun(run: GeneratedRun, seen: Observation): string {
	const since = seen.moments.moment ?? seen.requests[0]?.arrivedAt ?? 0;
	return JSON.stringify(
		{
			parameters: nodeParameters(run, seen.moments),
			settings: nodeSettings(run),
			workflowZone: run.workflowZone,
			items: inputItems(run).map((i) => i.json),
			clockSteps: run.clockSteps,
			campaignFaults: [
				...(seen.moments.moment !== undefined && run.waitAcrossTheMoment
					? ['429 wait 1s (across the moment)']
					: []),
				...run.faults,
			],
			unreachable: run.unreachable && { ...run.unreachable, neverOpened: seen.neverOpened },
			providerLimit: run.providerLimit,
			senderListFailures: run.senderListFailures,
			executions: seen.executions,
			moment: seen.moments.moment === undefined ? undefined : iso(seen.moments.moment),
			requests: seen.requests.map(
				(r) =>
					`${r.arrivedAt - since >= 0 ? '+' : ''}${r.arrivedAt - since} ms ${r.recipients.map((x) => (x.notifyId ? `${x.msisdn}/${x.notifyId}` : x.msisdn)).join(',')}` +
					`${r.sendAt ? ` sendAt ${r.sendAt}` : ''} → ${r.answer}${r.processed ? ', processed' : ''}${r.confirmed ? ', confirmed' : ''}${r.trustedRefusal ? ', refused (trusted)' : ''}`,
			),
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
	 * Labels of violations not to count ('1'…'5', '3b', '3c', '3d', '3n', '3r', 'fail', 'q', 's', 'u', 'x'):
	 * only for `npm run fuzz` with FUZZ_IGNORE, to look past a violation already reported. `npm test` ignores none.
	 */
	ignore?: readonly string[];
	/**
	 * Told every run's broken promises instead of failing on the first (`npm run fuzz` with
	 * FUZZ_SURVEY): a survey of which invariants the code breaks, each with an unshrunk run.
	 */
	survey?: (problems: string[], describe: () => string) => void;
}

/** The label a violation starts with (`3n: …` → `3n`). */
export const labelOf = (problem: string) => problem.slice(0, problem.indexOf(':'));

/** The property over generated runs. */
export function campaignProperty(fixture: () => PhonovationFixture, options: PropertyOptions = {}) {
	const ignored = new Set(options.ignore ?? []);
	return fc.asyncProperty(generatedRun, async (run) => {
		const started = Date.now();
		const seen = await execute(fixture(), run);
		options.onRun?.(run, Date.now() - started);
		const problems = violationsOf(run, seen).filter((p) => !ignored.has(labelOf(p)));
		if (problems.length === 0) return;
		if (options.survey) options.survey(problems, () => describeRun(run, seen));
		else throw new Error(`${problems.join('\n')}\nRun:\n${describeRun(run, seen)}`);
	});
}
