// The campaign pipeline's core: plan the texts, check senders, post side by side, report each item.
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiUrl } from '../../../transport/request';
import { asNodeError } from '../../../eachItem';

import { applySenderCheck, checkSenders } from './checkSenders';
import type { Posting, PostingContext } from './posting';
import { postAll } from './dispatch';
import type { Ledger } from './ledger';
import {
	type CampaignOperation,
	ruleStopError,
	stoppedReports,
	stoppingError,
	violationError,
	writeStopped,
	writeReports,
} from './output';
import { Pacer, SYSTEM_CLOCK } from './pacer';
import { loadPace, savePace } from './rememberedPace';
import { planCampaigns } from './plan';
import { runSettings } from '../options';
import type { CampaignRun } from './campaignRun';
import type { TextRequest } from './textRequest';
import type { SenderRecord } from '../../sender/senders';
import { reportCampaign } from './report';
import { CAMPAIGN_PATH } from './requestBody';

export type { CampaignOperation } from './output';

/** What every posting of this run shares: the ledger, the pacer, the stop signal, the endpoint. */
async function postingContext(
	ctx: IExecuteFunctions,
	requests: TextRequest[],
	ledger: Ledger,
): Promise<PostingContext & { workers: number; adaptive: boolean }> {
	// Read from the first item: one pace for the whole run.
	const { settings, violations } = runSettings(requests[0]?.options ?? {});
	const { mostInFlight: ceiling, adaptivePace: adaptive } = settings;
	if (violations.length > 0) throw violationError(ctx, [{ ...violations[0], itemIndex: 0 }], 'run');
	const campaignUrl = await apiUrl(ctx, CAMPAIGN_PATH);
	const start = adaptive ? loadPace(ctx, campaignUrl, SYSTEM_CLOCK.now()) : undefined;
	return {
		ctx,
		ledger,
		pacer: new Pacer({ ceiling, adaptive }, SYSTEM_CLOCK, start),
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
 * The run as its operation began it, with what the operation knows already and the pipeline need
 * not ask again (Reply has read the sender list).
 */
export interface RunStart extends CampaignRun {
	senders?: SenderRecord[];
}

/**
 * The texts planned and their senders checked: nothing posted yet. The endpoint is resolved
 * first: a credential URL that may not be used stops the run before any request.
 */
async function preparedCampaigns(
	ctx: IExecuteFunctions,
	requests: TextRequest[],
	operation: CampaignOperation,
	{ ledger, senders }: RunStart,
) {
	// Retry On Fail calls the node again after a Stop or a Timeout: nothing more may go.
	if (ctx.getExecutionCancelSignal()?.aborted)
		throw new NodeOperationError(ctx.getNode(), 'The execution was stopped; nothing more was sent');
	// Planned as at the first attempt, so what it posted is reported rather than refused; each
	// request is judged against the clock again as it is posted (post.ts).
	const planned = planCampaigns(requests, {
		scheduled: operation === 'schedule',
		now: ledger.firstPlanned(new Date()),
		zone: ctx.getTimezone(),
	});
	const run = await postingContext(ctx, requests, ledger);
	const senderChecks = await checkSenders(ctx, planned, ledger, senders);
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
 * The texts of a run, one request per input item (in item order): plan (normalise, group, dedupe, validate) →
 * check senders → post the campaigns side by side → report per item. `run` is begun by the
 * operation (campaignRun.ts) before it reads anything.
 */
export async function runCampaigns(
	ctx: IExecuteFunctions,
	requests: TextRequest[],
	operation: CampaignOperation,
	run: RunStart,
): Promise<INodeExecutionData[]> {
	const prepared = await preparedCampaigns(ctx, requests, operation, run);
	const { ledger, plans } = prepared;
	const problem = plans.find((plan) => plan.violations.length > 0 || plan.rejected.length > 0);
	if (problem && !ctx.continueOnFail())
		throw ruleStopError({ ctx, ledger, operation }, plans, problem);
	// At each request's input item: a reply's request is the item it answers, not its place.
	const out: INodeExecutionData[] = new Array(requests.at(-1) ? requests.at(-1)!.itemIndex + 1 : 0);
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
