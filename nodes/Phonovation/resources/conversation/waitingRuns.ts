// Posting to a run that waits at its node's own resume URL, as Deliver Reply and Deliver Receipt do.
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { describeFailure } from '../../transport/failures';
import { mayHaveBeenProcessed } from '../../transport/processed';
import { asText } from '../../../shared/values';
import type { ProofTarget } from './proof/proof';
import { type LogRow, readResumeUrl, type ResumeTarget } from './proof/resumeUrl';

/**
 * Posting to a run that waits at its node's own signed resume URL (Send and Wait for Reply or for
 * Delivery), as Deliver Reply and Deliver Receipt do: only URLs rebuilt by the resume URL rule
 * (proof/resumeUrl.ts) are posted to, redirects are never followed, only the waiting node's own
 * `resumed: true` counts as success, and a delivery that may have been taken is never offered on.
 */

/** This n8n's waiting-webhook address (`…/webhook-waiting/`), from the run's own resume URL. */
export function waitingBaseOf(ctx: IExecuteFunctions): string {
	try {
		const url = new URL(asText(ctx.getWorkflowDataProxy(0).$execution.resumeUrl));
		// `<base>/<this execution>?signature=<token>`: the base is the path up to the last segment.
		url.pathname = url.pathname.replace(/[^/]*$/, '');
		url.search = '';
		url.hash = '';
		return url.toString();
	} catch {
		return '';
	}
}

/** A Question Log row the resume URL rule refused, as the output item lists it. */
export interface UnusableRow {
	reference: string;
	reason: string;
}

/** A Question Log row, with the target the resume URL rule rebuilt from it. */
export interface Offer<Row extends LogRow = LogRow> {
	row: Row;
	target: ResumeTarget;
}

/** Rows (in their order) split into those with a target to post to and those refused. */
export function sortRows<Row extends LogRow>(
	rows: Row[],
	waitingBase: string,
	secret: string,
): { usable: Array<Offer<Row>>; unusable: UnusableRow[] } {
	const usable: Array<Offer<Row>> = [];
	const unusable: UnusableRow[] = [];
	for (const row of rows) {
		const read = readResumeUrl(row, waitingBase, secret);
		if ('target' in read) usable.push({ row, target: read.target });
		else unusable.push({ reference: row.reference, reason: read.unusable });
	}
	return { usable, unusable };
}

/** What the item says of refused rows: nothing when there are none. */
export const unusableRowsOf = (unusable: UnusableRow[]): IDataObject =>
	unusable.length ? { unusableRows: unusable.map((row) => ({ ...row })) } : {};

/**
 * What became of a delivery. `unconfirmed`: the run may have taken it (a 5xx, no answer, a
 * redirect, an answer not of our node): it is reported, never offered to another run.
 */
export type Posted =
	| { state: 'resumed'; answer: unknown }
	| { state: 'refused'; status: number; reason: string; reprompt?: string }
	| { state: 'notWaiting'; status: number }
	| { state: 'unconfirmed'; reason: string };

/** One try, before retries: `notTaken` provably reached no run, `unknown` may have. */
type Attempt = Posted | { state: 'notTaken'; said: string } | { state: 'unknown'; said: string };

/** n8n's own page for a Send and Wait node whose run finished or waits elsewhere (200, HTML). */
const NO_ACTION_REQUIRED = /No action required/;

/** A waiting run's answer read strictly: only our node's JSON, or n8n's own refusals, are known. */
function readAnswer(status: number, body: unknown): Attempt {
	const answer = (body && typeof body === 'object' ? body : {}) as IDataObject;
	if (status >= 300 && status < 400)
		return {
			state: 'unconfirmed',
			reason: `the resume URL answered ${status}, a redirect (not followed)`,
		};
	if (status === 200 && answer.resumed === true) return { state: 'resumed', answer: answer.answer };
	if (status < 500 && answer.resumed === false && typeof answer.reason === 'string') {
		const reprompt = typeof answer.reprompt === 'string' ? answer.reprompt : undefined;
		return { state: 'refused', status, reason: answer.reason, reprompt };
	}
	const said = typeof answer.message === 'string' ? answer.message : `n8n answered ${status}`;
	// A 5xx can come after the run took it (a proxy's 502 in front of a resumed run).
	if (status >= 500) return { state: 'unknown', said };
	// The run is not saved as waiting yet: n8n refused before running anything.
	if (status === 409 && /running/i.test(said)) return { state: 'notTaken', said };
	if (status < 300 && !(typeof body === 'string' && NO_ACTION_REQUIRED.test(body)))
		return {
			state: 'unconfirmed',
			reason: `n8n answered ${status} without the waiting node's answer`,
		};
	// n8n's refusals (finished, waiting at another node, unknown, bad token): this wait is over.
	return { state: 'notWaiting', status };
}

/** One delivery to one waiting run: never a redirect followed, any status read. */
async function post(ctx: IExecuteFunctions, url: string, body: IDataObject): Promise<Attempt> {
	let response;
	try {
		response = await ctx.helpers.httpRequest({
			method: 'POST',
			url,
			body,
			json: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			disableFollowRedirect: true,
			timeout: 30_000,
		});
	} catch (error) {
		// processed.ts decides: only a connection that never opened provably carried nothing.
		const failure = describeFailure(error);
		const said = failure.message;
		return mayHaveBeenProcessed(failure) ? { state: 'unknown', said } : { state: 'notTaken', said };
	}
	return readAnswer(response.statusCode as number, response.body);
}

/**
 * Posts until the run answers for itself, pausing `pausesMs` between tries while n8n cannot take
 * it yet (still running, unreachable) or its answer was lost (5xx, no answer). Once a try may have
 * been taken, only `resumed` confirms it: a later "not waiting" may be that try's doing, so the
 * outcome is `unconfirmed`. It throws only when no try can have reached the run, so the inbox's
 * Retry On Fail (or its error) sees it.
 */
export async function postToWaitingRun(
	ctx: IExecuteFunctions,
	itemIndex: number,
	delivery: { target: ResumeTarget; body: IDataObject },
	retry: { pausesMs: readonly number[]; failure: string },
): Promise<Posted> {
	const { pausesMs } = retry;
	const { target, body } = delivery;
	let said = '';
	let unknown: string | undefined;
	for (let attempt = 0; attempt <= pausesMs.length; attempt++) {
		if (attempt > 0) await sleep(pausesMs[attempt - 1]);
		const posted = await post(ctx, target.url, body);
		if (posted.state === 'notTaken' || posted.state === 'unknown') {
			said = posted.said;
			if (posted.state === 'unknown') unknown = said;
			continue;
		}
		// After a try that may have been taken, a refusal or "not waiting" may be that try's doing.
		if (unknown !== undefined && (posted.state === 'refused' || posted.state === 'notWaiting')) {
			const then = posted.state === 'refused' ? posted.reason : 'no longer waiting';
			return {
				state: 'unconfirmed',
				reason: `${unknown}, then ${then}: the run may have taken it`,
			};
		}
		return posted;
	}
	const tries = pausesMs.length + 1;
	if (unknown !== undefined)
		return {
			state: 'unconfirmed',
			reason: `no answer of the run in ${tries} tries (${said}): it may have taken it`,
		};
	throw new NodeOperationError(ctx.getNode(), `${retry.failure}: ${said}`, {
		itemIndex,
		description: `Tried ${tries} times and none reached the waiting run (still running, or n8n could not be reached), so nothing was delivered. Set Retry On Fail on this node to deliver it again later.`,
	});
}

/** What is delivered: its fields, its proof for one run's question or text, how long to keep trying. */
export interface Delivery {
	fields: object;
	prove(about: ProofTarget): string;
	retry: { pausesMs: readonly number[]; failure: string };
}

/** A waiting run's answer, and the question or text (its Notify ID and its run) it was offered as. */
export interface Offered {
	posted: Posted;
	about: ProofTarget;
}

/**
 * Offers the delivery, with its proof, to each row's run in turn until one resumes or may have
 * taken it: no other is tried then, or it could be taken twice. Every answer, in order.
 */
export async function offerInTurn(
	ctx: IExecuteFunctions,
	itemIndex: number,
	offers: Offer[],
	delivery: Delivery,
): Promise<Offered[]> {
	const answers: Offered[] = [];
	for (const { row, target } of offers) {
		const about = { reference: row.reference, executionId: target.executionId };
		const body = { ...delivery.fields, proof: delivery.prove(about) };
		const posted = await postToWaitingRun(ctx, itemIndex, { target, body }, delivery.retry);
		answers.push({ posted, about });
		if (posted.state === 'resumed' || posted.state === 'unconfirmed') break;
	}
	return answers;
}
