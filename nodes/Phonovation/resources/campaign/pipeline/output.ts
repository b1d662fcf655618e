// A campaign run's outcome as n8n output: rule-violation errors, stopped items, each item's report.
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { FIELD_LABELS } from '../fields';
import type { Posting } from './posting';
import { stoppedPosting } from './replay';
import type { Ledger } from './ledger';
import type { CampaignPlan, ItemViolation, RejectedItem, Skip } from './plan';
import { PlannedItem } from './plan';
import { CampaignRecipients, NumberSet } from './recipients';
import { type CampaignReport, reportCampaign } from './report';

/** How a campaign run's outcome becomes n8n output items and errors: rule violations, stops, reports. */

export type CampaignOperation = 'send' | 'schedule';

/** `Text: Text is too long…` says its field twice: a message that starts with its label is not labelled again. */
function labelled(label: string, message: string): string {
	return message.startsWith(`${label} `) || message.startsWith(`${label}:`)
		? message
		: `${label}: ${message}`;
}

export function violationError(
	ctx: IExecuteFunctions,
	violations: ItemViolation[],
	scope = 'campaign',
	retried = false,
): NodeOperationError {
	const [first, ...rest] = violations;
	const label = FIELD_LABELS[first.field] ?? first.field;
	const listed = rest.slice(0, 5).map((v) => `${v.message} (item ${v.itemIndex})`);
	if (rest.length > 5) listed.push(`and ${rest.length - 5} more`);
	const more = listed.length ? ` Also: ${listed.join('; ')}.` : '';
	return new NodeOperationError(
		ctx.getNode(),
		`${labelled(label, first.message)} (item ${first.itemIndex})`,
		{
			itemIndex: first.itemIndex,
			description: `Nothing was sent for this ${scope}${retried ? ' on this attempt' : ''}.${more}`,
		},
	);
}

/** An item whose campaign broke a rule: nothing was sent for it, the message says why. */
function errorItem(error: NodeOperationError, itemIndex: number): INodeExecutionData {
	return { json: { error: error.message }, error, pairedItem: { item: itemIndex } };
}

/**
 * An item whose campaign failed while sending, or was stopped by a rule after an earlier attempt
 * had texted some of it. n8n would cut an item with an `error` object down to
 * `{ error }`, losing which numbers were accepted; `{ error, details }` keeps the per-recipient
 * report and is still routed to the error output (n8n routes json of only error/message/details).
 */
function failedItem(error: Error, itemIndex: number, report: object): INodeExecutionData {
	return {
		json: { error: error.message, details: report } as IDataObject,
		pairedItem: { item: itemIndex },
	};
}

/** A campaign's violations and its rejected items', in item order: the first names what stops the run. */
function allViolations(plan: CampaignPlan): ItemViolation[] {
	const own = plan.rejected.flatMap(({ itemIndex, violations }) =>
		violations.map((v) => ({ ...v, itemIndex })),
	);
	return [...plan.violations, ...own];
}

const LISTED = 10;

/**
 * The error that stops the node after a failed campaign: what the run had already sent, and where
 * the whole list is (the error's context; every item's output with On Error set to continue).
 */
export function stoppingError(failure: Error, accepted: string[]): Error {
	if (accepted.length === 0) return failure;
	const error = failure as NodeOperationError;
	const listed =
		accepted.slice(0, LISTED).join(', ') +
		(accepted.length > LISTED ? `, and ${accepted.length - LISTED} more` : '');
	const said = error.description ? `${error.description} ` : '';
	error.description =
		`${said}Before this failure the provider had accepted ${accepted.length} recipient(s) of this run (${listed}); ` +
		"a Retry On Fail or a Retry of this execution does not post them again to the same items' numbers, even where an " +
		"expression now gives another text. The full list is in this error's " +
		"context.acceptedRecipients; set Settings → On Error to continue to get every item's per-recipient outcome.";
	error.context.acceptedRecipients = accepted;
	return failure;
}

/**
 * A rejected item as a campaign of its own, so that what an earlier attempt posted of it can be
 * reported; a number it lists twice is reported once, the repeat as a duplicate.
 */
function itemAlone(plan: CampaignPlan, rejected: RejectedItem): CampaignPlan {
	const { numbers, skips: planned } = plan.recipients;
	const { owner } = rejected;
	const skips = new Map<number, Skip>();
	const seen = new NumberSet(numbers.msisdns, owner.inputs.length);
	for (let entry = owner.first; entry < owner.first + owner.inputs.length; entry++) {
		const skip = planned.get(entry);
		if (skip) skips.set(entry, skip);
		else if (numbers.msisdns[entry] !== null && seen.addOrFind(entry) >= 0)
			skips.set(entry, REPEATED);
	}
	const recipients = new CampaignRecipients(numbers, skips, NOTHING_SENT);
	const item = new PlannedItem(rejected.itemIndex, false, owner);
	// Its own violations stop it: it posts nothing (no batch).
	const violations = rejected.violations.map((v) => ({ ...v, itemIndex: rejected.itemIndex }));
	return plan.with({ items: [item], recipients, violations, rejected: [] });
}

const REPEATED: Skip = Object.freeze({
	kind: 'duplicate',
	reason: 'listed more than once in this item; sent once',
});

const NOTHING_SENT = new Int32Array(0);

/**
 * What a rule stops on this attempt: each campaign that broke one, and each item set apart by its
 * own. With `runError` the whole run stops: the campaigns that broke none are stopped by it.
 */
function stoppedParts(
	ctx: IExecuteFunctions,
	plans: CampaignPlan[],
	retried: boolean,
	runError?: NodeOperationError,
): Array<{ plan: CampaignPlan; error: NodeOperationError }> {
	const parts: Array<{ plan: CampaignPlan; error: NodeOperationError }> = [];
	for (const plan of plans) {
		for (const rejected of plan.rejected) {
			const violations = rejected.violations.map((v) => ({ ...v, itemIndex: rejected.itemIndex }));
			parts.push({
				plan: itemAlone(plan, rejected),
				error: violationError(ctx, violations, 'item', retried),
			});
		}
		if (plan.violations.length > 0)
			parts.push({ plan, error: violationError(ctx, [...plan.violations], 'campaign', retried) });
		else if (runError && plan.items.length > 0) parts.push({ plan, error: runError });
	}
	return parts;
}

/**
 * Each stopped part as an earlier attempt of this execution left it: a report for its items when
 * that attempt posted some of it (a retry may group items otherwise), else none.
 */
/** The run a stop is reported in: its node, the execution's record and the operation. */
export interface StoppedRun {
	ctx: IExecuteFunctions;
	ledger: Ledger;
	operation: CampaignOperation;
}

export function stoppedReports(
	{ ctx, ledger, operation }: StoppedRun,
	plans: CampaignPlan[],
	runError?: NodeOperationError,
) {
	return stoppedParts(ctx, plans, !ledger.isEmpty, runError).map(({ plan, error }) => {
		const posting = stoppedPosting({ ctx, ledger }, plan, error);
		return {
			plan,
			error,
			posting,
			report: posting && reportCampaign(operation, plan, posting, []),
		};
	});
}

/**
 * Error items for what a rule stops, routed as errors with the rule's message; where an earlier
 * attempt texted some of it, `{ error, details }` reports each number from the record.
 */
export function writeStopped(
	stopped: ReturnType<typeof stoppedReports>,
	out: INodeExecutionData[],
): void {
	for (const { plan, error, report } of stopped) {
		if (report)
			report.items.forEach(
				({ itemIndex, json }) => (out[itemIndex] = failedItem(error, itemIndex, json)),
			);
		else plan.items.forEach((item) => (out[item.itemIndex] = errorItem(error, item.itemIndex)));
	}
}

/** Each item's output: its report, or `{ error, details }` when its campaign failed before all its numbers went out. */
export function writeReports(
	reports: Array<{ posting: Posting; report: CampaignReport }>,
	out: INodeExecutionData[],
): void {
	for (const { posting, report } of reports) {
		// forEach: no iterator result per item of a 100,000-item run.
		report.items.forEach(({ itemIndex, json, unsent }) => {
			out[itemIndex] =
				posting.failure && unsent
					? failedItem(posting.failure.error, itemIndex, json)
					: { json: json as INodeExecutionData['json'], pairedItem: { item: itemIndex } };
		});
	}
}

/** The numbers an item's report calls unconfirmed. */
function unconfirmedIn(json: Record<string, unknown>): string[] {
	const recipients = (json.recipients ?? []) as Array<{ msisdn: string | null; status: string }>;
	return recipients.filter((r) => r.status === 'unconfirmed' && r.msisdn).map((r) => r.msisdn!);
}

/**
 * The error that stops a run whose campaign (or item) broke a rule, with On Error set to stop: it
 * names the first violation, and what earlier attempts of this execution had accepted in the run.
 */
export function ruleStopError(
	run: StoppedRun,
	plans: CampaignPlan[],
	problem: CampaignPlan,
): Error {
	const { ctx, ledger } = run;
	const error = violationError(ctx, allViolations(problem), 'campaign', !ledger.isEmpty);
	// Only a retry has earlier attempts to name: the first attempt builds no report for this.
	const earlier = ledger.isEmpty ? [] : stoppedReports(run, plans, error);
	const unconfirmed = earlier
		.flatMap((s) => s.report?.items ?? [])
		.flatMap(({ json }) => unconfirmedIn(json));
	if (unconfirmed.length > 0) {
		error.description += ` An earlier attempt of this execution could not confirm ${unconfirmed.length} recipient(s) (${[...new Set(unconfirmed)].slice(0, LISTED).join(', ')}): they may have been texted; check the provider's report before sending them again.`;
	}
	return stoppingError(
		error,
		earlier.flatMap((s) => s.report?.accepted ?? []),
	);
}
