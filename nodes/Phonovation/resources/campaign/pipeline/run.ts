// A Send or Schedule run: read, plan, check senders, post side by side, report each item.
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { apiUrl } from '../../../transport/request';
import { asNodeError } from '../../../eachItem';
import { refuseBlindRetry } from '../../../retriedBlind';

import { applySenderCheck, checkSenders } from './checkSenders';
import type { Posting, PostingContext } from './posting';
import { postAll } from './dispatch';
import { Ledger } from './ledger';
import {
	type CampaignOperation,
	ruleStopError,
	stoppedReports,
	stoppingError,
	violationError,
	writeStopped,
	writeReports,
} from './output';
import { Pacer } from './pacer';
import { loadPace, savePace } from './rememberedPace';
import { planCampaigns } from './plan';
import { runSettings } from '../options';
import {
	CAMPAIGN_PARAMETERS,
	type CampaignParameters,
	type ItemParameters,
	readParameters,
} from './readParameters';
import { reportCampaign } from './report';
import { CAMPAIGN_PATH } from './requestBody';
import { nodeMemory } from '../../../runMemory';

export type { CampaignOperation } from './output';

/** What every posting of this run shares: the ledger, the pacer, the stop signal, the endpoint. */
async function postingContext(
	ctx: IExecuteFunctions,
	parameters: ItemParameters[],
	ledger: Ledger,
): Promise<PostingContext & { workers: number; adaptive: boolean }> {
	// Read from the first item: one pace for the whole run.
	const { settings, violations } = runSettings(parameters[0]?.options ?? {});
	const { mostInFlight: ceiling, adaptivePace: adaptive } = settings;
	if (violations.length > 0) throw violationError(ctx, [{ ...violations[0], itemIndex: 0 }], 'run');
	const campaignUrl = await apiUrl(ctx, CAMPAIGN_PATH);
	const clock = { now: () => Date.now(), sleep };
	const start = adaptive ? loadPace(ctx, campaignUrl, clock.now()) : undefined;
	return {
		ctx,
		ledger,
		pacer: new Pacer({ ceiling, adaptive }, clock, start),
		stop: { requested: false },
		campaignUrl,
		workers: ceiling,
		adaptive,
	};
}

/**
 * Runs what posts and reports; an unexpected error there (a bug, an answer nobody foresaw) still
 * names every recipient the provider had accepted, so nobody re-runs the campaign blind.
 */
async function afterAcceptance<T>(
	ctx: IExecuteFunctions,
	ledger: Ledger,
	work: () => Promise<T>,
): Promise<T> {
	try {
		return await work();
	} catch (error) {
		const accepted = ledger.acceptedNumbers();
		if (accepted.length === 0) throw asNodeError(ctx, error);
		const failure = new NodeOperationError(
			ctx.getNode(),
			`The campaign could not be reported: ${(error as Error).message}`,
			{
				description: 'Nothing is posted again by a retry of this execution.',
			},
		);
		throw stoppingError(failure, accepted);
	}
}

/**
 * The run read, planned and its senders checked: nothing posted yet. Resolved first: a
 * credential URL that may not be used stops the run before any request.
 */
async function preparedCampaigns(
	ctx: IExecuteFunctions,
	items: INodeExecutionData[],
	operation: CampaignOperation,
	source: CampaignParameters,
) {
	const scheduled = operation === 'schedule';
	const runIndex = ctx.getWorkflowDataProxy(0).$runIndex;
	const ledger = new Ledger(nodeMemory(ctx), runIndex);
	refuseBlindRetry(ctx, ledger.started, runIndex);
	// Retry On Fail calls the node again after a Stop or a Timeout: nothing more may go.
	if (ctx.getExecutionCancelSignal()?.aborted)
		throw new NodeOperationError(ctx.getNode(), 'The execution was stopped; nothing more was sent');
	const parameters = readParameters(ctx, items, scheduled, source);
	// Planned as at the first attempt, so what it posted is reported rather than refused; each
	// request is judged against the clock again as it is posted (post.ts).
	const planned = planCampaigns(parameters, {
		scheduled,
		now: ledger.firstPlanned(new Date()),
		zone: ctx.getTimezone(),
	});
	const run = await postingContext(ctx, parameters, ledger);
	const senderChecks = await checkSenders(ctx, planned, ledger);
	const plans = planned.map((plan) => applySenderCheck(plan, senderChecks.get(plan)));
	const warnings = (index: number) => senderChecks.get(planned[index])?.warnings ?? [];
	return { ledger, run, plans, warnings };
}

type Prepared = Awaited<ReturnType<typeof preparedCampaigns>>;

/** Posts the plans without a violation, side by side, and reports each (pace saved either way). */
async function postedReports(
	ctx: IExecuteFunctions,
	{ ledger, run, plans, warnings }: Prepared,
	operation: CampaignOperation,
) {
	const sending = [...plans.keys()].filter(
		(i) => plans[i].violations.length === 0 && plans[i].items.length > 0,
	);
	const stopOnFailure = !ctx.continueOnFail();
	return await afterAcceptance(ctx, ledger, async () => {
		let postings: Posting[];
		try {
			postings = await postAll(
				run,
				sending.map((i) => plans[i]),
				{ workers: run.workers, stopOnFailure },
			);
		} finally {
			if (run.adaptive) savePace(ctx, run.campaignUrl, run.pacer.learned(), Date.now());
		}
		return sending.map((index, i) => ({
			posting: postings[i],
			report: postings[i] && reportCampaign(operation, plans[index], postings[i], warnings(index)),
		}));
	});
}

/**
 * Send or schedule, over all input items: read parameters → plan (normalise, group, dedupe,
 * validate) → check senders → post the campaigns side by side → report per item.
 */
export async function runCampaigns(
	ctx: IExecuteFunctions,
	items: INodeExecutionData[],
	operation: CampaignOperation,
	/** Which node parameters hold the sender, text and numbers, and options the operation sets itself. */
	source: CampaignParameters = CAMPAIGN_PARAMETERS,
): Promise<INodeExecutionData[]> {
	const prepared = await preparedCampaigns(ctx, items, operation, source);
	const { ledger, plans } = prepared;
	const problem = plans.find((plan) => plan.violations.length > 0 || plan.rejected.length > 0);
	if (problem && !ctx.continueOnFail())
		throw ruleStopError({ ctx, ledger, operation }, plans, problem);
	const out: INodeExecutionData[] = new Array(items.length);
	if (problem) writeStopped(stoppedReports({ ctx, ledger, operation }, plans), out);

	const reports = await postedReports(ctx, prepared, operation);
	const failed = reports.find((r) => r.posting?.failure)?.posting;
	if (failed?.failure && !ctx.continueOnFail()) {
		throw stoppingError(
			failed.failure.error,
			reports.flatMap((r) => r.report?.accepted ?? []),
		);
	}
	writeReports(reports, out);
	return out;
}
