import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { parseParallelRequests } from '../../../domain/rules';
import { FIELD_LABELS } from '../fields';
import { apiUrl } from '../../../transport/request';

import { applyVerdict, checkSenders } from './checkSenders';
import type { Delivery, DeliveryContext } from './deliver';
import { blockedDelivery } from './deliver';
import { deliverAll } from './dispatch';
import { Ledger } from './ledger';
import { Pacer } from './pacer';
import type { CampaignPlan, ItemViolation, RejectedItem } from './plan';
import { planCampaigns } from './plan';
import { type ItemParameters, readParameters } from './readParameters';
import { type CampaignReport, reportCampaign } from './report';
import { CAMPAIGN_PATH } from './requestBody';

export type CampaignOperation = 'send' | 'schedule';

function violationError(ctx: IExecuteFunctions, violations: ItemViolation[], scope = 'campaign', retried = false): NodeOperationError {
	const [first, ...rest] = violations;
	const label = FIELD_LABELS[first.field] ?? first.field;
	const listed = rest.slice(0, 5).map((v) => `${v.message} (item ${v.itemIndex})`);
	if (rest.length > 5) listed.push(`and ${rest.length - 5} more`);
	const more = listed.length ? ` Also: ${listed.join('; ')}.` : '';
	return new NodeOperationError(ctx.getNode(), `${label}: ${first.message} (item ${first.itemIndex})`, {
		itemIndex: first.itemIndex,
		description: `Nothing was sent for this ${scope}${retried ? ' on this attempt' : ''}.${more}`,
	});
}

/** An item whose campaign broke a rule: nothing was sent for it, the message says why. */
function errorItem(error: NodeOperationError, itemIndex: number): INodeExecutionData {
	return { json: { error: error.message }, error, pairedItem: { item: itemIndex } };
}

/**
 * An item whose campaign failed while sending. n8n would cut an item with an `error` object down to
 * `{ error }`, losing which numbers were accepted; `{ error, details }` keeps the per-recipient
 * report and is still routed to the error output (n8n routes json of only error/message/details).
 */
function failedItem(error: Error, itemIndex: number, report: object): INodeExecutionData {
	return { json: { error: error.message, details: report } as IDataObject, pairedItem: { item: itemIndex } };
}

/** A campaign's violations and its rejected items', in item order: the first names what stops the run. */
function allViolations(plan: CampaignPlan): ItemViolation[] {
	const own = plan.rejected.flatMap(({ itemIndex, violations }) => violations.map((v) => ({ ...v, itemIndex })));
	return [...plan.violations, ...own];
}

const LISTED = 10;

/**
 * The error that stops the node after a failed campaign: what the run had already sent, and where
 * the whole list is (the error's context; every item's output with On Error set to continue).
 */
function stoppingError(failure: Error, accepted: string[]): Error {
	if (accepted.length === 0) return failure;
	const error = failure as NodeOperationError;
	const listed = accepted.slice(0, LISTED).join(', ') + (accepted.length > LISTED ? `, and ${accepted.length - LISTED} more` : '');
	const said = error.description ? `${error.description} ` : '';
	error.description =
		`${said}Before this failure the provider had accepted ${accepted.length} recipient(s) of this run (${listed}); ` +
		'a Retry On Fail or a Retry of this execution does not post them again to the same items\' numbers, even where an ' +
		'expression now gives another text. The full list is in this error\'s ' +
		'context.acceptedRecipients; set Settings → On Error to continue to get every item\'s per-recipient outcome.';
	error.context.acceptedRecipients = accepted;
	return failure;
}

/** A rejected item as a campaign of its own, so that what an earlier attempt posted of it can be reported. */
function itemAlone(plan: CampaignPlan, rejected: RejectedItem): CampaignPlan {
	const item = { itemIndex: rejected.itemIndex, recipients: rejected.recipients, failOnInvalid: false };
	return { ...plan, items: [item], toSend: [], batches: [], violations: [], rejected: [] };
}

/**
 * What a rule stops on this attempt: each campaign that broke one, and each item set apart by its
 * own; with `all`, the campaigns that broke none too (the whole run stops).
 */
function stoppedParts(ctx: IExecuteFunctions, plans: CampaignPlan[], retried: boolean, all: boolean): Array<{ plan: CampaignPlan; error: NodeOperationError }> {
	const parts: Array<{ plan: CampaignPlan; error: NodeOperationError }> = [];
	for (const plan of plans) {
		for (const rejected of plan.rejected) {
			const violations = rejected.violations.map((v) => ({ ...v, itemIndex: rejected.itemIndex }));
			parts.push({ plan: itemAlone(plan, rejected), error: violationError(ctx, violations, 'item', retried) });
		}
		if (plan.violations.length > 0) parts.push({ plan, error: violationError(ctx, [...plan.violations], 'campaign', retried) });
		else if (all && plan.items.length > 0) parts.push({ plan, error: violationError(ctx, [{ field: 'options', message: 'another campaign of this run broke a rule', itemIndex: plan.items[0].itemIndex }], 'campaign', retried) });
	}
	return parts;
}

/**
 * Each stopped part as an earlier attempt of this execution left it: a report for its items when
 * that attempt posted some of it (a retry may group items otherwise), else none.
 */
function stoppedReports(ctx: IExecuteFunctions, ledger: Ledger, operation: CampaignOperation, plans: CampaignPlan[], all = false) {
	return stoppedParts(ctx, plans, !ledger.isEmpty, all).map(({ plan, error }) => {
		const delivery = blockedDelivery({ ctx, ledger }, plan, error);
		return { plan, error, delivery, report: delivery && reportCampaign(operation, plan, delivery, []) };
	});
}

/** Error items for what a rule stops; an item an earlier attempt texted reports it from the record. */
function writeBlocked(stopped: ReturnType<typeof stoppedReports>, out: INodeExecutionData[]): void {
	for (const { plan, error, delivery, report } of stopped) {
		if (delivery && report) writeReports([{ delivery, report }], out);
		else for (const item of plan.items) out[item.itemIndex] = errorItem(error, item.itemIndex);
	}
}

/** What every delivery of this run shares: the ledger, the pacer, the stop signal, the endpoint. */
async function deliveryContext(
	ctx: IExecuteFunctions,
	parameters: ItemParameters[],
	ledger: Ledger,
): Promise<DeliveryContext & { workers: number }> {
	const parallel = parseParallelRequests(parameters[0]?.options.parallelRequests);
	if (!parallel.ok) throw violationError(ctx, [{ ...parallel.violation, itemIndex: 0 }], 'run');
	return {
		ctx,
		ledger,
		pacer: new Pacer(parallel.value, { now: () => Date.now(), sleep }),
		stop: { requested: false },
		campaignUrl: await apiUrl(ctx, CAMPAIGN_PATH),
		workers: parallel.value,
	};
}

/** Each item's output: its report, or `{ error, details }` when its campaign failed before all its numbers went out. */
function writeReports(reports: Array<{ delivery: Delivery; report: CampaignReport }>, out: INodeExecutionData[]): void {
	for (const { delivery, report } of reports) {
		for (const { itemIndex, json, unsent } of report.items) {
			out[itemIndex] =
				delivery.failure && unsent
					? failedItem(delivery.failure.error, itemIndex, json)
					: { json: json as INodeExecutionData['json'], pairedItem: { item: itemIndex } };
		}
	}
}

/**
 * Send or schedule, over all input items: read parameters → plan (normalise, group, dedupe,
 * validate) → check senders → deliver the campaigns side by side → report per item.
 */
export async function runCampaigns(
	ctx: IExecuteFunctions,
	items: INodeExecutionData[],
	operation: CampaignOperation,
): Promise<INodeExecutionData[]> {
	const scheduled = operation === 'schedule';
	const ledger = new Ledger(ctx.getContext('node'), ctx.getWorkflowDataProxy(0).$runIndex);
	const parameters = readParameters(ctx, items, scheduled);
	// Planned as at the first attempt, so what it posted is reported rather than refused; each
	// request is judged against the clock again as it is posted (deliver).
	const planned = planCampaigns(parameters, { scheduled, now: ledger.firstPlanned(new Date()), zone: ctx.getTimezone() });
	// Resolved first: a credential URL that may not be used stops the run before any request.
	const run = await deliveryContext(ctx, parameters, ledger);
	const verdicts = await checkSenders(ctx, planned, ledger);
	const plans = planned.map((plan) => applyVerdict(plan, verdicts.get(plan)));

	const problem = plans.find((plan) => plan.violations.length > 0 || plan.rejected.length > 0);
	if (problem && !ctx.continueOnFail()) {
		// What earlier attempts of this execution had accepted, in the whole run, is named with the error.
		const earlier = stoppedReports(ctx, ledger, operation, plans, true);
		const error = violationError(ctx, allViolations(problem), 'campaign', !ledger.isEmpty);
		throw stoppingError(error, earlier.flatMap((s) => s.report?.accepted ?? []));
	}
	const out: INodeExecutionData[] = new Array(items.length);
	if (problem) writeBlocked(stoppedReports(ctx, ledger, operation, plans), out);

	const sending = [...plans.keys()].filter((i) => plans[i].violations.length === 0 && plans[i].items.length > 0);
	const stopOnFailure = !ctx.continueOnFail();
	const deliveries = await deliverAll(run, sending.map((i) => plans[i]), { workers: run.workers, stopOnFailure });
	const reports = sending.map((index, i) => ({
		delivery: deliveries[i],
		report: deliveries[i] && reportCampaign(operation, plans[index], deliveries[i], verdicts.get(planned[index])?.warnings ?? []),
	}));
	const failed = reports.find((r) => r.delivery?.failure)?.delivery;
	if (failed?.failure && stopOnFailure) {
		throw stoppingError(failed.failure.error, reports.flatMap((r) => r.report?.accepted ?? []));
	}
	writeReports(reports, out);
	return out;
}
