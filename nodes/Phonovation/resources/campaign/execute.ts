import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { TextAnalysis } from '../../domain/gsmSegments';
import { analyseText } from '../../domain/gsmSegments';
import { apiRequest, isLoginFailure, trimSlash } from '../../transport';
import { fetchSenders, senderTypeLabel, type SenderRecord } from '../sender/senders';
import { collectItem, ParameterReader } from './collect';
import type { Campaign, ItemRequest, Recipient } from './plan';
import { batchesOf, groupIntoCampaigns, numbersNamedIn } from './plan';

const CAMPAIGN_PATH = '/api/v2/Campaign';

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

interface CampaignResponse {
	success?: boolean;
	message?: string | null;
	errors?: string[] | null;
}

/** What the provider said about a campaign, merged over its batches. */
interface Outcome {
	message: string | null;
	generalErrors: string[];
	errorsByNumber: Map<string, string[]>;
	requests: number;
	failure?: Error;
	dryRunRequests?: IDataObject[];
}

/**
 * The campaign request as JSON bytes, written in chunks: at 400,000 recipients an object tree
 * plus its serialisation would hold several copies of the body at once.
 */
function requestBody(campaign: Campaign, batch: Recipient[]): Buffer {
	const head: IDataObject = { text: campaign.text, from: campaign.from };
	if (campaign.campaignName) head.campaignName = campaign.campaignName;
	if (campaign.sendAt) head.sendAt = campaign.sendAt;
	const chunks = [Buffer.from(`${JSON.stringify(head).slice(0, -1)},"recipientInfo":[`)];
	let part = '';
	for (let i = 0; i < batch.length; i++) {
		const { msisdn, notifyId } = batch[i];
		part += `${i ? ',' : ''}{"msisdn":"${msisdn}"${notifyId ? `,"notifyId":${JSON.stringify(notifyId)}` : ''}}`;
		if (part.length > 65_536) {
			chunks.push(Buffer.from(part));
			part = '';
		}
	}
	chunks.push(Buffer.from(`${part}]}`));
	return Buffer.concat(chunks);
}

function violationError(ctx: IExecuteFunctions, campaign: Campaign): NodeOperationError {
	const [first, ...rest] = campaign.violations;
	const label = FIELD_LABELS[first.field] ?? first.field;
	const more = rest.length
		? ` Also: ${rest
				.slice(0, 5)
				.map((v) => `${v.message} (item ${v.itemIndex})`)
				.join('; ')}${rest.length > 5 ? `; and ${rest.length - 5} more` : ''}.`
		: '';
	return new NodeOperationError(ctx.getNode(), `${label}: ${first.message} (item ${first.itemIndex})`, {
		itemIndex: first.itemIndex,
		description: `Nothing was sent for this campaign.${more}`,
	});
}

/** Checks `from` against the account's approved sender IDs (one request per execution). */
async function checkSenders(ctx: IExecuteFunctions, campaigns: Campaign[]): Promise<void> {
	const live = campaigns.filter((c) => !c.dryRun && c.violations.length === 0);
	if (live.length === 0) return;
	let senders: SenderRecord[];
	try {
		senders = await fetchSenders(ctx);
	} catch (error) {
		for (const c of live) {
			// A refused login would only be refused again by the campaign request.
			if (isLoginFailure(error)) {
				c.violations.push({ field: 'credential', message: (error as Error).message, itemIndex: c.items[0].itemIndex });
			} else {
				c.warnings.push(`Could not check the sender ID against the account's list: ${(error as Error).message}`);
			}
		}
		return;
	}
	const byName = new Map(senders.map((s) => [s.name, s]));
	for (const c of live) {
		const sender = byName.get(c.from);
		if (!sender) {
			const approved = senders.map((s) => s.name).join(', ') || 'none';
			c.violations.push({
				field: 'from',
				message: `Sender ID "${c.from}" is not approved on this account (approved: ${approved})`,
				itemIndex: c.items[0].itemIndex,
			});
		} else if (sender.type === 1 && c.toSend.some((r) => r.msisdn?.startsWith('353'))) {
			c.warnings.push(
				`Sender ID "${c.from}" is ${senderTypeLabel(1)}: the provider will not deliver it to the Irish (353) numbers in this campaign`,
			);
		}
	}
}

async function deliver(ctx: IExecuteFunctions, campaign: Campaign): Promise<Outcome> {
	const outcome: Outcome = {
		message: null,
		generalErrors: [],
		errorsByNumber: new Map(),
		requests: 0,
	};
	const batches = batchesOf(campaign.toSend, campaign.batchSize);
	if (campaign.dryRun) {
		const credentials = await ctx.getCredentials('phonovationApi');
		const url = `${trimSlash(credentials.baseUrl)}${CAMPAIGN_PATH}`;
		outcome.dryRunRequests = batches.map((batch) => ({
			method: 'POST',
			url,
			body: JSON.parse(requestBody(campaign, batch).toString('utf8')) as IDataObject,
		}));
		for (const r of campaign.toSend) {
			r.status = 'dry run';
			r.reason = 'not sent: dry run';
		}
		outcome.message = 'Dry run: nothing was sent';
		return outcome;
	}

	for (const [index, batch] of batches.entries()) {
		const where = batches.length > 1 ? ` (batch ${index + 1} of ${batches.length})` : '';
		let response: CampaignResponse | undefined;
		try {
			outcome.requests++;
			response = await apiRequest<CampaignResponse>(
				ctx,
				{
					method: 'POST',
					path: CAMPAIGN_PATH,
					body: requestBody(campaign, batch),
					timeoutMs: campaign.timeoutMs,
					itemIndex: campaign.items[0].itemIndex,
				},
				`the campaign${where}`,
			);
		} catch (error) {
			outcome.failure = error as Error;
		}
		if (!outcome.failure && response?.success !== true) {
			const said = [response?.message, ...(response?.errors ?? [])].filter(Boolean).join('; ');
			outcome.failure = new NodeOperationError(
				ctx.getNode(),
				`Phonovation did not accept the campaign${where}: ${said || 'success was not true'}`,
				{ itemIndex: campaign.items[0].itemIndex },
			);
		}
		if (outcome.failure || !response) {
			for (const later of batches.slice(index).flat()) {
				later.status = 'not sent';
				later.reason = `the campaign request failed${where}: ${outcome.failure?.message}`;
			}
			return outcome;
		}
		outcome.message = response.message ?? null;
		const providerErrors = response.errors ?? [];
		const sent = providerErrors.length ? new Set(batch.map((r) => r.msisdn)) : new Set<string | null>();
		for (const message of providerErrors) {
			const named = numbersNamedIn(message).filter((n) => sent.has(n));
			if (named.length === 0) outcome.generalErrors.push(message);
			for (const n of named) outcome.errorsByNumber.set(n, [...(outcome.errorsByNumber.get(n) ?? []), message]);
		}
		for (const r of batch) {
			const errors = outcome.errorsByNumber.get(r.msisdn!);
			r.status = errors ? 'rejected by provider' : 'accepted';
			r.reason = errors ? errors.join('; ') : null;
		}
	}
	return outcome;
}

/** How many of an item's recipients ended in each status, in one pass. */
function tally(recipients: Recipient[]): Record<Recipient['status'], number> {
	const counts: Record<Recipient['status'], number> = {
		pending: 0,
		accepted: 0,
		'rejected by provider': 0,
		invalid: 0,
		duplicate: 0,
		excluded: 0,
		'not sent': 0,
		'dry run': 0,
	};
	for (const r of recipients) counts[r.status]++;
	return counts;
}

/** What every item of one campaign reports the same way (one object, shared by its items). */
function campaignSummary(campaign: Campaign, analysis: TextAnalysis, outcome: Outcome): IDataObject {
	return {
		from: campaign.from,
		campaignName: campaign.campaignName || null,
		sendAt: campaign.sendAt,
		recipients: campaign.toSend.length,
		requests: campaign.dryRun ? (outcome.dryRunRequests?.length ?? 0) : outcome.requests,
		estimatedCredits: analysis.segments * campaign.toSend.length,
	};
}

function itemOutput(
	operation: string,
	campaign: Campaign,
	summary: IDataObject,
	item: ItemRequest,
	analysis: TextAnalysis,
	outcome: Outcome,
	isFirst: boolean,
): IDataObject {
	const counts = tally(item.recipients);
	const errors = [...outcome.generalErrors];
	if (outcome.errorsByNumber.size > 0) {
		for (const r of item.recipients) errors.push(...(outcome.errorsByNumber.get(r.msisdn ?? '') ?? []));
	}
	const json: IDataObject = {
		operation,
		success: !outcome.failure,
		dryRun: campaign.dryRun,
		campaign: summary,
		text: { ...analysis, estimatedCredits: analysis.segments * (counts.accepted + counts['dry run']) },
		recipients: item.recipients,
		counts: {
			accepted: counts.accepted,
			rejectedByProvider: counts['rejected by provider'],
			invalid: counts.invalid,
			duplicate: counts.duplicate,
			excluded: counts.excluded,
			notSent: counts['not sent'],
		},
		response: campaign.dryRun ? null : { success: !outcome.failure, message: outcome.message, errors },
		warnings: campaign.warnings,
	};
	if (campaign.dryRun) {
		json.requests = isFirst ? outcome.dryRunRequests : `see item ${campaign.items[0].itemIndex}`;
	}
	return json;
}

/** Send or schedule: merges items into campaigns, validates everything, then sends. */
export async function runCampaigns(ctx: IExecuteFunctions, scheduled: boolean): Promise<INodeExecutionData[][]> {
	const operation = scheduled ? 'schedule' : 'send';
	const now = new Date();
	const reader = new ParameterReader(ctx);
	const items = ctx.getInputData().map((_, i) => collectItem(ctx, reader, i, scheduled, now));
	const campaigns = groupIntoCampaigns(items);
	await checkSenders(ctx, campaigns);

	const out: INodeExecutionData[] = new Array(items.length);
	const invalid = campaigns.filter((c) => c.violations.length > 0);
	if (invalid.length > 0 && !ctx.continueOnFail()) throw violationError(ctx, invalid[0]);
	for (const campaign of invalid) {
		const error = violationError(ctx, campaign);
		for (const item of campaign.items) {
			out[item.itemIndex] = { json: { error: error.message }, error, pairedItem: { item: item.itemIndex } };
		}
	}

	let acceptedSoFar = 0;
	for (const campaign of campaigns.filter((c) => c.violations.length === 0)) {
		const analysis = analyseText(campaign.text);
		const outcome = await deliver(ctx, campaign);
		if (outcome.failure && !ctx.continueOnFail()) {
			const failure = outcome.failure as NodeOperationError;
			const earlier = acceptedSoFar + tally(campaign.toSend).accepted;
			if (earlier > 0) {
				failure.description = `${failure.description ? `${failure.description} ` : ''}Before this failure the provider had accepted ${earlier} recipient(s) of this run; they are not sent again.`;
			}
			throw failure;
		}
		acceptedSoFar += tally(campaign.toSend).accepted;
		const summary = campaignSummary(campaign, analysis, outcome);
		for (const [position, item] of campaign.items.entries()) {
			const unsent = item.recipients.some((r) => r.status === 'not sent');
			// n8n reduces error items to { error: message } and routes them to the error output.
			out[item.itemIndex] =
				outcome.failure && unsent
					? {
							json: { error: outcome.failure.message },
							error: outcome.failure as NodeOperationError,
							pairedItem: { item: item.itemIndex },
						}
					: {
							json: itemOutput(operation, campaign, summary, item, analysis, outcome, position === 0),
							pairedItem: { item: item.itemIndex },
						};
		}
	}
	return [out];
}
