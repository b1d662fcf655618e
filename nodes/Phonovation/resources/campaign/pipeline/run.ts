import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { checkSenders } from './checkSenders';
import { deliver } from './deliver';
import type { CampaignPlan, ItemViolation } from './plan';
import { planCampaigns } from './plan';
import { readParameters } from './readParameters';
import { reportCampaign } from './report';

export type CampaignOperation = 'send' | 'schedule';

const FIELD_LABELS: Record<string, string> = {
	from: 'Sender',
	text: 'Text',
	recipients: 'Recipients',
	sendAt: 'Send At',
	campaignName: 'Campaign Name',
	notifyId: 'Notify ID',
	batchSize: 'Batch Size',
	credential: 'Credential',
	defaultCountryCode: 'Default Country Code',
	options: 'Options',
};

function violationError(ctx: IExecuteFunctions, violations: ItemViolation[]): NodeOperationError {
	const [first, ...rest] = violations;
	const label = FIELD_LABELS[first.field] ?? first.field;
	const listed = rest.slice(0, 5).map((v) => `${v.message} (item ${v.itemIndex})`);
	if (rest.length > 5) listed.push(`and ${rest.length - 5} more`);
	const more = listed.length ? ` Also: ${listed.join('; ')}.` : '';
	return new NodeOperationError(ctx.getNode(), `${label}: ${first.message} (item ${first.itemIndex})`, {
		itemIndex: first.itemIndex,
		description: `Nothing was sent for this campaign.${more}`,
	});
}

function errorItem(error: NodeOperationError, itemIndex: number): INodeExecutionData {
	// n8n reduces error items to { error: message } and routes them to the error output.
	return { json: { error: error.message }, error, pairedItem: { item: itemIndex } };
}

/** The error that stops the node after a failed campaign, saying what the run had already sent. */
function stoppingError(failure: Error, acceptedBefore: number): Error {
	if (acceptedBefore > 0) {
		const error = failure as NodeOperationError;
		const said = error.description ? `${error.description} ` : '';
		error.description = `${said}Before this failure the provider had accepted ${acceptedBefore} recipient(s) of this run; they are not sent again.`;
	}
	return failure;
}

/**
 * Send or schedule, over all input items: read parameters → plan (normalise, group, dedupe,
 * validate) → check senders → deliver each campaign's batches → report per item.
 */
export async function runCampaigns(
	ctx: IExecuteFunctions,
	items: INodeExecutionData[],
	operation: CampaignOperation,
): Promise<INodeExecutionData[]> {
	const scheduled = operation === 'schedule';
	const parameters = readParameters(ctx, items.length, scheduled);
	const plans = planCampaigns(parameters, { scheduled, now: new Date(), zone: ctx.getTimezone() });
	const verdicts = await checkSenders(ctx, plans);
	const violationsOf = (plan: CampaignPlan) => {
		const sender = verdicts.get(plan)?.violation;
		return sender ? [...plan.violations, sender] : [...plan.violations];
	};

	const blocked = plans.filter((plan) => violationsOf(plan).length > 0);
	if (blocked.length > 0 && !ctx.continueOnFail()) throw violationError(ctx, violationsOf(blocked[0]));
	const sendable = plans.filter((plan) => violationsOf(plan).length === 0);
	const out: INodeExecutionData[] = new Array(items.length);
	for (const plan of blocked) {
		const error = violationError(ctx, violationsOf(plan));
		for (const item of plan.items) out[item.itemIndex] = errorItem(error, item.itemIndex);
	}

	let acceptedSoFar = 0;
	for (const plan of sendable) {
		const delivery = await deliver(ctx, plan);
		const report = reportCampaign(operation, plan, delivery, verdicts.get(plan)?.warnings ?? []);
		if (delivery.failure && !ctx.continueOnFail()) {
			throw stoppingError(delivery.failure.error, acceptedSoFar + report.accepted);
		}
		acceptedSoFar += report.accepted;
		for (const { itemIndex, json, unsent } of report.items) {
			out[itemIndex] =
				delivery.failure && unsent
					? errorItem(delivery.failure.error as NodeOperationError, itemIndex)
					: { json: json as INodeExecutionData['json'], pairedItem: { item: itemIndex } };
		}
	}
	return out;
}
