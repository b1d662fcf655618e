// Planning: every item read and checked, its numbers normalised, like items grouped into campaigns.
import { describeUnreadable } from '../../../domain/exclusions';
import { normaliseMsisdn, recipientEntries, toMsisdn } from '../../../domain/phoneNumbers';
import type { RuleViolation } from '../../../domain/rules';
import { campaignSettingsSchema, violationsOf } from '../../../domain/rules';
import { toSendAt } from '../../../domain/sendAt';
import { asText } from '../../../../shared/values';
import type { Findings } from '../../../domain/compliance';
import {
	CAMPAIGN_KEY_OPTIONS,
	campaignKeyValue,
	CAMPAIGN_KEY_WORDING,
	type CampaignOptions,
	type OptionSettings,
	type OptionValues,
	optionSettings,
	readItemOptions,
	readOptions,
	SEND_TIME,
	textAsSent,
} from '../options';
import type { TextRequest } from './textRequest';
import type { EntryOwner, Skip } from './recipients';
import { CampaignRecipients, NumberColumns, NumberSet } from './recipients';
import type { Suppression } from './suppression';
import { SuppressionCache } from './suppression';

export type { Skip } from './recipients';

/** What a campaign request carries besides its recipients (the first item's values win). */
export interface CampaignSettings {
	from: string;
	text: string;
	sendAt: string | null;
	/** The options of the campaign's first item, read (options/). */
	options: OptionValues;
	/** What those options give the pipeline (options/). */
	given: OptionSettings;
	/** Recipients per request (Batch Size). */
	perRequest: number;
	timeoutMs: number;
	/** Check and show the requests, post nothing (Dry Run). */
	rehearsal: boolean;
	/** A Schedule (Send At is the user's) rather than a Send; judged again when each request is posted. */
	scheduled?: boolean;
	/** What the send-time rule judges by (options SEND_TIME), from the plan to each request and the report. */
	sendTime?: unknown;
}

/** An input item of a campaign, its numbers being entries of the campaign's columns (see recipients.ts). */
export class PlannedItem {
	constructor(
		readonly itemIndex: number,
		/** Invalid Numbers = Fail: a number this item cannot send is an error, not a skip. */
		readonly failOnInvalid: boolean,
		readonly owner: EntryOwner,
	) {}

	/** Its entries in the campaign's columns: `first` to `end - 1`. */
	get first(): number {
		return this.owner.first;
	}

	get end(): number {
		return this.owner.first + this.owner.inputs.length;
	}
}

/** An item that broke a rule of its own; with Continue On Fail the rest of its campaign still goes out. */
export interface RejectedItem {
	readonly itemIndex: number;
	readonly violations: readonly RuleViolation[];
	/**
	 * Its numbers (entries of the campaign's columns), none to be sent: a retry reports those an earlier attempt
	 * posted.
	 */
	readonly owner: EntryOwner;
}

export type ItemViolation = RuleViolation & { itemIndex: number };

interface PlanFields {
	readonly settings: Readonly<CampaignSettings>;
	readonly items: readonly PlannedItem[];
	/** Every item's numbers, which are skipped, and the ones to send in order, each exactly once. */
	readonly recipients: CampaignRecipients;
	/** Any of these stops the whole campaign before it is sent. */
	readonly violations: readonly ItemViolation[];
	/** Items left out of the campaign for their own violations. */
	readonly rejected: readonly RejectedItem[];
	/** What the user should know before reading the statuses (e.g. Exclude Numbers entries it cannot read). */
	readonly warnings: readonly string[];
}

/** One campaign: its settings, items and recipients in columns. */
export class CampaignPlan implements PlanFields {
	readonly settings!: Readonly<CampaignSettings>;
	readonly items!: readonly PlannedItem[];
	readonly recipients!: CampaignRecipients;
	readonly violations!: readonly ItemViolation[];
	readonly rejected!: readonly RejectedItem[];
	readonly warnings!: readonly string[];

	constructor(fields: PlanFields) {
		Object.assign(this, fields);
	}

	/** The same plan with some fields replaced (a plan is never changed in place). */
	with(changes: Partial<PlanFields>): CampaignPlan {
		return new CampaignPlan({ ...this.fields(), ...changes });
	}

	private fields(): PlanFields {
		const { settings, items, recipients, violations, rejected, warnings } = this;
		return { settings, items, recipients, violations, rejected, warnings };
	}

	/**
	 * Requests the numbers to send make at Batch Size: one (perhaps empty) unless a violation stops
	 * the campaign. Derived, so a plan with other recipients or violations never keeps a stale count.
	 */
	get batchCount(): number {
		if (this.violations.length > 0) return 0;
		return Math.max(1, Math.ceil(this.recipients.sending / this.settings.perRequest));
	}

	/** The entries of batch `index`, in send order. */
	batch(index: number): Int32Array {
		return this.recipients.batch(index, this.settings.perRequest);
	}
}

interface PlanContext {
	scheduled: boolean;
	now: Date;
	/** The workflow's time zone, for a Send At without an offset. */
	zone: string;
}

/** One item, read and checked: its settings (shared with like rows), its numbers normalised, what it breaks. */
interface ItemRequest {
	itemIndex: number;
	settings: RowSettings;
	/** The Notify ID every one of its recipients carries. */
	notifyId: string | null;
	/** Its Recipients parameter, read into the campaign's columns once the campaign is known. */
	recipients: unknown;
	violations: RuleViolation[];
}

/** Send At checked (Schedule), then as the send-time rule allows it; a Send's moment is now. */
function checkedSendAt(
	item: TextRequest,
	sendTime: unknown,
	context: PlanContext,
	found: Findings,
): string | null {
	if (!context.scheduled)
		return SEND_TIME.ofRow(sendTime, { sendAt: null, now: context.now }, found);
	const result = toSendAt(item.sendAt, context.zone, context.now);
	if (result.ok)
		return SEND_TIME.ofRow(sendTime, { sendAt: result.sendAt, now: context.now }, found);
	found.violations.push({ field: 'sendAt', message: result.message });
	return null;
}

/** The first few unreadable entries, each with where it sits and why: `"unsubscribed": contains letters; …`. */
export function listedUnreadable(suppression: Suppression): string {
	const { unreadable } = suppression;
	const listed = unreadable.slice(0, 5).map(describeUnreadable);
	if (unreadable.length > 5) listed.push(`and ${unreadable.length - 5} more`);
	return listed.join('; ');
}

const entries = (n: number) => (n === 1 ? '1 entry' : `${n} entries`);

/** Unreadable Exclusions = Fail (the default): an opted-out number could slip through, so nothing is sent. */
function unreadableExclusionsError(suppression: Suppression): string {
	const n = suppression.unreadable.length;
	return (
		`${entries(n)} cannot be read as ${n === 1 ? 'a phone number' : 'phone numbers'} and would exclude no one — ` +
		`${listedUnreadable(suppression)}. Fix ${n === 1 ? 'it' : 'them'}, or set Unreadable Exclusions to Warn to send anyway`
	);
}

/** Unreadable Exclusions = Warn: the campaign goes out, and the output says what excluded no one. */
function unreadableExclusionsWarning(suppression: Suppression): string {
	const n = suppression.unreadable.length;
	return `Exclude Numbers: ${entries(n)} could not be read as ${n === 1 ? 'a phone number' : 'phone numbers'} and exclude no one — ${listedUnreadable(suppression)}`;
}

function invalidReason(input: string, countryCode: string): string {
	const number = normaliseMsisdn(input, countryCode);
	return number.ok ? 'not a valid number' : number.reason;
}

/** An item that lists no number still has one entry, reported as invalid. */
const NO_NUMBER: readonly string[] = Object.freeze(['']);

export const EXCLUDED: Skip = Object.freeze({
	kind: 'excluded',
	reason: 'on the Exclude Numbers list',
});

/**
 * Every item's numbers, normalised into the campaign's columns (one string per number, no object);
 * invalid and excluded ones are skipped with their reason. An item whose country code could not be
 * read has no numbers (it is set apart by that violation).
 */
function readNumbers(items: ItemRequest[]): { numbers: NumberColumns; skips: Map<number, Skip> } {
	let total = 0;
	const owners = items.map((item): EntryOwner => {
		const entries = item.settings.suppression ? recipientEntries(item.recipients) : [];
		const inputs = item.settings.suppression && entries.length === 0 ? NO_NUMBER : entries;
		const owner = { itemIndex: item.itemIndex, notifyId: item.notifyId, inputs, first: total };
		total += inputs.length;
		return owner;
	});
	const msisdns: Array<string | null> = new Array(total);
	const skips = new Map<number, Skip>();
	items.forEach((item, o) => {
		const { inputs, first } = owners[o];
		const { countryCode, suppression, failOnInvalid } = item.settings;
		const excluded = suppression?.numbers;
		for (let i = 0; i < inputs.length; i++) {
			const input = inputs[i];
			const msisdn = input === '' ? undefined : toMsisdn(input, countryCode);
			msisdns[first + i] = msisdn ?? null;
			if (msisdn === undefined) {
				const reason = input === '' ? 'no number given' : invalidReason(input, countryCode);
				if (failOnInvalid)
					item.violations.push({
						field: 'recipients',
						message: `Invalid number "${input}": ${reason}`,
					});
				skips.set(first + i, { kind: 'invalid', reason });
			} else if (excluded?.has(msisdn)) skips.set(first + i, EXCLUDED);
		}
	});
	return { numbers: new NumberColumns(owners, msisdns), skips };
}

/** What an item's parameters other than its numbers and Notify ID decide: the same for most rows. */
interface RowSettings extends CampaignSettings {
	countryCode: string;
	suppression?: Suppression;
	failOnInvalid: boolean;
	warnings: string[];
	optOutAppended: boolean;
	/** Violations found before the Notify ID is checked, and after it (kept in the order a row reports them). */
	violationsBefore: RuleViolation[];
	violationsAfter: RuleViolation[];
}

function rowSettings(
	item: TextRequest,
	context: PlanContext,
	suppressions: SuppressionCache,
): RowSettings {
	const { values: options, violations: before } = readOptions(item.options);
	const given = optionSettings(options);
	const found: Findings = { violations: before, warnings: [] };
	const userText = asText(item.text);
	const text = textAsSent(userText, options, given, found);
	const { countryCode } = given;
	const suppression = countryCode ? suppressions.get(given.exclusions, countryCode) : undefined;
	if (suppression && suppression.unreadable.length > 0 && given.failOnUnreadable)
		before.push(given.exclusionsRefusal(unreadableExclusionsError(suppression)));
	const after: RuleViolation[] = [];
	const sendTime = SEND_TIME.judgedBy(given, context.zone);
	const sendAt = checkedSendAt(item, sendTime, context, {
		violations: after,
		warnings: found.warnings,
	});
	return {
		from: asText(item.from).trim(),
		text,
		sendAt,
		options,
		given,
		perRequest: given.perRequest,
		timeoutMs: given.timeoutMs,
		rehearsal: given.rehearsal,
		scheduled: context.scheduled,
		sendTime,
		countryCode,
		suppression,
		failOnInvalid: given.failOnInvalid,
		warnings: found.warnings,
		optOutAppended: text !== userText,
		violationsBefore: before,
		violationsAfter: after,
	};
}

/** Every option of `x` but the Notify ID has the same value in `y` (for…in: no array per row). */
function optionsOfXInY(x: CampaignOptions, y: CampaignOptions): boolean {
	for (const key in x) {
		if (key !== 'notifyId' && x[key as keyof CampaignOptions] !== y[key as keyof CampaignOptions])
			return false;
	}
	return true;
}

/** Whether two rows' parameters other than numbers and Notify ID are the same values. */
function sameRowParameters(a: TextRequest, b: TextRequest): boolean {
	if (a.from !== b.from || a.text !== b.text || a.sendAt !== b.sendAt) return false;
	return optionsOfXInY(a.options, b.options) && optionsOfXInY(b.options, a.options);
}

/**
 * Row settings by row: a row whose parameters (numbers and Notify ID aside) are the previous row's
 * shares its settings, so 100,000 rows of one campaign check the text, country code and send time
 * once instead of 100,000 times.
 */
class RowSettingsCache {
	private previous?: { item: TextRequest; settings: RowSettings };

	constructor(
		private readonly context: PlanContext,
		private readonly suppressions: SuppressionCache,
	) {}

	get(item: TextRequest): RowSettings {
		const previous = this.previous;
		if (previous && sameRowParameters(previous.item, item)) return previous.settings;
		const settings = rowSettings(item, this.context, this.suppressions);
		this.previous = { item, settings };
		return settings;
	}
}

function readItem(item: TextRequest, rows: RowSettingsCache): ItemRequest {
	const settings = rows.get(item);
	const violations: RuleViolation[] = [...item.unreadable, ...settings.violationsBefore];
	// Each item's own: read here, not with the row's shared options.
	const notifyId = readItemOptions(item.options, violations).notifyId || null;
	violations.push(...settings.violationsAfter);
	return {
		itemIndex: item.itemIndex,
		settings,
		notifyId,
		recipients: item.recipients,
		violations,
	};
}

function duplicateReason(item: EntryOwner, first: EntryOwner): string {
	if (first.itemIndex === item.itemIndex) return 'listed more than once in this item; sent once';
	const reference = first.notifyId ? `, sent with Notify ID "${first.notifyId}"` : '';
	return `already in this campaign from item ${first.itemIndex}${reference}; sent once`;
}

/** The numbers to send, in order, each once (entries of the sendable items); later copies become duplicates. */
function dedupe(
	numbers: NumberColumns,
	sendable: readonly EntryOwner[],
	skips: Map<number, Skip>,
): Int32Array {
	const { msisdns } = numbers;
	const order = new Int32Array(numbers.size);
	let sending = 0;
	const seen = new NumberSet(msisdns, numbers.size);
	for (let o = 0; o < sendable.length; o++) {
		const owner = sendable[o];
		for (let entry = owner.first; entry < owner.first + owner.inputs.length; entry++) {
			if (msisdns[entry] === null || skips.has(entry)) continue;
			const first = seen.addOrFind(entry);
			if (first >= 0)
				skips.set(entry, {
					kind: 'duplicate',
					reason: duplicateReason(owner, numbers.owner(first)),
				});
			else order[sending++] = entry;
		}
	}
	return order.slice(0, sending);
}

/**
 * Items whose requests would be the same are one campaign, so a number they share is texted once:
 * Batch Size and Request Timeout change no request body. Each item's own values were checked with
 * its options (one that is not valid sets the item apart); the first item to be sent gives the campaign its values,
 * and a warning names the items whose values differ. Returns that item's settings and the warnings.
 */
function sharedRequestSettings(items: ItemRequest[]): { source: RowSettings; warnings: string[] } {
	const sendable = items.filter((item) => item.violations.length === 0);
	const first = sendable[0] ?? items[0];
	const { perRequest, timeoutMs } = first.settings;
	const differing = { perRequest: [] as number[], timeoutMs: [] as number[] };
	for (let i = 0; i < sendable.length; i++) {
		const item = sendable[i];
		if (item.settings.perRequest !== perRequest) differing.perRequest.push(item.itemIndex);
		if (item.settings.timeoutMs !== timeoutMs) differing.timeoutMs.push(item.itemIndex);
	}
	const named = (label: string, itemIndexes: number[], value: string) =>
		`${label} differs on item(s) ${itemIndexes.slice(0, 5).join(', ')}${itemIndexes.length > 5 ? '…' : ''}; their campaign (same ${CAMPAIGN_KEY_WORDING}) used item ${first.itemIndex}'s ${value}, so that no number is texted twice`;
	const warnings = [
		...(differing.perRequest.length
			? [named('Batch Size', differing.perRequest, String(perRequest))]
			: []),
		...(differing.timeoutMs.length
			? [named('Request Timeout', differing.timeoutMs, `${timeoutMs} ms`)]
			: []),
	];
	return { source: first.settings, warnings };
}

/**
 * Reads one campaign's numbers, checks its shared settings, sets its items' own violations apart, dedupes and
 * batches.
 */
function settle(items: ItemRequest[], context: PlanContext): CampaignPlan {
	const { numbers, skips } = readNumbers(items);
	const shared = sharedRequestSettings(items);
	const [first] = items;
	const { from, text, sendAt, options, given, rehearsal, scheduled, sendTime } = first.settings;
	const { perRequest, timeoutMs } = shared.source;
	const violations: ItemViolation[] = violationsOf(campaignSettingsSchema, { from, text }).map(
		(v) => ({ ...v, itemIndex: first.itemIndex, message: withFooterNoted(v, first) }),
	);
	const owners = numbers.owners;
	const rejected: RejectedItem[] = [];
	items.forEach((i, o) => {
		if (i.violations.length > 0)
			rejected.push({ itemIndex: i.itemIndex, violations: i.violations, owner: owners[o] });
	});
	const sendableOwners = owners.filter((_, o) => items[o].violations.length === 0);
	const sendable = items.filter((i) => i.violations.length === 0);
	const order = dedupe(numbers, sendableOwners, skips);
	if (order.length === 0 && violations.length === 0 && sendable.length > 0) {
		violations.push({
			field: 'recipients',
			message: 'No valid recipient left to send to (all were invalid, excluded or duplicates)',
			itemIndex: sendable[0].itemIndex,
		});
	}
	const timing = ofRecipients({ sendAt, sendTime }, numbers, order, context);
	if (timing.violation && sendable.length > 0)
		violations.push({ ...timing.violation, itemIndex: sendable[0].itemIndex });
	const settings = {
		...{ from, text, options, given, perRequest, timeoutMs, rehearsal, scheduled },
		...timing.settings,
	};
	const recipients = new CampaignRecipients(numbers, skips, order);
	const planned = sendable.map(
		(item, i) => new PlannedItem(item.itemIndex, item.settings.failOnInvalid, sendableOwners[i]),
	);
	return new CampaignPlan({
		settings,
		items: planned,
		recipients,
		violations,
		rejected,
		warnings: [...warningsOf(sendable), ...shared.warnings, ...timing.warnings],
	});
}

/** The campaign's send time once its recipients are known (they may be what the rule judges by). */
function ofRecipients(
	timing: { sendAt: string | null; sendTime?: unknown },
	numbers: NumberColumns,
	order: Int32Array,
	context: PlanContext,
): {
	settings: { sendAt: string | null; sendTime?: unknown };
	warnings: string[];
	violation?: RuleViolation;
} {
	if (timing.sendTime === null || timing.sendTime === undefined)
		return { settings: timing, warnings: [] };
	const recipients = function* () {
		for (let p = 0; p < order.length; p++) yield numbers.msisdns[order[p]]!;
	};
	const moment = { sendAt: timing.sendAt, now: context.now };
	const ruled = SEND_TIME.ofCampaign(timing.sendTime, moment, recipients);
	const settings = { sendAt: ruled.sendAt, sendTime: ruled.judged };
	return { settings, warnings: ruled.warnings, violation: ruled.violation };
}

/** A limit the text breaks only with its Opt-Out Text should say so. */
function withFooterNoted(violation: RuleViolation, item: ItemRequest): string {
	return violation.field === 'text' && item.settings.optOutAppended
		? `${violation.message} (with the Opt-Out Text)`
		: violation.message;
}

function warningsOf(items: ItemRequest[]): string[] {
	const rows = new Set(items.map((i) => i.settings));
	const suppressions = new Set(
		[...rows].map((r) => r.suppression).filter((s) => s && s.unreadable.length > 0),
	);
	const own = new Set([...rows].flatMap((r) => r.warnings));
	return [...[...suppressions].map((s) => unreadableExclusionsWarning(s!)), ...own];
}

/**
 * The plan without the numbers to send that `leaveOut` picks, each given `skip` (e.g. numbers the
 * sender cannot reach); the rest keep their order and are batched again.
 */
export function withSkipped(
	plan: CampaignPlan,
	leaveOut: (msisdn: string) => boolean,
	skip: Skip,
): CampaignPlan {
	const { numbers, order } = plan.recipients;
	let skips: Map<number, Skip> | undefined;
	const left = new Int32Array(order.length);
	let count = 0;
	for (let p = 0; p < order.length; p++) {
		const entry = order[p];
		if (!leaveOut(numbers.msisdns[entry]!)) left[count++] = entry;
		else (skips ??= new Map(plan.recipients.skips)).set(entry, skip);
	}
	if (!skips) return plan;
	const kept = left.slice(0, count);
	const recipients = new CampaignRecipients(numbers, skips, kept);
	const violations = [...plan.violations];
	if (kept.length === 0) {
		violations.push({
			field: 'recipients',
			message: `No recipient left to send to: ${skip.reason}`,
			itemIndex: plan.items[0].itemIndex,
		});
	}
	return plan.with({ recipients, violations });
}

/** What items must agree on to be one campaign: what their requests carry, and the options flagged so (options/). */
const campaignKeyOf = (settings: CampaignSettings): unknown[] => [
	settings.from,
	settings.text,
	settings.sendAt,
	...CAMPAIGN_KEY_OPTIONS.map((name) => campaignKeyValue(name, settings.options, settings.given)),
];

/**
 * Reads and checks every item, then groups items whose sender, text, send time and campaign-key
 * options (CAMPAIGN_KEY_WORDING) agree into one campaign, in order of first appearance.
 */
export function planCampaigns(items: TextRequest[], context: PlanContext): CampaignPlan[] {
	const groups = new Map<string, ItemRequest[]>();
	const rows = new RowSettingsCache(context, new SuppressionCache());
	let previous: { item: ItemRequest; group: ItemRequest[] } | undefined;
	for (let i = 0; i < items.length; i++) {
		const item = readItem(items[i], rows);
		// Rows of one campaign usually follow each other: no key string per row for them.
		if (previous && sameCampaign(previous.item, item)) {
			previous.group.push(item);
			continue;
		}
		const key = JSON.stringify(campaignKeyOf(item.settings));
		let group = groups.get(key);
		if (group) group.push(item);
		else groups.set(key, (group = [item]));
		previous = { item, group };
	}
	return [...groups.values()].map((group) => settle(group, context));
}

function sameCampaign(x: ItemRequest, y: ItemRequest): boolean {
	if (x.settings === y.settings) return true;
	const a = campaignKeyOf(x.settings);
	const b = campaignKeyOf(y.settings);
	return a.every((value, i) => Object.is(value, b[i]));
}
