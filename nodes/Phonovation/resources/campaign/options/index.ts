// The campaign options, one line each, and everything made from them: fields, types, key, body, report, settings.
import type { INodeProperties } from 'n8n-workflow';

import type { Findings } from '../../../domain/compliance';
import type { RuleViolation } from '../../../domain/rules';
import { adaptiveParallelRequests } from './adaptiveParallelRequests';
import { batchSize } from './batchSize';
import { campaignName } from './campaignName';
import { defaultCountryCode } from './defaultCountryCode';
import { dryRun } from './dryRun';
import { excludeNumbers } from './excludeNumbers';
import { invalidNumbers } from './invalidNumbers';
import { maxParts } from './maxParts';
import { messageType } from './messageType';
import { missingOptOut } from './missingOptOut';
import { notifyId } from './notifyId';
import type { CampaignOption, Contribution, SendTimeRule } from './option';
import { optOutText } from './optOutText';
import { parallelRequests } from './parallelRequests';
import { quietHours } from './quietHours';
import { quietHoursTimeZone } from './quietHoursTimeZone';
import { timeout } from './timeout';
import { unreadableExclusions } from './unreadableExclusions';

/** In the order n8n lists them (by label); CONTRIBUTING.md#add-a-campaign-option. */
const CAMPAIGN_OPTIONS = {
	adaptiveParallelRequests,
	batchSize,
	campaignName,
	defaultCountryCode,
	dryRun,
	excludeNumbers,
	invalidNumbers,
	maxParts,
	messageType,
	missingOptOut,
	notifyId,
	optOutText,
	parallelRequests,
	quietHours,
	quietHoursTimeZone,
	timeout,
	unreadableExclusions,
};

export type OptionName = keyof typeof CAMPAIGN_OPTIONS;

/** The options as the user set them: unchecked, any of them missing. */
export type CampaignOptions = { [K in OptionName]?: unknown };

/** The options as the pipeline uses them: every one read, defaults filled in. */
export type OptionValues = {
	[K in OptionName]: ReturnType<(typeof CAMPAIGN_OPTIONS)[K]['read']>['value'];
};

type Joined<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void
	? I
	: never;
type SettingsOf<K extends OptionName> = (typeof CAMPAIGN_OPTIONS)[K] extends {
	settings: (value: never) => infer S;
}
	? S
	: Record<never, never>;

/** What the options of an item give the pipeline, each under the pipeline's own name. */
export type OptionSettings = Joined<{ [K in OptionName]: SettingsOf<K> }[OptionName]>;

const entries = Object.entries(CAMPAIGN_OPTIONS) as Array<[OptionName, CampaignOption<unknown>]>;

/** The options, by name, in the index's order: what every phase goes over. */
export const OPTION_TABLE: ReadonlyArray<[OptionName, CampaignOption<unknown>]> = entries;

export const OPTION_NAMES: readonly OptionName[] = entries.map(([name]) => name);

/**
 * The rule on when a campaign may go out, at every phase (Quiet Hours): the option that defines
 * `sendTime`. A campaign has one; a second would need its moments composed.
 */
export const SEND_TIME: SendTimeRule = ((rules: SendTimeRule[]) => {
	if (rules.length !== 1) throw new Error(`a campaign has one send-time rule, not ${rules.length}`);
	return rules[0];
})(entries.flatMap(([, option]) => (option.sendTime ? [option.sendTime] : [])));

/** The Options collection's fields, in the order n8n lists them. */
export const OPTION_FIELDS: INodeProperties[] = entries.map(
	([name, option]) => ({ ...option.property, name }) as INodeProperties,
);

/** Options whose value may be n8n items or objects: read as one list for every item. */
export const ITEM_LIST_OPTIONS: ReadonlySet<OptionName> = new Set(
	entries.filter(([, option]) => option.takesItems).map(([name]) => name),
);

const optionLabel = (name: OptionName): string => CAMPAIGN_OPTIONS[name].property.displayName;

const flagged = (flag: 'campaignKey' | 'body' | 'report' | 'itemField') =>
	entries.filter(([, option]) => option[flag]).map(([name]) => name);

/** Options items must agree on to be one campaign, besides sender, text and send time. */
export const CAMPAIGN_KEY_OPTIONS: readonly OptionName[] = flagged('campaignKey');

/** Options written to the request body when set. */
export const BODY_OPTIONS: readonly OptionName[] = flagged('body');
/** Options echoed in each item's `campaign` output. */
export const REPORT_OPTIONS: readonly OptionName[] = flagged('report');
/** Options shown at the top level of each item's output. */
export const ITEM_FIELD_OPTIONS: readonly OptionName[] = flagged('itemField');

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

/** Options that make a text transactional: it needs no opt-out wording (an answer the person expects). */
export const TRANSACTIONAL: CampaignOptions = Object.freeze({ messageType: 'transactional' });

/** Every option's contribution to the pipeline, merged. */
export function optionSettings(values: OptionValues): OptionSettings {
	const settings: Record<string, unknown> = {};
	for (const [name, option] of entries)
		if (option.settings) Object.assign(settings, option.settings(values[name]));
	return settings as OptionSettings;
}

/** What an option gives the campaign key: its value, or what its flag's function makes of it. */
export function campaignKeyValue(
	name: OptionName,
	values: OptionValues,
	settings: OptionSettings = optionSettings(values),
): unknown {
	const flag = (CAMPAIGN_OPTIONS[name] as CampaignOption<unknown>).campaignKey;
	return typeof flag === 'function' ? flag(settings as Contribution) : values[name];
}

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

/** Every option but each item's own read: the values and the problems, in the table's order. */
export function readOptions(raw: CampaignOptions): {
	values: OptionValues;
	violations: RuleViolation[];
} {
	const violations: RuleViolation[] = [];
	const values = {} as Record<OptionName, unknown>;
	for (const [name, option] of entries)
		values[name] = option.perItem ? '' : readOption(name, raw[name], violations);
	return { values: values as OptionValues, violations };
}

/** Each item's own options (the Notify ID), read with the item rather than its row. */
export function readItemOptions(
	raw: CampaignOptions,
	violations: RuleViolation[],
): Partial<OptionValues> {
	const values: Partial<Record<OptionName, unknown>> = {};
	for (const [name, option] of entries)
		if (option.perItem) values[name] = readOption(name, raw[name], violations);
	return values as Partial<OptionValues>;
}

/** The settings the run takes from its first item (its pace), and what is wrong with them. */
export function runSettings(raw: CampaignOptions): {
	settings: OptionSettings;
	violations: RuleViolation[];
} {
	const violations: RuleViolation[] = [];
	const settings: Record<string, unknown> = {};
	for (const [name, option] of entries)
		if (option.perRun && option.settings)
			Object.assign(settings, option.settings(readOption(name, raw[name], violations)));
	return { settings: settings as OptionSettings, violations };
}

/**
 * The plan phase on a row's text, over a table of options: each one's `shapeText` in order, then
 * each one's `checkText`, what they find added to `found`. The text as it will be sent.
 */
export function textPhase(
	options: ReadonlyArray<[string, CampaignOption<unknown>]>,
	row: { text: string; values: Readonly<Record<string, unknown>>; settings: Contribution },
	found: Findings,
): string {
	let text = row.text;
	for (const [name, option] of options)
		if (option.shapeText) text = option.shapeText(text, row.values[name]);
	const checked = { text, added: text !== row.text };
	for (const [name, option] of options) {
		const finding = option.checkText?.(checked, row.values[name], row.settings);
		if (!finding) continue;
		if ('violation' in finding) found.violations.push(finding.violation);
		else found.warnings.push(finding.warning);
	}
	return text;
}

/** A row's text as it will be sent, with what the campaign options' text rules found. */
export function textAsSent(
	text: string,
	values: OptionValues,
	settings: OptionSettings,
	found: Findings,
): string {
	return textPhase(entries, { text, values, settings: settings as Contribution }, found);
}
