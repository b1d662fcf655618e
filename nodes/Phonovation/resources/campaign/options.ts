import type { INodeProperties } from 'n8n-workflow';

import {
	DEFAULT_COUNTRY_CODE,
	DEFAULT_PARALLEL_REQUESTS,
	DEFAULT_TIMEOUT_MS,
	LIMITS,
	MAX_PARALLEL_REQUESTS,
	parseCountryCode,
	readYesNo,
} from '../../domain/rules';
import type { RuleViolation } from '../../domain/rules';
import { canonicalWindow, canonicalZone } from '../../domain/quietHours';
import { SUGGESTED_OPT_OUT_TEXT } from '../../../shared/optOutWords';
import { asText } from '../../../shared/values';

/**
 * The campaign options, one entry each: the field the user sees, how its value is read, and what
 * it takes part in. The options type, their names and labels, the campaign key and its wording,
 * the request body's optional fields and the report's echo are all made from this table
 * (CONTRIBUTING.md#add-a-campaign-option).
 */

/** An option's value as the pipeline uses it, or what is wrong (said after its label) and a safe stand-in. */
interface Read<T> {
	value: T;
	problem?: string;
}

interface CampaignOption<T> {
	/** Its field in the Options collection, less the name (the entry's key). */
	property: Omit<INodeProperties, 'name'>;
	/** The user's value (from a spreadsheet, an expression: anything) as the pipeline uses it. */
	read: (raw: unknown) => Read<T>;
	/**
	 * Items that differ in it are different campaigns (it changes what a request carries or whether
	 * it goes); a function gives the value to compare when the option alone does not say (a time
	 * zone of Quiet Hours that are off means nothing). Body and report options must be key options:
	 * a campaign takes them from its first item.
	 */
	campaignKey?: true | ((options: Readonly<Record<string, unknown>>) => unknown);
	/** Written to the request body under its name when not empty. */
	body?: boolean;
	/** Shown in each item's `campaign` output under its name (empty shown as null). */
	report?: boolean;
}

const isUnset = (raw: unknown) => raw === undefined || raw === null || raw === '';
/** What the user typed, cut short: an option read per item may hold anything. */
const shown = (raw: unknown) => {
	const text = asText(raw).trim();
	return text.length > 20 ? `${text.slice(0, 20)}…` : text;
};

/** On or off, as a spreadsheet writes it ("TRUE", "1", "yes"); anything else reads as `whenUnclear`. */
const yesNo =
	(fallback: boolean, whenUnclear = fallback) =>
	(raw: unknown): Read<boolean> => {
		if (isUnset(raw)) return { value: fallback };
		const value = readYesNo(raw);
		return value === undefined
			? { value: whenUnclear, problem: `must be true or false, got "${shown(raw).toLowerCase()}"` }
			: { value };
	};

/** A number as a spreadsheet writes it: a number, or text of one (`" 400000 "`); nothing else (`true`, `[]`). */
function numberOf(raw: unknown): number {
	if (typeof raw === 'number') return raw;
	if (typeof raw !== 'string' || raw.trim() === '') return NaN;
	return Number(raw.trim());
}

/** A whole number from `min` to `max`. */
const wholeNumber =
	(fallback: number, min: number, max: number) =>
	(raw: unknown): Read<number> => {
		if (isUnset(raw)) return { value: fallback };
		const n = numberOf(raw);
		return Number.isInteger(n) && n >= min && n <= max
			? { value: n }
			: {
					value: fallback,
					problem: `must be a whole number from ${min} to ${max} (got ${shown(raw)})`,
				};
	};

/** Text, trimmed, at most `limit` characters. */
const limitedText =
	(limit: number) =>
	(raw: unknown): Read<string> => {
		const value = asText(raw).trim();
		return value.length > limit
			? { value, problem: `is too long: ${value.length} characters, the limit is ${limit}` }
			: { value };
	};

const anyText = (raw: unknown): Read<string> => ({ value: asText(raw) });

/**
 * One of an options field's values, by value or by name in any case ("fail", "Fail", "Skip and
 * Report"); anything else is a problem and reads as `whenUnclear` (the cautious choice).
 */
function choice<T extends string>(
	values: readonly T[],
	names: readonly string[],
	fallback: T,
	whenUnclear: T,
) {
	return (raw: unknown): Read<T> => {
		if (isUnset(raw)) return { value: fallback };
		const word = asText(raw).trim().toLowerCase();
		const found = values.findIndex(
			(value, i) => value.toLowerCase() === word || names[i].toLowerCase() === word,
		);
		if (found >= 0) return { value: values[found] };
		return {
			value: whenUnclear,
			problem: `must be ${names.slice(0, -1).join(', ')} or ${names[names.length - 1]} (got "${shown(raw)}")`,
		};
	};
}

/** A field of type options whose values are read by `choice`: one list gives both. */
function choiceOption<T extends string>(
	property: Omit<INodeProperties, 'name' | 'type' | 'options' | 'default'>,
	choices: ReadonlyArray<{ name: string; value: T; description: string }>,
	fallback: T,
	whenUnclear: T,
): CampaignOption<T> {
	return {
		property: { ...property, type: 'options', default: fallback, options: [...choices] },
		read: choice(
			choices.map((c) => c.value),
			choices.map((c) => c.name),
			fallback,
			whenUnclear,
		),
	};
}

const MAX_BATCH_SIZE = LIMITS.recipientsPerRequest;

/** 2,000 characters (the provider's limit) in UCS-2 make 30 parts: no text needs more. */
const MAX_PARTS = 30;

const CAMPAIGN_OPTIONS = {
	adaptiveParallelRequests: {
		property: {
			displayName: 'Adaptive Parallel Requests',
			type: 'boolean',
			default: true,
			description:
				"Whether to start with a few requests at once and raise the number while the provider answers fast, lowering it when answers slow down or an HTTP 429 comes (which also pauses every request for the provider's Retry-After). Off: Parallel Requests at once, halved after an HTTP 429 and climbing back. Read from the first item.",
		},
		read: yesNo(true),
	},
	batchSize: {
		property: {
			displayName: 'Batch Size',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_BATCH_SIZE },
			default: MAX_BATCH_SIZE,
			description: `Most recipients per request; larger campaigns are split. The provider accepts at most ${LIMITS.recipientsPerRequest}.`,
		},
		read: wholeNumber(MAX_BATCH_SIZE, 1, MAX_BATCH_SIZE),
	},
	campaignName: {
		property: {
			displayName: 'Campaign Name',
			type: 'string',
			default: '',
			description: `Name for the provider's reports, at most ${LIMITS.campaignName} characters (the provider uses "API Broadcast" when empty)`,
		},
		read: limitedText(LIMITS.campaignName),
		campaignKey: true,
		body: true,
		report: true,
	},
	defaultCountryCode: {
		property: {
			displayName: 'Default Country Code',
			type: 'string',
			default: DEFAULT_COUNTRY_CODE,
			description:
				"A country's calling code (353 = Ireland, 44 = UK; +44 and 0044 also work) given to numbers written in national form: with their leading 0, or as written at home where there is none (Spain, Italy, the US). Other numbers must carry their country code; digits without + or 00 that could also be the country's number without its 0 (7911123456 with 44: +7… or 07911…) are invalid, and the reason names both readings. A code no country has (such as 35) is an error.",
		},
		read: (raw: unknown): Read<string | null> => {
			const country = parseCountryCode(raw);
			return country.ok ? { value: country.code } : { value: null, problem: country.problem };
		},
	},
	dryRun: {
		property: {
			displayName: 'Dry Run',
			type: 'boolean',
			default: false,
			description:
				'Whether to check everything and show the exact request body without sending anything (no credits used)',
		},
		// Never false by default: a dry run taken for a real one spends credits.
		read: yesNo(false, true),
		campaignKey: true,
	},
	excludeNumbers: {
		property: {
			displayName: 'Exclude Numbers',
			type: 'string',
			default: '',
			description:
				'Suppression list: numbers never to send to, e.g. all items of an Opted-Out node. Takes text (comma, semicolon, line or space separated), numbers, arrays, n8n items and objects (every field named phone, mobile, cell, tel, msisdn or number). Compared after normalisation; a number that lost its leading 0 (7911123456 with Default Country Code 44) excludes every number it may be. An entry it cannot read stops the run (see Unreadable Exclusions).',
		},
		// Read into a suppression list with the item's country code (plan.ts).
		read: (raw: unknown): Read<unknown> => ({ value: raw }),
	},
	invalidNumbers: {
		...choiceOption(
			{ displayName: 'Invalid Numbers' },
			[
				{
					name: 'Fail',
					value: 'fail',
					description: 'Stop the campaign before sending if any number is invalid',
				},
				{
					name: 'Skip and Report',
					value: 'skip',
					description: 'Send to the valid numbers and list the invalid ones in the output',
				},
			],
			'skip',
			'fail',
		),
	},
	maxParts: {
		property: {
			displayName: 'Max Parts per Text',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: MAX_PARTS },
			default: 0,
			description:
				'Most parts (each billed) a text may be sent as: 160 characters make one part, or 70 once a character outside the GSM alphabet (an emoji, á, curly quotes) is in it, and fewer per part once split. An item whose text needs more is not sent, before any credit is spent. 0: no limit.',
		},
		read: wholeNumber(0, 0, MAX_PARTS),
	},
	messageType: {
		...choiceOption(
			{
				displayName: 'Message Type',
				description:
					'Whether the text is direct marketing, which Irish and EU rules require to offer a way to opt out',
			},
			[
				{
					name: 'Marketing',
					value: 'marketing',
					description: 'Offers, news, promotions: the text must tell recipients how to opt out',
				},
				{
					name: 'Transactional',
					value: 'transactional',
					description:
						'Reminders, confirmations, alerts the recipient expects: no opt-out wording needed',
				},
			],
			'marketing',
			'marketing',
		),
	},
	missingOptOut: {
		...choiceOption(
			{
				displayName: 'Missing Opt-Out Wording',
				description:
					'What to do with a Marketing text that has no STOP, OPTOUT or 50123 wording and no Opt-Out Text',
			},
			[
				{ name: 'Fail', value: 'fail', description: 'Stop before sending, naming the item' },
				{ name: 'Warn', value: 'warn', description: 'Send, with a warning in the output' },
			],
			'warn',
			'fail',
		),
	},
	notifyId: {
		property: {
			displayName: 'Notify ID',
			type: 'string',
			default: '',
			description: `Your reference for this item's recipients (max ${LIMITS.notifyId} characters), echoed in delivery receipts, processing results and linked replies`,
		},
		read: limitedText(LIMITS.notifyId),
	},
	optOutText: {
		property: {
			displayName: 'Opt-Out Text',
			type: 'string',
			default: SUGGESTED_OPT_OUT_TEXT,
			description: `Added on a line of its own at the end of the text, unless the text already ends with it. Counts toward the ${LIMITS.text}-character limit and the parts billed.`,
		},
		read: anyText,
	},
	parallelRequests: {
		property: {
			displayName: 'Parallel Requests',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_PARALLEL_REQUESTS },
			default: DEFAULT_PARALLEL_REQUESTS,
			description:
				"Most campaign requests in flight at once, for runs with many campaigns (e.g. one personalised text per item). With Adaptive Parallel Requests on, the node starts lower and finds the provider's pace below this. Each campaign's batches still go out in order. Read from the first item.",
		},
		read: wholeNumber(DEFAULT_PARALLEL_REQUESTS, 1, MAX_PARALLEL_REQUESTS),
	},
	quietHours: {
		property: {
			displayName: 'Quiet Hours',
			type: 'string',
			default: '21:00-08:00',
			placeholder: '21:00-08:00',
			description:
				'Daily window (24-hour clock, local time) in which no text goes out: a Send inside it is scheduled for the end of the window, and so is a Schedule whose Send At falls inside it. The output says so in its warnings.',
		},
		read: (raw: unknown): Read<string> => {
			const window = canonicalWindow(raw);
			return window.ok ? { value: window.window } : { value: '', problem: window.problem };
		},
		campaignKey: true,
	},
	quietHoursTimeZone: {
		property: {
			displayName: 'Quiet Hours Time Zone',
			type: 'string',
			default: '',
			placeholder: 'Europe/Dublin',
			description:
				"Time zone of the Quiet Hours, e.g. Europe/Dublin. Empty: each recipient's own (their country's), the workflow's where a country has several.",
		},
		read: (raw: unknown): Read<string> => {
			const zone = canonicalZone(raw);
			return zone.ok ? { value: zone.zone } : { value: '', problem: zone.problem };
		},
		campaignKey: (options) => (options.quietHours === '' ? '' : options.quietHoursTimeZone),
	},
	timeout: {
		property: {
			displayName: 'Request Timeout',
			type: 'number',
			typeOptions: { minValue: 1000 },
			default: DEFAULT_TIMEOUT_MS,
			description: 'Milliseconds to wait for the provider before the request fails',
		},
		read: (raw: unknown): Read<number> => {
			if (isUnset(raw)) return { value: DEFAULT_TIMEOUT_MS };
			const ms = numberOf(raw);
			return Number.isFinite(ms) && ms > 0
				? { value: ms }
				: { value: DEFAULT_TIMEOUT_MS, problem: 'must be a number of milliseconds above 0' };
		},
	},
	unreadableExclusions: {
		...choiceOption(
			{
				displayName: 'Unreadable Exclusions',
				description: 'What to do when an Exclude Numbers entry cannot be read as a phone number',
			},
			[
				{
					name: 'Fail',
					value: 'fail',
					description:
						'Stop before sending, naming the entry and the item: it may be an opted-out number',
				},
				{
					name: 'Warn',
					value: 'warn',
					description: 'Send, listing the entries in the output warnings; they exclude no one',
				},
			],
			'fail',
			'fail',
		),
	},
} satisfies Record<string, CampaignOption<unknown>>;

export type OptionName = keyof typeof CAMPAIGN_OPTIONS;

/** The options as the user set them: unchecked, any of them missing. */
export type CampaignOptions = { [K in OptionName]?: unknown };

/** The options as the pipeline uses them: every one read, defaults filled in. */
export type OptionValues = {
	[K in OptionName]: ReturnType<(typeof CAMPAIGN_OPTIONS)[K]['read']>['value'];
};

const entries = Object.entries(CAMPAIGN_OPTIONS) as Array<[OptionName, CampaignOption<unknown>]>;

export const OPTION_NAMES: readonly OptionName[] = entries.map(([name]) => name);

/** The Options collection's fields, in the order n8n lists them. */
export const OPTION_FIELDS: INodeProperties[] = entries.map(
	([name, option]) => ({ ...option.property, name }) as INodeProperties,
);

const optionLabel = (name: OptionName): string => CAMPAIGN_OPTIONS[name].property.displayName;

const flagged = (flag: 'campaignKey' | 'body' | 'report') =>
	entries.filter(([, option]) => option[flag]).map(([name]) => name);

/** Options items must agree on to be one campaign, besides sender, text and send time. */
export const CAMPAIGN_KEY_OPTIONS: readonly OptionName[] = flagged('campaignKey');
/** What an option gives the campaign key: its value, or what its flag's function makes of it. */
export function campaignKeyValue(name: OptionName, options: OptionValues): unknown {
	const flag = (CAMPAIGN_OPTIONS[name] as CampaignOption<unknown>).campaignKey;
	return typeof flag === 'function' ? flag(options) : options[name];
}

/** Options written to the request body when set. */
export const BODY_OPTIONS: readonly OptionName[] = flagged('body');
/** Options echoed in each item's `campaign` output. */
export const REPORT_OPTIONS: readonly OptionName[] = flagged('report');

/**
 * "Sender, Text, Send At, Campaign Name, Dry Run, Quiet Hours and Quiet Hours Time Zone": what makes items one
 * campaign.
 */
export const CAMPAIGN_KEY_WORDING = ((labels: string[]) =>
	`${labels.slice(0, -1).join(', ')} and ${labels[labels.length - 1]}`)([
	'Sender',
	'Text',
	'Send At',
	...CAMPAIGN_KEY_OPTIONS.map(optionLabel),
]);

/** A problem, labelled once with its option's name. */
function violation(name: OptionName, problem: string): RuleViolation {
	return { field: name, message: `${optionLabel(name)} ${problem}` };
}

/** One option read, its problem (if any) added to `violations`. */
export function readOption<K extends OptionName>(
	name: K,
	raw: unknown,
	violations: RuleViolation[],
): OptionValues[K] {
	const read = (CAMPAIGN_OPTIONS[name] as CampaignOption<OptionValues[K]>).read(raw);
	if (read.problem !== undefined) violations.push(violation(name, read.problem));
	return read.value;
}

/** Every option but the Notify ID (each item's own) read: the values and the problems, in the table's order. */
export function readOptions(raw: CampaignOptions): {
	values: OptionValues;
	violations: RuleViolation[];
} {
	const violations: RuleViolation[] = [];
	const values = {} as Record<OptionName, unknown>;
	for (const [name] of entries)
		if (name !== 'notifyId') values[name] = readOption(name, raw[name], violations);
	values.notifyId = '';
	return { values: values as OptionValues, violations };
}
