// Each item's output for a campaign: every recipient's status, the counts and estimated credits.
import type { TextAnalysis } from '../../../domain/gsmSegments';
import { analyseText } from '../../../domain/gsmSegments';
import type { BatchOutcome, Posting } from './posting';
import { numbersNamedIn } from '../../../domain/numbersInErrors';
import { ITEM_FIELD_OPTIONS, REPORT_OPTIONS, SEND_TIME } from '../options';
import type { CampaignPlan, CampaignSettings, PlannedItem } from './plan';
import { batchLabel } from './requestBody';

/**
 * Every status a recipient can have, the one list of them, each with its key in an item's `counts`
 * (a dry run's are not counted there), in the order `counts` shows them.
 */
const STATUSES = {
	accepted: 'accepted',
	'rejected by provider': 'rejectedByProvider',
	invalid: 'invalid',
	duplicate: 'duplicate',
	excluded: 'excluded',
	undeliverable: 'undeliverable',
	'not sent': 'notSent',
	unconfirmed: 'unconfirmed',
	'dry run': null,
} as const;

type RecipientStatus = keyof typeof STATUSES;

const STATUS_NAMES = Object.keys(STATUSES) as RecipientStatus[];

/** One number of one input item and what became of it, as the output shows it. */
interface RecipientReport {
	input: string;
	msisdn: string | null;
	notifyId: string | null;
	status: RecipientStatus;
	reason: string | null;
}

type Json = Record<string, unknown>;

/** One input item's output; `unsent` when the campaign failed before all its numbers went out. */
interface ItemReport {
	itemIndex: number;
	json: Json;
	unsent: boolean;
}

export interface CampaignReport {
	items: ItemReport[];
	/** The numbers the provider accepted in this campaign. */
	accepted: string[];
}

/** Provider error strings from accepted batches: by the number they name, or general. */
interface ProviderErrors {
	general: string[];
	byNumber: Map<string, string[]>;
	message: string | null;
}

function providerErrors(plan: CampaignPlan, posting: Posting): ProviderErrors {
	const found: ProviderErrors = { general: [], byNumber: new Map(), message: null };
	const columns = plan.recipients;
	// The numbers are listed only for an answer with errors to match them against.
	const read = (outcome: BatchOutcome, numbersOf: () => Array<string | null>) => {
		if (outcome.state !== 'accepted') return;
		found.message = outcome.message;
		if (outcome.errors.length === 0) return;
		const numbers = numbersOf();
		const sent = new Set(numbers);
		for (const message of outcome.errors) {
			const named = numbersNamedIn(message, sent, numbers);
			if (named.length === 0 && !found.general.includes(message)) found.general.push(message);
			for (const n of named) found.byNumber.set(n, [...(found.byNumber.get(n) ?? []), message]);
		}
	};
	// What an earlier attempt was told about the recipients it posted (a retry may batch them otherwise).
	const earlier = new Map<BatchOutcome, Array<string | null>>();
	for (const [entry, outcome] of posting.earlier ?? []) {
		const numbers = earlier.get(outcome);
		if (numbers) numbers.push(columns.msisdn(entry));
		else earlier.set(outcome, [columns.msisdn(entry)]);
	}
	for (const [outcome, numbers] of earlier) read(outcome, () => numbers);
	posting.batches.forEach((outcome, index) => {
		if ('replayed' in outcome && outcome.replayed) return;
		read(outcome, () =>
			Array.from(
				plan.batch(index).filter((entry) => !posting.earlier?.has(entry)),
				(entry) => columns.msisdn(entry),
			),
		);
	});
	return found;
}

type StatusWithReason = Pick<RecipientReport, 'status' | 'reason'>;

// Shared answers for the common cases: 400,000 accepted recipients must not mean 400,000 objects.
const ACCEPTED: StatusWithReason = Object.freeze({ status: 'accepted', reason: null });
const DRY_RUN: StatusWithReason = Object.freeze({ status: 'dry run', reason: 'not sent: dry run' });
const TEXTED_FOR_ANOTHER: StatusWithReason = Object.freeze({
	status: 'duplicate',
	reason:
		'not sent again: an earlier attempt of this execution texted this number for another item that listed it',
});

/**
 * The one place that decides a recipient's (an entry's) status: from the plan, its batch's outcome and the provider's
 * errors.
 */
function statusOf(
	entry: number,
	plan: CampaignPlan,
	posting: Posting,
	errors: ProviderErrors,
): StatusWithReason {
	const columns = plan.recipients;
	// Posted by an earlier attempt of this execution (even if this attempt skips it): what the provider said then.
	const earlier = posting.earlier?.get(entry);
	const skip = columns.skip(entry);
	if (skip && !earlier) return { status: skip.kind, reason: skip.reason };
	if (posting.textedForOthers?.has(entry)) return TEXTED_FOR_ANOTHER;
	// No batch: a rule stopped the campaign on this attempt (an earlier one may have posted some of it).
	const position = columns.position(entry);
	const outcome =
		earlier ??
		(position === undefined
			? undefined
			: posting.batches[Math.floor(position / plan.settings.perRequest)]);
	if (outcome?.state === 'dry run') return DRY_RUN;
	if (outcome?.state === 'unconfirmed') return { status: 'unconfirmed', reason: outcome.reason };
	if (outcome?.state === 'accepted') {
		const named =
			errors.byNumber.size === 0 ? undefined : errors.byNumber.get(columns.msisdn(entry)!);
		return named ? { status: 'rejected by provider', reason: named.join('; ') } : ACCEPTED;
	}
	if (!posting.failure)
		return {
			status: 'not sent',
			reason: 'not sent: the run stopped after another campaign failed',
		};
	const { error, batch } = posting.failure;
	if (batch === undefined)
		return { status: 'not sent', reason: `not sent on this attempt: ${error.message}` };
	return {
		status: 'not sent',
		reason: `the campaign request failed${batchLabel(batch, plan.batchCount)}: ${error.message}`,
	};
}

/** An entry and its status as the output shows it. */
function reportOf(entry: number, plan: CampaignPlan, judged: StatusWithReason): RecipientReport {
	const columns = plan.recipients;
	return {
		input: columns.input(entry),
		msisdn: columns.msisdn(entry),
		notifyId: columns.notifyId(entry),
		status: judged.status,
		reason: judged.reason,
	};
}

function emptyCounts(): Record<RecipientStatus, number> {
	const counts = {} as Record<RecipientStatus, number>;
	for (const status of STATUS_NAMES) counts[status] = 0;
	return counts;
}

/**
 * Above this many recipients an item lists its accepted (or dry-run) numbers as plain strings in
 * `acceptedNumbers` (`dryRunNumbers`) instead of one object each: a 400,000-number list would
 * otherwise hold an object per number for the output alone. Every other recipient, whose status
 * has a reason, is still listed in full in `recipients`.
 */
const COMPACT_ABOVE = 1_000;

/** The statuses a compact item lists as plain numbers, and the field each goes to. */
const COMPACT_FIELDS: Partial<Record<RecipientStatus, 'acceptedNumbers' | 'dryRunNumbers'>> = {
	accepted: 'acceptedNumbers',
	'dry run': 'dryRunNumbers',
};

interface ItemOutcome {
	item: PlannedItem;
	/** Every recipient in full; in a compact item, the ones not listed as plain numbers. */
	recipients: RecipientReport[];
	/** Present on a compact item only. */
	numbers?: { acceptedNumbers: string[]; dryRunNumbers: string[] };
	/** The numbers the provider accepted (a one-number item's is read from its report instead). */
	accepted: string[];
	counts: Record<RecipientStatus, number>;
}

const NONE: readonly string[] = Object.freeze([]);

/** Counts of a one-recipient item, one frozen record per status: 100,000 rows need no 100,000 records. */
const SINGLE_COUNTS = new Map<RecipientStatus, Record<RecipientStatus, number>>(
	STATUS_NAMES.map((status) => [status, Object.freeze({ ...emptyCounts(), [status]: 1 })]),
);

/** The common case, one number per row, without the arrays and records a list needs. */
function singleOutcome(
	item: PlannedItem,
	plan: CampaignPlan,
	posting: Posting,
	errors: ProviderErrors,
): ItemOutcome {
	const entry = item.first;
	const judged = statusOf(entry, plan, posting, errors);
	const report = reportOf(entry, plan, judged);
	return {
		item,
		recipients: [report],
		numbers: undefined,
		accepted: NONE as string[],
		counts: SINGLE_COUNTS.get(judged.status)!,
	};
}

/**
 * A list filled in order and cut to what it holds: sized once for the whole item instead of
 * growing (and copying) as 400,000 numbers are pushed.
 */
function presized(size: number): string[] {
	return size > COMPACT_ABOVE ? new Array<string>(size) : [];
}

function itemOutcome(
	item: PlannedItem,
	plan: CampaignPlan,
	posting: Posting,
	errors: ProviderErrors,
): ItemOutcome {
	const size = item.end - item.first;
	if (size === 1) return singleOutcome(item, plan, posting, errors);
	const counts = emptyCounts();
	const compact = size > COMPACT_ABOVE;
	const rehearsal = plan.settings.rehearsal;
	const numbers = compact
		? {
				acceptedNumbers: rehearsal ? [] : presized(size),
				dryRunNumbers: rehearsal ? presized(size) : [],
			}
		: undefined;
	const listed = { acceptedNumbers: 0, dryRunNumbers: 0 };
	const recipients: RecipientReport[] = [];
	const accepted: string[] = numbers ? numbers.acceptedNumbers : [];
	const msisdns = plan.recipients.numbers.msisdns;
	for (let entry = item.first; entry < item.end; entry++) {
		const judged = statusOf(entry, plan, posting, errors);
		const { status } = judged;
		counts[status]++;
		const field = COMPACT_FIELDS[status];
		// The plan's own number strings: the output adds no string per number.
		if (numbers && field) numbers[field][listed[field]++] = msisdns[entry]!;
		else recipients.push(reportOf(entry, plan, judged));
		if (!numbers && status === 'accepted') accepted.push(msisdns[entry]!);
	}
	if (numbers) {
		numbers.acceptedNumbers.length = listed.acceptedNumbers;
		numbers.dryRunNumbers.length = listed.dryRunNumbers;
	}
	return { item, recipients, numbers, accepted, counts };
}

/** The options flagged to be shown (options/), an empty one as null. */
function reportedOptions(settings: CampaignSettings): Json {
	const shown: Json = {};
	for (const name of REPORT_OPTIONS) {
		const value = settings.options[name];
		shown[name] = value === '' || value === undefined ? null : value;
	}
	return shown;
}

/** What every item of one campaign reports the same way (one object, shared by its items). */
function campaignSummary(
	plan: CampaignPlan,
	posting: Posting,
	credits: number,
	errors: ProviderErrors,
): Json {
	const { settings } = plan;
	return {
		from: settings.from,
		...reportedOptions(settings),
		sendAt: settings.sendAt,
		...(settings.sendTime != null ? SEND_TIME.reported(settings.sendTime) : {}),
		recipients: plan.recipients.sending,
		requests: settings.rehearsal ? (posting.dryRunRequests?.length ?? 0) : posting.requests,
		estimatedCredits: credits,
		// Kept once here, not copied into every item: they name no recipient.
		providerErrors: errors.general,
	};
}

/** What a user should know about how the campaign went out, besides each recipient's status. */
function postingWarnings(posting: Posting, unconfirmed: number): string[] {
	const warnings: string[] = [];
	const replayed = posting.earlier?.size ?? 0;
	if (replayed > 0) {
		warnings.push(
			`${replayed} recipient(s) of this campaign reached the provider in an earlier attempt of this execution (Retry On Fail or a retried execution) and were not posted again`,
		);
	}
	const changed = new Set(
		[...(posting.earlier?.values() ?? [])].filter((b) => 'changed' in b && b.changed),
	).size;
	if (changed > 0) {
		warnings.push(
			`${changed} of those earlier request(s) would now carry another text or settings (an expression such as {{ $now }} gave a new value): what the provider answered then is reported, and the new values were not sent`,
		);
	}
	if (unconfirmed > 0) {
		warnings.push(
			`${unconfirmed} recipient(s) are unconfirmed: no answer proved that the provider refused them (a timeout, a dropped connection, a server error or an unreadable answer), so they may have been sent. Check the provider's report before sending them again`,
		);
	}
	const moved = posting.movedBySendTime;
	if (moved) warnings.push(SEND_TIME.movedWarning(moved.judged, moved));
	if (posting.retriedAfter429 > 0) {
		warnings.push(
			`The provider asked to slow down (HTTP 429): ${posting.retriedAfter429} request(s) were repeated after waiting`,
		);
	}
	return warnings;
}

const isSingle = (outcome: ItemOutcome) =>
	!outcome.numbers && outcome.item.end - outcome.item.first === 1;

/** The numbers the provider accepted in the campaign, in item order (no array per one-number item). */
function acceptedNumbers(outcomes: ItemOutcome[]): string[] {
	if (outcomes.length === 1 && !isSingle(outcomes[0])) return outcomes[0].accepted;
	const all: string[] = [];
	outcomes.forEach((outcome) => {
		if (!isSingle(outcome))
			for (let i = 0; i < outcome.accepted.length; i++) all.push(outcome.accepted[i]);
		else if (outcome.recipients[0].status === 'accepted') all.push(outcome.recipients[0].msisdn!);
	});
	return all;
}

interface Shared {
	operation: string;
	plan: CampaignPlan;
	posting: Posting;
	errors: ProviderErrors;
	summary: Json;
	text: TextAnalysis & { estimatedCredits: number };
	warnings: string[];
	objects: SharedObjects;
}

/**
 * What happened to this item, first, so n8n's table shows it in the leftmost columns: its status
 * (every recipient's, or `mixed`), and for a one-recipient item its number and reason too.
 */
function ownStatus(outcome: ItemOutcome): string {
	const present = STATUS_NAMES.filter((status) => outcome.counts[status] > 0);
	return present.length === 1 ? present[0] : 'mixed';
}

function countsJson(counts: Record<RecipientStatus, number>): Json {
	const json: Json = {};
	for (const status of STATUS_NAMES) {
		const key = STATUSES[status];
		if (key !== null) json[key] = counts[status];
	}
	return json;
}

/**
 * Objects that many items of a campaign would hold identical copies of (the counts of a
 * one-recipient item, the provider's answer when it names none of the item's numbers) are made
 * once and shared, like `campaign` and `text`: 100,000 one-row items need 100,000 outputs, not
 * 300,000 objects more.
 */
class SharedObjects {
	private readonly counts = new Map<RecipientStatus, Json>();

	constructor(private readonly answer: Json | null) {}

	countsOf(outcome: ItemOutcome): Json {
		if (outcome.item.end - outcome.item.first !== 1 || outcome.numbers)
			return countsJson(outcome.counts);
		const status = outcome.recipients[0].status;
		let counts = this.counts.get(status);
		if (!counts) this.counts.set(status, (counts = countsJson(outcome.counts)));
		return counts;
	}

	responseOf(itemErrors: string[]): Json | null {
		if (this.answer === null || itemErrors.length === 0) return this.answer;
		return { ...this.answer, errors: itemErrors };
	}
}

/** The item's own result, by its shape: one number, a compact list of many, or each listed. */
function ownResult(outcome: ItemOutcome): Json {
	const { recipients, numbers } = outcome;
	if (isSingle(outcome)) {
		const { status, msisdn, reason, input, notifyId } = recipients[0];
		return { status, msisdn, reason, input, notifyId, recipients };
	}
	if (numbers) {
		const { acceptedNumbers, dryRunNumbers } = numbers;
		return { status: ownStatus(outcome), recipients, acceptedNumbers, dryRunNumbers };
	}
	return { status: ownStatus(outcome), recipients };
}

/** Provider errors that name this item's numbers. */
function errorsOfItem(outcome: ItemOutcome, errors: ProviderErrors): string[] {
	if (errors.byNumber.size === 0) return NONE as string[];
	const itemErrors: string[] = [];
	for (const r of outcome.recipients)
		itemErrors.push(...(errors.byNumber.get(r.msisdn ?? '') ?? []));
	return itemErrors;
}

/**
 * The item's own result first; what the whole campaign shares after it, assigned in one order so
 * that every item's object has the same shape: no object per item to spread (100,000 rows).
 */
function itemJson(outcome: ItemOutcome, shared: Shared): Json {
	const { plan, posting } = shared;
	const json = ownResult(outcome);
	json.counts = shared.objects.countsOf(outcome);
	json.warnings = shared.warnings;
	json.campaign = shared.summary;
	json.text = shared.text;
	json.response = shared.objects.responseOf(errorsOfItem(outcome, shared.errors));
	json.operation = shared.operation;
	json.success = !posting.failure;
	for (const name of ITEM_FIELD_OPTIONS) json[name] = plan.settings.options[name];
	// The exact bodies are shown once per campaign, on its first item.
	if (plan.settings.rehearsal && outcome.item === plan.items[0])
		json.requests = posting.dryRunRequests;
	return json;
}

/**
 * Every item's output for one campaign. `estimatedCredits` (in `campaign` and `text`) is the
 * campaign's: parts × the recipients the provider accepted, or would be sent in a dry run.
 */
export function reportCampaign(
	operation: string,
	plan: CampaignPlan,
	posting: Posting,
	warnings: string[],
): CampaignReport {
	const errors = providerErrors(plan, posting);
	const outcomes = plan.items.map((item) => itemOutcome(item, plan, posting, errors));
	const unconfirmed = outcomes.reduce((sum, o) => sum + o.counts.unconfirmed, 0);
	const billable = outcomes.reduce((sum, o) => sum + o.counts.accepted + o.counts['dry run'], 0);
	const analysis = analyseText(plan.settings.text);
	const credits = analysis.segments * billable;
	const shared: Shared = {
		operation,
		plan,
		posting,
		errors,
		summary: campaignSummary(plan, posting, credits, errors),
		text: { ...analysis, estimatedCredits: credits },
		warnings: [...plan.warnings, ...warnings, ...postingWarnings(posting, unconfirmed)],
		objects: new SharedObjects(
			plan.settings.rehearsal
				? null
				: { success: !posting.failure, message: errors.message, errors: [] },
		),
	};
	return {
		accepted: acceptedNumbers(outcomes),
		items: outcomes.map((o) => ({
			itemIndex: o.item.itemIndex,
			json: itemJson(o, shared),
			unsent: o.counts['not sent'] + o.counts.unconfirmed > 0,
		})),
	};
}
