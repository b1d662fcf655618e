// What a campaign option is (its field, how it is read, what it gives the pipeline) and the readers options share.
import type { INodeProperties } from 'n8n-workflow';

import type { Findings } from '../../../domain/compliance';
import { readYesNo, type RuleViolation } from '../../../domain/rules';
import { asText } from '../../../../shared/values';

/** An option's value as the pipeline uses it, or what is wrong (said after its label) and a safe stand-in. */
export interface Read<T> {
	value: T;
	problem?: string;
}

/** What the options of one item give the pipeline, by the pipeline's own names (none is an option's). */
export type Contribution = Readonly<Record<string, unknown>>;

/** A row's text as the plan checks it: as it will be sent, and whether the options added to it. */
export interface TextToCheck {
	text: string;
	/** The options added to the user's text (the Opt-Out Text): a refusal should say so. */
	added: boolean;
}

/** What a text rule found: a violation stops the item before any credit is spent; a warning goes to the output. */
export type TextFinding = { violation: RuleViolation } | { warning: string };

/** When a campaign is to go out: Send At (a Schedule's, or where a rule moved a Send), null for now. */
export interface Moment {
	sendAt: string | null;
	now: Date;
}

/**
 * A rule on when a campaign may go out (Quiet Hours), called at each phase. `judged` is the rule's
 * own value (what it judges by), which the pipeline carries from plan to post and report unread.
 */
export interface SendTimeRule<Judged = unknown> {
	/** Plan, each row: what the rule judges by from its settings (null: off), `zone` the workflow's. */
	judgedBy(settings: Contribution, zone: string): Judged | null;
	/** Plan, each row: its send time (a Schedule's checked Send At, null for a Send) as the rule allows it. */
	ofRow(judged: Judged | null, moment: Moment, found: Pick<Findings, 'warnings'>): string | null;
	/**
	 * Plan, a campaign once its recipients are known (their numbers, in international digits):
	 * its send time and what it is judged by, or why no time can be found.
	 */
	ofCampaign(
		judged: Judged,
		moment: Moment,
		recipients: () => Iterable<string>,
	): { judged: Judged; sendAt: string | null; warnings: string[]; violation?: RuleViolation };
	/**
	 * Post, each request at `now` (judged null: the rule is off): the send time it goes with (a
	 * Send moved when the rule holds now), or why it must not go (a Schedule whose Send At passed
	 * meanwhile).
	 */
	whenPosted(
		judged: Judged | null,
		planned: { scheduled: boolean; sendAt: string | null },
		now: Date,
	): { ok: true; sendAt: string | null } | { ok: false; message: string };
	/** Report: the campaign output's fields for it. */
	reported(judged: Judged): Record<string, string>;
	/** Report: the warning for a Send's requests moved while it went out. */
	movedWarning(judged: Judged, moved: { requests: number; sendAt: string }): string;
}

/**
 * One campaign option. The options type, names and labels, the campaign key and its wording, the
 * request body's optional fields, the report's echo and the settings the pipeline reads are all made
 * from these (index.ts), so an option lives in its own file and one line of the index.
 */
export interface CampaignOption<T> {
	/** Its field in the Options collection, less the name (the index's key). */
	property: Omit<INodeProperties, 'name'>;
	/** The user's value (from a spreadsheet, an expression: anything) as the pipeline uses it. */
	read: (raw: unknown) => Read<T>;
	/**
	 * What the value gives the pipeline (planning, posting, the report), under the pipeline's names:
	 * `{ partsLimit: 3 }`. Methods, so that each option may type its own value.
	 */
	settings?(value: T): Contribution;
	/**
	 * Items that differ in it are different campaigns (it changes what a request carries or whether
	 * it goes); a function gives the value to compare from every option's settings when the value
	 * alone does not say (a time zone of Quiet Hours that are off means nothing). Body and report
	 * options must be key options: a campaign takes them from its first item.
	 */
	campaignKey?: true | ((settings: Contribution) => unknown);
	/** Written to the request body under its name when not empty. */
	body?: true;
	/** Shown in each item's `campaign` output under its name (empty shown as null). */
	report?: true;
	/** Shown at the top level of each item's output under its name, after what the campaign shares. */
	itemField?: true;
	/** Read for each item on its own (not with the row's shared options). */
	perItem?: true;
	/** Read from the run's first item: one value for the whole run (its pace). */
	perRun?: true;
	/** Its value may be n8n items or objects, read as the same for every item when it is (a list). */
	takesItems?: true;
	/**
	 * The plan phase on each row's text, before texts are compared (so the merge key, the limit and
	 * the parts see the text as sent): every option's `shapeText` in the index's order, then every
	 * `checkText`, which may read every option's settings.
	 */
	shapeText?(text: string, value: T): string;
	checkText?(text: TextToCheck, value: T, settings: Contribution): TextFinding | undefined;
	/** Its rule on when the campaign may go out, at every phase (a campaign has one such rule). */
	sendTime?: SendTimeRule;
}

/** A rule of an option broken: the message, filed under the option's field so the error names it. */
export const refusal =
	(field: string) =>
	(message: string): RuleViolation => ({ field, message });

export const isUnset = (raw: unknown) => raw === undefined || raw === null || raw === '';

/** What the user typed, cut short: an option read per item may hold anything. */
export const shown = (raw: unknown) => {
	const text = asText(raw).trim();
	return text.length > 20 ? `${text.slice(0, 20)}…` : text;
};

/** On or off, as a spreadsheet writes it ("TRUE", "1", "yes"); anything else reads as `whenUnclear`. */
export const yesNo =
	(fallback: boolean, whenUnclear = fallback) =>
	(raw: unknown): Read<boolean> => {
		if (isUnset(raw)) return { value: fallback };
		const value = readYesNo(raw);
		return value === undefined
			? { value: whenUnclear, problem: `must be true or false, got "${shown(raw).toLowerCase()}"` }
			: { value };
	};

/** A number as a spreadsheet writes it: a number, or text of one (`" 400000 "`); nothing else (`true`, `[]`). */
export function numberOf(raw: unknown): number {
	if (typeof raw === 'number') return raw;
	if (typeof raw !== 'string' || raw.trim() === '') return NaN;
	return Number(raw.trim());
}

/** A whole number from `min` to `max`. */
export const wholeNumber =
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

/** A number field and its reader, which take the same bounds. */
export function wholeNumberOption(
	property: Pick<INodeProperties, 'displayName' | 'description'>,
	{ min, max, fallback }: { min: number; max: number; fallback: number },
): Pick<CampaignOption<number>, 'property' | 'read'> {
	return {
		property: {
			...property,
			type: 'number',
			typeOptions: { minValue: min, maxValue: max },
			default: fallback,
		},
		read: wholeNumber(fallback, min, max),
	};
}

/** A value in its one written form, or its problem (read as `fallback`): rows that write it two ways agree. */
export const canonical =
	(form: (raw: unknown) => { ok: true; value: string } | { ok: false; problem: string }) =>
	(raw: unknown): Read<string> => {
		const read = form(raw);
		return read.ok ? { value: read.value } : { value: '', problem: read.problem };
	};

/** Text, trimmed, at most `limit` characters. */
export const limitedText =
	(limit: number) =>
	(raw: unknown): Read<string> => {
		const value = asText(raw).trim();
		return value.length > limit
			? { value, problem: `is too long: ${value.length} characters, the limit is ${limit}` }
			: { value };
	};

/**
 * One of an options field's values, by value or by name in any case ("fail", "Fail", "Skip and
 * Report"); anything else is a problem and reads as `whenUnclear` (the cautious choice).
 */
function choice<T extends string>(
	choices: ReadonlyArray<{ name: string; value: T }>,
	fallback: T,
	whenUnclear: T,
) {
	const names = choices.map((c) => c.name);
	return (raw: unknown): Read<T> => {
		if (isUnset(raw)) return { value: fallback };
		const word = asText(raw).trim().toLowerCase();
		const found = choices.find(
			(c) => c.value.toLowerCase() === word || c.name.toLowerCase() === word,
		);
		if (found) return { value: found.value };
		return {
			value: whenUnclear,
			problem: `must be ${names.slice(0, -1).join(', ')} or ${names[names.length - 1]} (got "${shown(raw)}")`,
		};
	};
}

/** A field of type options whose values are read by `choice`: one list gives both. */
export function choiceOption<T extends string>(
	property: Omit<INodeProperties, 'name' | 'type' | 'options' | 'default'>,
	choices: ReadonlyArray<{ name: string; value: T; description: string }>,
	{ fallback, whenUnclear }: { fallback: T; whenUnclear: T },
): Pick<CampaignOption<T>, 'property' | 'read'> {
	return {
		property: { ...property, type: 'options', default: fallback, options: [...choices] },
		read: choice(choices, fallback, whenUnclear),
	};
}
