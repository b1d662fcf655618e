// The ask step both waits share: the checks, the number, the wait limit, the secret, the log row, the one text.
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError, WAIT_INDEFINITELY } from 'n8n-workflow';

import { normaliseMsisdn } from '../../../domain/phoneNumbers';
import { parseCountryCode } from '../../../domain/rules';
import { asText } from '../../../../shared/values';
import {
	beginCampaignRun,
	type CampaignRun,
	oneTextMayHaveGone,
	type OneTextOutcome,
	sendOneText,
} from '../../campaign/pipeline/sendOneText';
import { QUESTION_PARAMETERS } from '../fields';
import { questionOf, VARIANTS } from '../proof/questionRef';
import { relaySecretOf } from '../proof/relaySecret';
import { recordedResumeUrl } from '../proof/retryBinding';
import { findQuestions, recordQuestion } from '../questionLog';
import {
	type CodeContext,
	codesHeld,
	earlierWithCode,
	variantsOf,
	withFreeCode,
} from './answerCodes';
import type { PausedState, WaitsFor } from './paused';
import { runsAsAiTool, runsAsHumanReview } from '../../../toolUse';
import { nodeMemory, remembered } from '../../../runMemory';

/**
 * What Send and Wait for Reply and Send and Wait for Delivery share: one text to one number,
 * checked before anything is sent, recorded in the Question Log before it is sent, with a Notify
 * ID of its own that every attempt keeps, sent once by the campaign pipeline (sendOneText.ts).
 */

/** The options both waits have (Send and Wait for Reply has more). */
export interface AskOptions {
	defaultCountryCode?: unknown;
	limitWaitTime?: unknown;
}

/** Limit Wait Time's range and default, in minutes; a range from 0 takes 0 as no limit. */
export interface WaitLimits {
	min: number;
	max: number;
	fallback: number;
}

/** One wait's part in the ask step: what sets it apart from the other. */
export interface Wait<Options extends AskOptions = AskOptions> {
	/** The operation's name, as its errors say it. */
	operation: string;
	waitsFor: WaitsFor;
	/** Why it cannot be an AI Agent's tool; `review`: the agent's human review (`…HitlTool`) may use it. */
	notATool: string;
	review?: boolean;
	/** What it does once per execution ("asks one question"). */
	once: string;
	limits: WaitLimits;
	/** What the Relay Secret proves of what comes back (the error says it when there is none). */
	proves: string;
	/** The node's own resume URL, as the Question Log row records it. */
	resumeUrl(ctx: IExecuteFunctions, secret: string): string;
	/** Its own fields' checks: the sender before the number is read, the options after. */
	checkSender?(ctx: IExecuteFunctions): void;
	checkOptions?(ctx: IExecuteFunctions, options: Options): void;
	/** Whether its text carries an answer code: one no other question waiting for the number holds. */
	answerCode?(ctx: IExecuteFunctions, options: Options): boolean;
	/** How its text ends and how much of it is kept (an answer code, a review message's length). */
	shapeText?(
		ctx: IExecuteFunctions,
		question: { notifyId: string; secret: string; options: Options },
	): { textEnding?: string; textLimit?: number };
}

/** What the ask step did: the text's state, from when and until when to wait, how the send went. */
export interface Asked {
	state: PausedState;
	now: Date;
	waitTill: Date;
	outcome: OneTextOutcome;
}

/** An error before anything was sent. */
export function notSent(ctx: IExecuteFunctions, message: string): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), message, {
		itemIndex: 0,
		description: 'Nothing was sent.',
	});
}

/** Why the pipeline did not send the text: its status, and the provider's reason if any. */
export const notSentReason = (report: IDataObject): string =>
	`${asText(report.status)}${report.reason ? `: ${asText(report.reason)}` : ''}`;

/** A wait is never an AI Agent's tool (but for the human review where allowed), and asks one item. */
function refuseMisuse(
	ctx: IExecuteFunctions,
	count: number,
	wait: Pick<Wait, 'operation' | 'notATool' | 'review' | 'once'>,
): void {
	if (runsAsAiTool(ctx) && !(wait.review === true && runsAsHumanReview(ctx)))
		throw notSent(ctx, `${wait.operation} cannot be an AI Agent's tool: ${wait.notATool}`);
	if (count !== 1)
		throw notSent(
			ctx,
			`${wait.operation} ${wait.once} per execution, and ${count} items came in: call a sub-workflow once per item (Execute Workflow, Mode: Run once for each item)`,
		);
}

/** The one number to text, in international digits, checked before anything is sent. */
function numberToText(ctx: IExecuteFunctions, defaultCountryCode: unknown): string {
	const country = parseCountryCode(defaultCountryCode);
	if (!country.ok) throw notSent(ctx, `Default Country Code ${country.problem}`);
	const to = asText(ctx.getNodeParameter(QUESTION_PARAMETERS.recipients, 0, '')).trim();
	const number = normaliseMsisdn(to, country.code);
	if (!number.ok) throw notSent(ctx, `To: "${to}" is not a phone number: ${number.reason}`);
	return number.msisdn;
}

/** Limit Wait Time as a moment: minutes from now (0, where the range allows it: never); else a mistake. */
function waitTillOf(ctx: IExecuteFunctions, given: unknown, limits: WaitLimits, at: Date): Date {
	const minutes = Number(given ?? limits.fallback);
	if (!Number.isFinite(minutes) || minutes < limits.min || minutes > limits.max) {
		const range = limits.min === 0 ? `from 0 (no limit)` : `from ${limits.min}`;
		throw notSent(
			ctx,
			`Limit Wait Time: must be a number of minutes ${range} to ${limits.max}, got "${asText(given)}"`,
		);
	}
	return minutes > 0 ? new Date(at.getTime() + minutes * 60_000) : WAIT_INDEFINITELY;
}

/** The Relay Secret, without which nothing that comes back could be proven: an error before sending. */
async function relaySecretFor(ctx: IExecuteFunctions, what: string): Promise<string> {
	const secret = await relaySecretOf(ctx);
	if (secret === '') throw notSent(ctx, `Credential: set a Relay Secret; it proves ${what}`);
	return secret;
}

/** A text this node's run has already sent (or begun to): its Notify ID, and when. */
interface SentBefore {
	notifyId: string;
	askedAt: string;
}

/**
 * The text of this run of the node, the same on every attempt once it may have gone. Retry On
 * Fail and an execution Retry (which carries the node's context over) find the one an earlier
 * attempt began with, so the retry record sees the same text to the same number, never sends it
 * again, and the log row is pointed at this execution's resume URL instead. While nothing was
 * sent, an attempt asks anew: the number may have been fixed, and the question is asked now.
 * A text that may have gone to another number (or from another node, under another Relay Secret)
 * is not this question: nothing is sent, and the error says so.
 */
async function textOfThisRun(
	ctx: IExecuteFunctions,
	question: { run: CampaignRun; msisdn: string; at: Date; answerCode: boolean },
	{ secret, variantsOfRun }: { secret: string; variantsOfRun: () => string[] },
): Promise<SentBefore> {
	const { msisdn } = question;
	const run = question.run.index;
	const runs = remembered<SentBefore>(nodeMemory(ctx), 'questions');
	const earlier = runs[run];
	const nodeId = ctx.getNode().id;
	if (earlier && oneTextMayHaveGone(question.run)) {
		if (questionOf(earlier.notifyId, { nodeId, msisdn }, secret) === null)
			throw notSent(
				ctx,
				`To: this run's question may already have gone out (its outcome is unknown) to another number than ${msisdn}, or from another node or under another Relay Secret, so a Retry does not ask again; start a new execution to ask ${msisdn}`,
			);
		return earlier;
	}
	const variants = variantsOfRun();
	const askedAt = question.at.toISOString();
	if (!question.answerCode) return (runs[run] = { notifyId: variants[0], askedAt });
	// Read before it is chosen: a reviewer with two requests open answers each by its own code.
	const waiting = await findQuestions(ctx, 0, msisdn, { reference: null });
	const codes = codeContext(msisdn, question.at, variants, secret);
	const notifyId = withFreeCode(variants, codesHeld(waiting, codes), secret, earlier?.notifyId);
	return (runs[run] = { notifyId, askedAt });
}

/**
 * The Notify IDs this run's question may take (variantsOf): all of them with an Answer Code, only
 * the first without (it needs no code of its own). An execution id too long is an error.
 */
function variantsOfThisRun(
	ctx: IExecuteFunctions,
	question: { msisdn: string; run: number; answerCode: boolean },
	secret: string,
): string[] {
	const { msisdn, run, answerCode } = question;
	const executionId = ctx.getExecutionId();
	const variants = variantsOf(
		{ executionId, nodeId: ctx.getNode().id, msisdn, ask: run },
		secret,
		answerCode ? VARIANTS : 1,
	);
	if (variants.length === 0)
		throw notSent(
			ctx,
			`This execution's id "${executionId}" is too long for a Notify ID the reply can carry`,
		);
	return variants;
}

const codeContext = (
	msisdn: string,
	at: Date,
	variants: string[],
	secret: string,
): CodeContext => ({
	msisdn,
	now: at.getTime(),
	secret,
	mine: new Set(variants),
});

/** How many times a question asked at the same moment as others gives way before it is texted. */
const YIELDS = 3;

/**
 * The question as recorded once its code is its own. Two questions asked to one number at the
 * same moment each chose a code before the other was logged, and may hold the same one: read
 * again once recorded, the later of them withdraws its row (it expires at once), takes another
 * code and is recorded again, all before anything is texted.
 */
async function withCodeOfItsOwn(
	ctx: IExecuteFunctions,
	asked: {
		run: CampaignRun;
		state: PausedState;
		record: (state: PausedState, until?: Date) => Promise<void>;
	},
	{ secret, variants }: { secret: string; variants: string[] },
): Promise<PausedState> {
	let { state } = asked;
	const codes = codeContext(state.to, new Date(state.at), variants, secret);
	for (let yielded = 0; yielded < YIELDS; yielded++) {
		const rows = await findQuestions(ctx, 0, state.to, { reference: null });
		const mine = { reference: state.notifyId, askedAt: state.at };
		if (earlierWithCode(rows, mine, codes) === undefined) break;
		const notifyId = withFreeCode(variants, codesHeld(rows, codes), secret);
		if (notifyId === state.notifyId) break;
		await asked.record(state, new Date(state.at));
		state = { ...state, notifyId };
		remembered<SentBefore>(nodeMemory(ctx), 'questions')[asked.run.index] = {
			notifyId,
			askedAt: state.at,
		};
		await asked.record(state);
	}
	return state;
}

/**
 * Records the text in the Question Log before it is sent: a question nobody could answer (a
 * receipt nobody could hand over) is never paid for.
 */
async function recordAsked(
	ctx: IExecuteFunctions,
	wait: Pick<Wait, 'waitsFor' | 'resumeUrl'>,
	text: { state: PausedState; waitTill: Date },
	secret: string,
): Promise<void> {
	const { state, waitTill } = text;
	const { notifyId: reference } = state;
	await recordQuestion(ctx, {
		reference,
		phone: state.to,
		resumeUrl: recordedResumeUrl(
			wait.resumeUrl(ctx, secret),
			{ reference, executionId: ctx.getExecutionId(), nodeId: ctx.getNode().id },
			secret,
		),
		askedAt: state.at,
		expiresAt: waitTill === WAIT_INDEFINITELY ? '' : waitTill.toISOString(),
		...(wait.waitsFor === 'receipt' ? { waitsFor: 'receipt' as const } : {}),
	});
}

/**
 * Asks: every mistake caught before anything is sent, the text recorded, then sent once through
 * the campaign pipeline (sender check, Exclude Numbers, retry record, unknown outcomes). n8n
 * resumes one waiting node per execution, so one item is asked.
 */
export async function ask<Options extends AskOptions>(
	ctx: IExecuteFunctions,
	items: INodeExecutionData[],
	wait: Wait<Options>,
): Promise<Asked> {
	// First, so a run that stops on a mistake leaves its record: a Retry after the fix sends.
	const run = beginCampaignRun(ctx);
	refuseMisuse(ctx, items.length, wait);
	const options = ctx.getNodeParameter('options', 0, {}) as unknown as Options;
	wait.checkSender?.(ctx);
	const msisdn = numberToText(ctx, options.defaultCountryCode);
	wait.checkOptions?.(ctx, options);
	const now = new Date();
	const waitTill = waitTillOf(ctx, options.limitWaitTime, wait.limits, now);
	const secret = await relaySecretFor(ctx, wait.proves);
	const answerCode = wait.answerCode?.(ctx, options) ?? false;
	const question = { run, msisdn, at: now, answerCode };
	// Chosen anew unless an earlier attempt's text may have gone: that one is never changed.
	const fresh = !oneTextMayHaveGone(run);
	// Made once, when first needed: a Retry of a text that may have gone needs none.
	let variants: string[] | undefined;
	const variantsOfRun = () =>
		(variants ??= variantsOfThisRun(ctx, { msisdn, run: run.index, answerCode }, secret));
	const { notifyId: first, askedAt } = await textOfThisRun(ctx, question, {
		secret,
		variantsOfRun,
	});
	const record = async (asked: PausedState, until = waitTill) =>
		await recordAsked(ctx, wait, { state: asked, waitTill: until }, secret);
	let state: PausedState = { to: msisdn, notifyId: first, at: askedAt };
	await record(state);
	if (answerCode && fresh)
		state = await withCodeOfItsOwn(
			ctx,
			{ run, state, record },
			{ secret, variants: variantsOfRun() },
		);
	const { notifyId } = state;
	const outcome = await sendOneText(ctx, items, {
		run,
		msisdn,
		notifyId,
		fields: QUESTION_PARAMETERS,
		...wait.shapeText?.(ctx, { notifyId, secret, options }),
	});
	return { state, now, waitTill, outcome };
}
