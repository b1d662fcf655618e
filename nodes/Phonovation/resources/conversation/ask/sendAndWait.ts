// Send and Wait for Reply: its fields, and its run: a question texted, the run paused until the answer comes.
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { optionsCollection } from '../../../../shared/optionsCollection';
import { asText } from '../../../../shared/values';
import { readSender, senderFields } from '../../sender/senderField';
import { canReceiveReplies } from '../../sender/senders';
import { operationFields, waitFields, waitOptions } from '../fields';
import { approvalWordsOf, codeLine, type ConversationOptions, wantsAnswerCode } from './answers';
import { answerCodeOf } from './answerCodes';
import { ApprovalReader, DEFAULT_NO_WORDS, DEFAULT_YES_WORDS } from './approvalWords';
import { ask, notSent, notSentReason, type Wait, type WaitLimits } from './ask';
import { pause } from './paused';
import { isHumanReviewType } from '../../../toolUse';
import type { Listing } from '../../../resourceFields';

/** A day: long enough for an appointment's confirmation, short enough that no run waits for ever. */
const DEFAULT_WAIT_MINUTES = 1440;

/** The longest wait n8n can be asked for here: a year, in minutes (0: no limit). */
const WAIT_LIMITS: WaitLimits = { min: 0, max: 525_600, fallback: DEFAULT_WAIT_MINUTES };

const responseTypeField: INodeProperties = {
	displayName: 'Response Type',
	name: 'responseType',
	type: 'options',
	required: true,
	default: 'approval',
	options: [
		{
			name: 'Approval',
			value: 'approval',
			description: 'A yes or a no texted back: the output says approved true or false',
		},
		{
			name: 'Free Text',
			value: 'freeText',
			description:
				'Any text texted back. Without the Answer Code option, a captured reply from the number, sent again with a new time stamp while a question waits, is taken as its answer.',
		},
	],
};

const replyOptions: INodeProperties[] = [
	{
		displayName: 'Answer Code',
		name: 'answerCode',
		type: 'boolean',
		default: false,
		description:
			'Whether the question ends with its own code ("Reply YES 4821 or NO 4821"; for Free Text "Start your reply with 4821") and only a reply carrying it answers, a STOP included, so a captured reply sent again can never answer a later question (on by default for the AI Agent\'s human review)',
	},
	...waitOptions('ask'),
	{
		displayName: 'Limit Wait Time (Minutes)',
		name: 'limitWaitTime',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: DEFAULT_WAIT_MINUTES,
		description:
			'After this many minutes without an answer the run goes on with answer "timedOut" (0: wait without a limit). n8n checks waiting runs once a minute.',
	},
	{
		displayName: 'No Words',
		name: 'noWords',
		type: 'string',
		default: DEFAULT_NO_WORDS.join(', '),
		description:
			'Replies that decline, comma-separated (Approval); case, accents and punctuation around them are ignored',
	},
	{
		displayName: 'Other Replies',
		name: 'otherReplies',
		type: 'options',
		default: 'keepWaiting',
		options: [
			{
				name: 'Keep Waiting',
				value: 'keepWaiting',
				description: 'A reply that is neither a yes nor a no word leaves the run waiting',
			},
			{
				name: 'Go On',
				value: 'goOn',
				description: 'The run goes on with approved: null and the text',
			},
		],
		description: 'What a reply that is no answer does (Approval)',
	},
	{
		displayName: 'Re-Prompt Text',
		name: 'repromptText',
		type: 'string',
		default: '',
		placeholder: 'Sorry, we did not get that. Please reply YES to confirm or NO to cancel.',
		description:
			'Handed to Deliver Reply (as reprompt) when a reply is no answer, for the inbox to text back (Approval); each one is a paid text. Empty: nothing is texted.',
	},
	{
		displayName: 'Yes Words',
		name: 'yesWords',
		type: 'string',
		default: DEFAULT_YES_WORDS.join(', '),
		description:
			'Replies that approve, comma-separated (Approval); case, accents and punctuation around them are ignored',
	},
];

const longcodeSender = senderFields(
	'A numeric longcode of your account that can receive replies (an alphanumeric sender cannot be answered)',
);

export const description = operationFields('sendAndWait', [
	// The paused item, read back when the answer comes, says what was asked, of whom and when.
	...waitFields(
		'ask',
		longcodeSender,
		'Reply YES to confirm your appointment tomorrow at 10:00, NO to cancel',
	),
	responseTypeField,
	optionsCollection(replyOptions),
]);

/** The characters of an AI Agent review message kept before its answer code. */
const REVIEW_TEXT_LIMIT = 280;

/** Send and Wait for Reply's part in the ask step (ask.ts). */
const REPLY: Wait<ConversationOptions> = {
	operation: 'Send and Wait for Reply',
	waitsFor: 'reply',
	notATool: "use it as the agent's human review, or in a workflow",
	review: true,
	once: 'asks one question',
	limits: WAIT_LIMITS,
	proves: 'that the answer came from the number asked',
	// n8n's node-signed URL: for the `sendAndWait` operation n8n checks it.
	resumeUrl: (ctx) => ctx.getSignedResumeUrl(),
	checkSender(ctx) {
		const from = asText(readSender(ctx, 0)).trim();
		if (!canReceiveReplies(from))
			throw notSent(
				ctx,
				`Sender: "${from}" cannot receive replies; choose a numeric longcode of your account`,
			);
	},
	checkOptions(ctx, options) {
		if (ctx.getNodeParameter('responseType', 0, 'approval') !== 'approval') return;
		try {
			new ApprovalReader(approvalWordsOf(options));
		} catch (error) {
			throw notSent(ctx, `Yes Words / No Words: ${(error as Error).message}`);
		}
	},
	answerCode: (ctx, options) => wantsAnswerCode(options, ctx.getNode().type),
	shapeText(ctx, { notifyId, secret, options }) {
		const type = ctx.getNode().type;
		const responseType = ctx.getNodeParameter('responseType', 0, 'approval') as string;
		const code = wantsAnswerCode(options, type) ? answerCodeOf(notifyId, secret) : null;
		return {
			textEnding: code === null ? undefined : codeLine(code, responseType),
			// n8n's review message holds the tool's whole input: a reviewer reads the start, in 2 parts.
			textLimit: isHumanReviewType(type) ? REVIEW_TEXT_LIMIT : undefined,
		};
	},
};

/** Excluded, refused by the provider…: nobody was asked, so there is nothing to wait for. */
function notAsked(
	ctx: IExecuteFunctions,
	msisdn: string,
	report: IDataObject,
): INodeExecutionData[] {
	const error = new NodeOperationError(
		ctx.getNode(),
		`Nothing was asked: ${msisdn} is ${notSentReason(report)}`,
		{ itemIndex: 0 },
	);
	if (!ctx.continueOnFail()) throw error;
	return [{ json: { error: error.message, details: report }, pairedItem: { item: 0 } }];
}

/**
 * Records one question in the Question Log, texts it to one number, then puts the execution to
 * wait until Deliver Reply brings the answer to this node's own resume URL (receiveReply.ts) or
 * Limit Wait Time passes. Every mistake is caught before the question is texted.
 */
export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const { state, waitTill, outcome } = await ask(this, items, REPLY);
	if (outcome.kind === 'error') return [outcome.item];
	if (outcome.kind === 'notSent') return notAsked(this, state.to, outcome.report);
	// n8n passes the paused item on unchanged when the limit passes: it says so.
	await pause(this, items[0], 'reply', {
		says: { timedOut: true, approved: null, text: null, answer: 'timedOut' },
		state,
		sent: outcome.report,
		until: waitTill,
	});
	return items;
}

/** How the Operation picker lists it. */
export const listing: Listing = [
	'Send and Wait for Reply',
	'Text a question and pause until the answer comes back',
	'Send a text and wait for the reply',
	'docs/conversations.md#send-and-wait-for-reply',
];
