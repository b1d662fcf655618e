// Deliver Reply: its fields, and its run: a verified reply handed to the waiting question it answers.
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { asText, textOrNull } from '../../../shared/values';
import { deliverOperation, type Handed, triggerItemField } from './deliverEach';
import { operationFields } from './fields';
import { readNumber } from './numbers';
import type { ProofTarget } from './proof/proof';
import { firstNumberOf, type LoggedMessage, REPEAT } from './assistant/messages';
import { logMessage, seenRowOf } from './assistant/messageLog';
import { type DeliveredReply, relayMark, replyProof, signedTextMark } from './proof/replyProof';
import {
	answeredByText,
	earlierDeliveries,
	isAnswered,
	markSettled,
	TEXT_MARK,
} from './proof/settledRelays';
import { sharedCodeIn } from './ask/answerCodes';
import { assistantField, handToAssistant } from './handToAssistant';
import { honourOptIn } from './honourOptIn';
import { findQuestions, type LoggedQuestion, questionLogField } from './questionLog';
import { type Offer, offerInTurn, sortRows, type UnusableRow, unusableRowsOf } from './waitingRuns';
import type { Listing } from '../../resourceFields';

export const description = operationFields('deliverReply', [
	questionLogField,
	triggerItemField(
		'Reply',
		"The Phonovation Trigger's item for the reply (Inbound Message, Opt-Out or Opt-In): its from, text, event and verified, and unverified.receivedAt and unverified.notifyId. An unverified reply is never delivered; an opt-in answers no question and says optIn.honoured.",
	),
	assistantField,
]);

/** Pauses between tries when n8n cannot take the reply yet (still running) or fails (5xx, no answer). */
const RETRY = {
	pausesMs: [1_000, 2_000],
	failure: 'The asking run could not take the reply',
};

/**
 * The questions a reply may answer, in the order to try them: the question it is linked to first
 * (the provider links a reply to the last text to the number), then the number's other open
 * questions, newest first (a reply not linked, or linked to a reminder sent after the question).
 */
export function candidatesFor(
	questions: LoggedQuestion[],
	msisdn: string,
	linkedTo: string | null,
	now: number,
): LoggedQuestion[] {
	const mine = questions.filter((q) => q.phone === msisdn);
	const open = mine
		.filter((q) => q.reference !== linkedTo && (!q.expiresAt || !(Date.parse(q.expiresAt) <= now)))
		.sort((a, b) => Date.parse(b.askedAt) - Date.parse(a.askedAt) || 0);
	return [...mine.filter((q) => q.reference === linkedTo).slice(-1), ...open];
}

/**
 * The questions a reply is offered to, in order, each with the target the resume URL rule rebuilt,
 * and the rows the rule refused. Refused rows are set aside first: a forged row never hides the
 * genuine one it copies. A run waiting for a delivery receipt takes no reply.
 */
function offersFor(
	questions: LoggedQuestion[],
	msisdn: string,
	linkedTo: string | null,
	{ waitingBase, secret }: { waitingBase: string; secret: string },
): { offers: ReplyOffer[]; unusable: UnusableRow[] } {
	const forReplies = questions.filter((q) => q.waitsFor !== 'receipt');
	const { usable, unusable } = sortRows(forReplies, waitingBase, secret);
	const targets = new Map(usable.map(({ row, target }) => [row, target]));
	const candidates = candidatesFor([...targets.keys()], msisdn, linkedTo, Date.now());
	return { offers: candidates.map((row) => ({ row, target: targets.get(row)! })), unusable };
}

type ReplyOffer = Offer<LoggedQuestion>;

/**
 * Offers the reply to each usable candidate in turn; what became of it, for the item. The first
 * waiting question that reads it as its answer takes it; a refusal (not an answer, no code) is
 * reported when no other question takes it. An answer code two open questions share (asked at
 * once, so neither could avoid the other's) goes to neither: it could decide the wrong one.
 */
async function offerReply(
	ctx: IExecuteFunctions,
	itemIndex: number,
	candidates: ReplyOffer[],
	signed: { reply: DeliveredReply; secret: string },
): Promise<IDataObject> {
	const { reply, secret } = signed;
	const open = candidates.filter(({ row }) => !isAnswered(row)).map(({ row }) => row.reference);
	const shared = sharedCodeIn(reply.text, open, secret);
	if (shared)
		return {
			resumed: false,
			ambiguous: true,
			reason: `${shared.references.length} questions waiting for this number carry the code ${shared.code}, so the answer could decide the wrong one: it answers neither (each waits until its Limit Wait Time ends)`,
			question: { reference: shared.references[0] },
		};
	const prove = (about: ProofTarget) => replyProof(about, reply, secret);
	const answers = await offerInTurn(ctx, itemIndex, candidates, {
		fields: reply,
		prove,
		retry: RETRY,
	});
	const last = answers.at(-1);
	if (last?.posted.state === 'resumed')
		return { resumed: true, answer: last.posted.answer ?? null, question: last.about };
	// This run may have taken it as its answer: offered to another question, it could answer two.
	if (last?.posted.state === 'unconfirmed')
		return { resumed: false, unconfirmed: true, reason: last.posted.reason, question: last.about };
	for (const { posted, about } of answers) {
		if (posted.state !== 'refused') continue;
		const reprompt = posted.reprompt ? { reprompt: posted.reprompt } : {};
		return { resumed: false, reason: posted.reason, question: about, ...reprompt };
	}
	return {
		resumed: false,
		reason: candidates.length
			? 'no question to this number is waiting any more'
			: 'no question to this number is waiting',
	};
}

const alreadyAnswered = (reason: string, question: LoggedQuestion) => ({
	resumed: false,
	alreadyAnswered: true,
	reason,
	question: { reference: question.reference },
});

/**
 * Where a copy of a signed text that answered a question may go (a fresh time stamp, another Notify
 * ID): only to questions asked since that answer (the person's genuine second YES); within
 * REPEAT.windowMs of the answer, with none such, nowhere, as `alreadyAnswered`, so the inbox hands
 * it to no paid answer either.
 */
async function offerCopy(
	ctx: IExecuteFunctions,
	itemIndex: number,
	{ question, at }: { question: LoggedQuestion; at: number },
	{ offers, signed }: { offers: ReplyOffer[]; signed: { reply: DeliveredReply; secret: string } },
): Promise<IDataObject> {
	const newer = offers.filter(({ row }) => Date.parse(row.askedAt) >= at);
	if (newer.length === 0 && Date.now() - at < REPEAT.windowMs)
		return alreadyAnswered(
			'the same text from this number answered a question within the day and no question was asked since: a relay posted again goes nowhere paid',
			question,
		);
	return await offerReply(ctx, itemIndex, newer, signed);
}

/**
 * The reply offered as earlier deliveries of the same signed text allow. This very relay: not at
 * all once it answered a question (a replay, a retried inbox), only to the question it may have
 * answered when that delivery's outcome was unknown. A copy of it (offerCopy) under another number
 * (the From/Content boundary moved): nowhere. Else to every candidate in turn.
 */
async function offerOnce(
	ctx: IExecuteFunctions,
	itemIndex: number,
	{
		offers,
		questions,
		mark,
		textMark,
		from,
	}: {
		offers: ReplyOffer[];
		questions: LoggedQuestion[];
		mark: string;
		textMark: string;
		from: string;
	},
	signed: { reply: DeliveredReply; secret: string },
): Promise<IDataObject> {
	const { answered, mayHaveAnswered } = earlierDeliveries(questions, mark);
	if (answered) return alreadyAnswered('this relay already answered a question', answered);
	const copy = answeredByText(questions, textMark);
	if (copy && copy.question.phone !== from)
		return alreadyAnswered(
			'the same signed text answered a question of another number: a relay with its From/Content boundary moved answers nothing',
			copy.question,
		);
	// A copy of a delivery whose outcome was unknown goes where that delivery went, as it would.
	const maybe = mayHaveAnswered ?? (copy?.unconfirmed ? copy.question : undefined);
	if (!maybe)
		return copy
			? await offerCopy(ctx, itemIndex, copy, { offers, signed })
			: await offerReply(ctx, itemIndex, offers, signed);
	const { reference } = maybe;
	const same = offers.filter(({ row }) => row.reference === reference);
	const again = same.length > 0 ? await offerReply(ctx, itemIndex, same, signed) : undefined;
	if (again?.resumed === true || again?.unconfirmed === true) return again;
	return {
		resumed: false,
		unconfirmed: true,
		reason: `an earlier delivery of this relay may have answered its question (now: ${String(again?.reason ?? 'not in the log')}): it goes to no other`,
		question: { reference },
	};
}

/** The reply a trigger item reports (its number and text signed, its time and link not). */
function replyOf(item: IDataObject): DeliveredReply {
	const unverified = (item.unverified ?? {}) as IDataObject;
	return {
		from: asText(item.from),
		text: asText(item.text),
		receivedAt: textOrNull(unverified.receivedAt),
		optedOut: item.event === 'optOut',
		notifyId: textOrNull(unverified.notifyId),
	};
}

/** One trigger item's reply, offered to the questions of its number; the item says what became of it. */
async function deliverReply(
	ctx: IExecuteFunctions,
	{ itemIndex, item, out, secret, requireSecret, waitingBase }: Handed,
): Promise<INodeExecutionData[]> {
	if (item.verified !== true)
		return out({ resumed: false, reason: 'the reply was not verified by the Phonovation Trigger' });
	const reply = replyOf(item);
	const from = readNumber(reply.from);
	if (from === null) return out({ resumed: false, reason: 'the reply has no number to match' });
	const relay = seenRowOf(ctx, itemIndex, item, from);
	// An opt-in answers no question: it only asks to be texted again, once per signed text.
	if (item.event === 'optIn')
		return out({
			resumed: false,
			reason: 'an opt-in answers no question',
			...(await honourOptIn(ctx, itemIndex, relay)),
		});
	// With no Relay Secret nothing was ever marked, and no question can be answered.
	const textMark = secret === '' ? '' : signedTextMark(reply, secret);
	const seen = await seenFromAnotherNumber(ctx, itemIndex, relay);
	if (seen.replay === true) return out({ resumed: false, ...seen });
	const settled = textMark && `${TEXT_MARK}${textMark}@`;
	const questions = await findQuestions(ctx, itemIndex, from, {
		reference: reply.notifyId,
		settled,
	});
	if (questions.length > 0) requireSecret();
	const { offers, unusable } = offersFor(questions, from, reply.notifyId, { waitingBase, secret });
	const mark = relayMark(reply, secret);
	const signed = { reply, secret };
	const offered = { offers, questions, mark, textMark, from };
	const result = await offerOnce(ctx, itemIndex, offered, signed);
	const marked = await markSettled(ctx, itemIndex, result, { mark, textMark });
	return out({ ...result, ...marked, ...unusableRowsOf(unusable), ...seen });
}

/**
 * Keeps the relay as seen (every relay, whatever path it then takes: an opt-out, an answer, the
 * keyword answers, the assistant) and says whether its signed text (`relayKey`) was logged first
 * for another number: a copy with the From/Content boundary moved. Decided by the order the log
 * wrote the rows in, so racing copies agree. Such a copy answers no question and gets no paid
 * answer (`replay: true`). A log that gives back no row of the relay lets the item go on, saying so
 * (an inbox of another version is refused before: questionLog.ts).
 */
async function seenFromAnotherNumber(
	ctx: IExecuteFunctions,
	itemIndex: number,
	seen: LoggedMessage | null,
): Promise<IDataObject> {
	if (seen === null) return {};
	const rows = await logMessage(ctx, itemIndex, seen, 'seen');
	const first = firstNumberOf(rows, seen.key);
	if (first === undefined)
		return {
			relayNotLogged:
				'the Question Log gave back no row of the relay, so a copy of it under another number cannot be told',
		};
	return first === seen.phone
		? {}
		: {
				replay: true,
				reason:
					'the same signed text was logged first for another number: a relay with its From/Content boundary moved answers no question and gets no paid answer',
			};
}

/**
 * Finds the question a verified reply answers in the Question Log and posts the reply, with its
 * proof, to that question's resume URL (rebuilt by the resume URL rule; rows it refuses are listed
 * as `unusableRows`). The item goes on with `resumed` and, when it is false, the reason (no
 * question waiting, another number, not an answer yet…), so the reply can then be routed as an
 * ordinary inbound message; `unconfirmed: true` when a run may have taken it unseen;
 * `alreadyAnswered: true` when this very relay settled a question before (the log marks each);
 * `replay: true` when its signed text was logged first for another number (seenFromAnotherNumber).
 */
const deliverEach = deliverOperation(
	{
		label: 'Reply',
		notATool: 'only a verified reply may answer a question',
		events: { inbound: 'Inbound Message', optOut: 'Opt-Out', optIn: 'Opt-In' },
	},
	deliverReply,
);

/** Then each text no question took goes to the chosen Assistant, if any (handToAssistant.ts). */
export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await handToAssistant(this, await deliverEach.call(this, items));
}

/** How the Operation picker lists it. */
export const listing: Listing = [
	'Deliver Reply',
	'Hand a verified reply to the run that asked the question',
	'Deliver a reply to a waiting run',
	'docs/conversations.md#send-and-wait-for-reply',
];
