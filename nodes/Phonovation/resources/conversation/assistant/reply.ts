// Reply: its fields, and its run: a text back to a person, from the longcode they texted, guarded.
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { optionsCollection } from '../../../../shared/optionsCollection';
import { asText, withinBounds } from '../../../../shared/values';
import { describeUnreadable, readExclusions } from '../../../domain/exclusions';
import { DEFAULT_COUNTRY_CODE, parseCountryCode } from '../../../domain/rules';
import { asNodeError } from '../../../eachItem';
import { TRANSACTIONAL } from '../../campaign/options';
import {
	beginCampaignRun,
	type CampaignRun,
	sendWorkedOutTexts,
} from '../../campaign/pipeline/sendOneText';
import { fetchSenders, type SenderRecord } from '../../sender/senders';
import { defaultCountryCodeField, excludeNumbersField } from '../../../numberFields';
import { NATIONAL_NUMBER, operationFields } from '../fields';
import { readNumber } from '../numbers';
import { questionLogField } from '../questionLog';
import {
	DEFAULT_DISCLOSURE,
	DISCLOSURE_AFTER_HOURS,
	disclosureDue,
	disclosureFits,
	withDisclosure,
} from './disclosure';
import { handoverLongcode, STAFF } from './handoverState';
import { logOnce, messagesOfPerson, runOf } from './messageLog';
import { type LoggedMessage, messageId } from './messages';
import { accountSendersOf } from './accountSenders';
import { type AccountSenders, addressRefusal, logRefusal } from './replyGuards';
import { cutToParts } from './replyText';
import { nodeMemory, remembered } from '../../../runMemory';
import type { Listing } from '../../../resourceFields';

export const REPLY_LIMITS = {
	perHour: { min: 1, max: 100, fallback: 10 },
	parts: { min: 1, max: 10, fallback: 2 },
} as const;

/** A whole-number option within its bounds. */
const bounded = (value: unknown, bounds: { min: number; max: number; fallback: number }) =>
	Math.floor(withinBounds(value, bounds));

export const description = operationFields('reply', [
	{
		...questionLogField,
		description:
			'The inbox workflow (imported once and published): it keeps each reply in its `messages` Data Table, for the replies-per-hour limit and so that no message is answered twice',
	},
	{
		displayName: 'To',
		name: 'recipients',
		type: 'string',
		required: true,
		default: '={{ $json.from }}',
		description: 'The person who texted (the trigger gives their number as from)',
	},
	{
		displayName: 'From Longcode',
		name: 'textedNumber',
		type: 'string',
		default: '={{ $json.unverified?.to }}',
		description:
			"The account's longcode the person texted (the trigger gives it as unverified.to). The reply goes from it only when it is a numeric sender of this account; otherwise nothing is sent. Empty in a Staff Reply: the longcode of the person's last hand-over.",
	},
	{
		displayName: 'Message',
		name: 'message',
		type: 'string',
		typeOptions: { rows: 3 },
		required: true,
		default: '',
		placeholder: 'Thanks, we have moved you to Friday at 10:00',
	},
	{
		displayName: 'Answers',
		name: 'answers',
		type: 'string',
		default: '={{ $json.turn ?? $json.relayKey ?? "" }}',
		description:
			'What the reply answers: the turn of Collect Burst, or the relay key of the trigger. A second reply to the same is not sent (a replayed relay, a retried workflow). Empty: not checked.',
	},
	optionsCollection([
		{
			displayName: 'AI Disclosure',
			name: 'aiDisclosure',
			type: 'string',
			typeOptions: { rows: 2 },
			default: DEFAULT_DISCLOSURE,
			description:
				'Put on a line of its own before the first reply to a person, and again after Disclose Again After (Hours) without a reply: the EU AI Act (Art. 50) asks that people are told they interact with an AI. Name your business and how to reach a person. Counted within Max Parts (the message is cut, never this). Empty: never said, and telling them is then yours to do.',
		},
		defaultCountryCodeField(NATIONAL_NUMBER),
		{
			displayName: 'Disclose Again After (Hours)',
			name: 'aiDisclosureAfterHours',
			type: 'number',
			typeOptions: {
				minValue: DISCLOSURE_AFTER_HOURS.min,
				maxValue: DISCLOSURE_AFTER_HOURS.max,
			},
			default: 24,
			description:
				'After this long without a reply to the person (1–24 hours), the next reply says it again',
		},
		excludeNumbersField('A reply to one is not sent, and its item says so.'),
		{
			displayName: 'Max Parts',
			name: 'maxParts',
			type: 'number',
			typeOptions: { minValue: REPLY_LIMITS.parts.min, maxValue: REPLY_LIMITS.parts.max },
			default: 2,
			description:
				'The most message parts a reply is paid as (160 GSM characters, or 70 with emoji or accents, a part; 153/67 each when more): a longer text is cut at a word and ends with "..."',
		},
		{
			displayName: 'Replies Per Hour',
			name: 'repliesPerHour',
			type: 'number',
			typeOptions: { minValue: REPLY_LIMITS.perHour.min, maxValue: REPLY_LIMITS.perHour.max },
			default: 10,
			description:
				'The most replies to one number in an hour: stops a loop with another bot or an auto-responder, and a drain from a leaked relay',
		},
		{
			displayName: 'Staff Reply',
			name: 'staffReply',
			type: 'boolean',
			default: false,
			description:
				"Whether a person of yours wrote this reply: it goes while the conversation is handed over to a person (where the assistant's replies do not), without the AI Disclosure, and the assistant sees it in the history after the hand-back. Every other guard holds.",
		},
	]),
] satisfies INodeProperties[]);

interface Sendable {
	itemIndex: number;
	from: string;
	to: string;
	text: string;
	/** Whether the AI Disclosure leads the text. */
	disclosed: boolean;
}

type Checked = Sendable | { itemIndex: number; notSent: IDataObject };

/** Exclude Numbers, read; a list that cannot be read may hide the very number (as a campaign's default). */
function excluded(
	ctx: IExecuteFunctions,
	itemIndex: number,
	options: IDataObject,
	countryCode: string,
): ReadonlySet<string> {
	const exclusions = readExclusions(options.excludeNumbers ?? '', countryCode);
	if (exclusions.unreadable.length > 0)
		throw new NodeOperationError(
			ctx.getNode(),
			`Exclude Numbers: item ${itemIndex} has ${exclusions.unreadable.length} entries that are no phone number (${exclusions.unreadable.map(describeUnreadable).slice(0, 3).join('; ')}); nothing was sent`,
			{ itemIndex },
		);
	return exclusions.numbers;
}

/** From Longcode; in a Staff Reply left empty, the longcode of the person's last hand-over. */
async function fromLongcode(
	ctx: IExecuteFunctions,
	itemIndex: number,
	{ to, staff }: { to: string | null; staff: boolean },
): Promise<string> {
	const from = asText(ctx.getNodeParameter('textedNumber', itemIndex, '')).trim();
	if (!staff || from !== '' || to === null) return from;
	return handoverLongcode(await messagesOfPerson(ctx, itemIndex, { phone: to, key: '' }), to);
}

/** One item's reply checked and logged, before anything is paid for; or why it is not sent. */
async function checked(
	ctx: IExecuteFunctions,
	itemIndex: number,
	account: AccountSenders,
): Promise<Checked> {
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const country = parseCountryCode(options.defaultCountryCode ?? DEFAULT_COUNTRY_CODE);
	if (!country.ok)
		throw new NodeOperationError(ctx.getNode(), `Default Country Code: ${country.problem}`, {
			itemIndex,
		});
	const writtenTo = asText(ctx.getNodeParameter('recipients', itemIndex, '')).trim();
	const staff = options.staffReply === true;
	const message = asText(ctx.getNodeParameter('message', itemIndex, ''));
	if (message.trim() === '')
		throw new NodeOperationError(ctx.getNode(), `Message: item ${itemIndex} has no text to send`, {
			itemIndex,
		});
	const to = readNumber(writtenTo, country.code);
	const from = await fromLongcode(ctx, itemIndex, { to, staff });
	const notSent = (reason: string) => ({
		itemIndex,
		notSent: { sent: false, to: to ?? writtenTo, reason },
	});
	if (staff && from === '' && to !== null)
		return notSent(
			'no longcode to reply from: this person was not handed over in the last day; set From Longcode',
		);
	const refused = addressRefusal({ writtenTo, to, from }, account);
	if (refused) return notSent(refused);
	if (excluded(ctx, itemIndex, options, country.code).has(to!))
		return notSent(`${to} is on Exclude Numbers (opted out): no reply goes to it`);

	const maxParts = bounded(options.maxParts, REPLY_LIMITS.parts);
	const disclosure = asText(options.aiDisclosure ?? DEFAULT_DISCLOSURE).trim();
	// Checked before anything is logged, whatever the message holds: the user's to fix.
	if (disclosure !== '' && !disclosureFits(disclosure, maxParts))
		throw new NodeOperationError(
			ctx.getNode(),
			`AI Disclosure: item ${itemIndex}'s disclosure leaves too little room for a reply within Max Parts (${maxParts}), counted for a reply with an emoji or accent (70 characters a part); shorten it or allow more parts. Nothing was sent`,
			{ itemIndex },
		);
	const plain = cutToParts(message, maxParts);
	const logged = { to: to!, text: plain, staff, options };
	const { refusal, due } = await loggedReply(ctx, itemIndex, logged);
	if (refusal) return notSent(refusal);
	const led =
		disclosure !== '' && due && !staff ? withDisclosure(disclosure, message, maxParts) : null;
	const disclosed = led !== null;
	const text = led ?? plain;
	return { itemIndex, from: from.replace(/^\+/, ''), to: to!, text, disclosed };
}

/**
 * Logs the reply before it is paid for; why it may not go, and whether the AI Disclosure is due,
 * seen with every reply logged for the person.
 */
async function loggedReply(
	ctx: IExecuteFunctions,
	itemIndex: number,
	{ to, text, staff, options }: { to: string; text: string; staff: boolean; options: IDataObject },
): Promise<{ refusal: string | null; due: boolean }> {
	const answers = asText(ctx.getNodeParameter('answers', itemIndex, '')).trim();
	const mine: LoggedMessage = {
		kind: 'out',
		phone: to,
		key: answers,
		text,
		at: new Date().toISOString(),
		arrivedAt: '',
		// Per node: a second Reply node answering the same turn is a second reply, refused. Retries
		// find this row again (logOnce).
		id: messageId('out', { ...runOf(ctx), nodeId: ctx.getNode().id }, itemIndex),
		// Staff's replies are marked so a hand-over never refuses them.
		turn: staff ? STAFF : answers,
		seq: null,
	};
	const { rows, logged } = await logOnce(ctx, itemIndex, mine, 'replyLogged');
	const afterMs = bounded(options.aiDisclosureAfterHours, DISCLOSURE_AFTER_HOURS) * 60 * 60 * 1000;
	return {
		refusal: logRefusal(rows, logged, bounded(options.repliesPerHour, REPLY_LIMITS.perHour)),
		due: disclosureDue(rows, logged, afterMs),
	};
}

/** What a run decided before posting: kept in the node's context, so every retry sends the same. */
interface ReplyPlan {
	sendable: Sendable[];
	notSent: Record<number, IDataObject>;
	/**
	 * Its texts go to the pipeline under their input item. A plan without it was made by an earlier
	 * version, which numbered them by their place among the replies sent, and so does its retry
	 * record: a Retry after an update must find what that attempt posted under the same numbers.
	 */
	byItem?: true;
}

/**
 * The run's plan, decided once: a retry (Retry On Fail, or a Retry of the failed execution, which
 * n8n gives the node's context) neither checks nor logs again, so the same items go in the same
 * order and the campaign pipeline's record finds what it posted. `senders`: the account's list,
 * when this attempt read it to decide (the pipeline's sender check then reads it from here).
 */
async function replyPlan(
	ctx: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<{ plan: ReplyPlan; run: CampaignRun; senders?: SenderRecord[] }> {
	const run = beginCampaignRun(ctx);
	const plans = remembered<ReplyPlan>(nodeMemory(ctx), 'replyPlans');
	if (plans[run.index]) return { plan: plans[run.index], run };
	const senders = await fetchSenders(ctx);
	const account = accountSendersOf(senders);
	const plan: ReplyPlan = { sendable: [], notSent: {}, byItem: true };
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const result = await checked(ctx, itemIndex, account);
			if ('notSent' in result) plan.notSent[itemIndex] = result.notSent;
			else plan.sendable.push(result);
		} catch (error) {
			if (!ctx.continueOnFail()) throw asNodeError(ctx, error, itemIndex);
			plan.notSent[itemIndex] = { error: error instanceof Error ? error.message : String(error) };
		}
	}
	plans[run.index] = plan;
	return { plan, run, senders };
}

/**
 * Texts each item's person back from the longcode they texted, through the campaign pipeline
 * (posted once under every retry, transactional). Before anything is paid for, a reply is not sent,
 * and its item says why, when it would go from a number that is not a longcode of the account, to
 * a shortcode or one of the account's own numbers, to an excluded (opted-out) number, a second time
 * to the same message, or over the replies-per-hour limit. The first reply to a person, and the
 * first after a silence, starts with the AI Disclosure (`disclosed: true`).
 */
export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const { plan, run, senders } = await replyPlan(this, items);
	const { sendable, notSent } = plan;
	const out: INodeExecutionData[] = items.map((_, itemIndex) => ({
		json: notSent[itemIndex] ?? {},
		pairedItem: { item: itemIndex },
	}));
	if (sendable.length > 0) {
		const numberOf = (itemIndex: number, place: number) => (plan.byItem ? itemIndex : place);
		const reports = await sendWorkedOutTexts(
			this,
			run,
			sendable.map(({ itemIndex, from, to, text }, place) => ({
				itemIndex: numberOf(itemIndex, place),
				from,
				text,
				recipients: `+${to}`,
			})),
			{ fixed: { ...TRANSACTIONAL, campaignName: 'Reply' }, senders },
		);
		sendable.forEach(({ itemIndex, disclosed }, place) => {
			const report = reports[numberOf(itemIndex, place)];
			// An error item (Continue On Fail) keeps its error.
			out[itemIndex] = {
				...report,
				json: { ...report.json, disclosed },
				pairedItem: { item: itemIndex },
			};
		});
	}
	return out;
}

/** How the Operation picker lists it. */
export const listing: Listing = [
	'Reply',
	'Text a person back from the longcode they texted, with limits against loops and drains',
	'Reply to a text',
	'docs/conversations.md#sms-assistant-before-going-live',
];
