// Collect Burst: its fields, and its run: the texts a person sends in a row become one turn, once.
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { asNodeError } from '../../../eachItem';
import { optionsCollection } from '../../../../shared/optionsCollection';
import { asText, withinBounds } from '../../../../shared/values';
import { itemOfParameter } from '../deliverEach';
import { operationFields } from '../fields';
import { readNumber } from '../numbers';
import { questionLogField } from '../questionLog';
import { accountSenders } from './accountSenders';
import { type BurstBounds, flushWords } from './burstBounds';
import {
	asksForPerson,
	DEFAULT_HANDOVER_WORDS,
	HANDOVER_HOURS,
	handedOverAt,
	handoverRow,
} from './handoverState';
import { HISTORY_SIZE, historyOf, historyText } from './history';
import { claimTurn, logOnce, messagesOfPerson, runOf } from './messageLog';
import { type AccountSenders, addressRefusal } from './replyGuards';
import {
	arrivalOf,
	type LoggedMessage,
	mergedRows,
	messageId,
	placesOf,
	providerStampOf,
	replayOf,
	settling,
	turnMessages,
} from './messages';
import { refuseAsAiTool } from '../../../toolUse';
import type { Listing } from '../../../resourceFields';

/**
 * Turn: one item per burst. Handed Over: the turn of a person who asked for a person, or whose
 * conversation is handed over (for staff, not the AI). No Turn: each other text's item, with why
 * (and errors, under Continue On Fail: the last output).
 */
export const outputNames = ['Turn', 'Handed Over', 'No Turn'] as const;

export const QUIET_SECONDS = { min: 1, max: 60, fallback: 5 } as const;
export const MAX_WAIT_SECONDS = { min: 1, max: 600, fallback: 60 } as const;
export const MAX_TEXTS = { min: 1, max: 100, fallback: 10 } as const;

export const description = operationFields('collectBurst', [
	{
		...questionLogField,
		description:
			'The inbox workflow (imported once and published): it keeps each text in its `messages` Data Table, so every run, on any worker, sees the burst',
	},
	{
		displayName: 'Inbound Message',
		name: 'inbound',
		type: 'json',
		required: true,
		default: '={{ $json }}',
		description:
			"The Phonovation Trigger's Inbound Message item (verified). An opt-out or an unverified message makes no turn.",
	},
	{
		displayName: 'Quiet Time (Seconds)',
		name: 'quietSeconds',
		type: 'number',
		typeOptions: { minValue: QUIET_SECONDS.min, maxValue: QUIET_SECONDS.max },
		default: 5,
		description:
			'How long the person must stay quiet before their texts so far become one turn (1–60 seconds). Each text waits this long; the last of the burst puts the turn out.',
	},
	{
		displayName: 'History Size',
		name: 'historySize',
		type: 'number',
		typeOptions: { minValue: HISTORY_SIZE.min, maxValue: HISTORY_SIZE.max },
		default: 10,
		description:
			"How many of the person's earlier texts and our replies (of the last day) the Turn carries as history and historyText, for the AI Agent's prompt: a memory that needs no store, the same on every worker and after a restart. 0: none.",
	},
	optionsCollection([
		{
			displayName: 'Flush Words',
			name: 'flushWords',
			type: 'string',
			default: '',
			placeholder: 'e.g. send, go, done',
			description:
				'Comma-separated words or phrases that put the turn out at once, without waiting for Quiet Time: the whole text must be one of them (any case; punctuation and emoji around it ignored, as for STOP)',
		},
		{
			displayName: 'Hand Over For (Hours)',
			name: 'handOverHours',
			type: 'number',
			typeOptions: { minValue: HANDOVER_HOURS.min, maxValue: HANDOVER_HOURS.max },
			default: 24,
			description:
				'How long a conversation stays with a person after they ask for one (1–24 hours), unless staff hand it back first (Hand Over → Hand Back)',
		},
		{
			displayName: 'Hand-Over Words',
			name: 'handOverWords',
			type: 'string',
			default: DEFAULT_HANDOVER_WORDS,
			description:
				"Comma-separated words or phrases: a turn that holds one (as whole words, any case) goes out on Handed Over instead of Turn, and the person's next turns too until the hand-over ends. Empty: never.",
		},
		{
			displayName: 'Max Texts',
			name: 'maxTexts',
			type: 'number',
			typeOptions: { minValue: MAX_TEXTS.min, maxValue: MAX_TEXTS.max },
			default: 10,
			description:
				'The most texts in one turn (1–100): the text that reaches it puts the turn out at once, and the next text starts a new turn',
		},
		{
			displayName: 'Max Wait (Seconds)',
			name: 'maxWaitSeconds',
			type: 'number',
			typeOptions: { minValue: MAX_WAIT_SECONDS.min, maxValue: MAX_WAIT_SECONDS.max },
			default: 60,
			description:
				"The longest a person who keeps texting waits for an answer (1–600 seconds, from the burst's first text): a text sent this long after the first starts a new turn, and the texts before it become a turn without waiting for Quiet Time",
		},
	]),
] satisfies INodeProperties[]);

/** Max Wait, Max Texts and Flush Words, within their bounds whatever the options say. */
function burstBounds(ctx: IExecuteFunctions): BurstBounds {
	const options = ctx.getNodeParameter('options', 0, {}) as IDataObject;
	return {
		maxWaitMs: withinBounds(options.maxWaitSeconds, MAX_WAIT_SECONDS) * 1000,
		maxTexts: Math.floor(withinBounds(options.maxTexts, MAX_TEXTS)),
		flushes: flushWords(asText(options.flushWords ?? '')),
	};
}

/** The history size, within its bounds whatever the parameter says. */
function historySize(ctx: IExecuteFunctions): number {
	const raw = Number(ctx.getNodeParameter('historySize', 0, HISTORY_SIZE.fallback));
	const size = Number.isFinite(raw) ? Math.floor(raw) : HISTORY_SIZE.fallback;
	return Math.min(HISTORY_SIZE.max, Math.max(HISTORY_SIZE.min, size));
}

/** The quiet time in ms, within its bounds whatever the parameter says. */
function quietMs(ctx: IExecuteFunctions): number {
	const raw = Number(ctx.getNodeParameter('quietSeconds', 0, QUIET_SECONDS.fallback));
	const seconds = Number.isFinite(raw) ? raw : QUIET_SECONDS.fallback;
	return Math.min(QUIET_SECONDS.max, Math.max(QUIET_SECONDS.min, seconds)) * 1000;
}

/** The value of `read`, asked for once whoever asks. */
const once = <T>(read: () => Promise<T>): (() => Promise<T>) => {
	let value: Promise<T> | undefined;
	return async () => await (value ??= read());
};

/** What every item's settling shares: quiet time, bounds, the account's senders (read once, when needed). */
interface Settings {
	quiet: number;
	bounds: BurstBounds;
	account: () => Promise<AccountSenders>;
}

interface Pending {
	itemIndex: number;
	item: IDataObject;
	mine: LoggedMessage;
	/** The person's rows when the text was logged. */
	rows: LoggedMessage[];
}

/** When a text reached n8n, or was logged when that is unknown. */
const sentAt = (row: LoggedMessage) => row.arrivedAt || row.at;

type Outcome = { turn: IDataObject } | { handedOver: IDataObject } | { noTurn: IDataObject };

const replayReason = (copy: LoggedMessage, mine: LoggedMessage) =>
	copy.phone !== mine.phone
		? `the same signed text came at ${copy.at} from another number: a relay with its From/Content boundary moved makes no turn`
		: `the same text from this number came at ${copy.at} and nothing was written to them since, or it came again too soon: a replayed relay makes no second turn`;

/** The inbound message of an item, logged; or why it makes no turn. */
async function logged(
	ctx: IExecuteFunctions,
	itemIndex: number,
	at: string,
): Promise<Pending | { noTurn: IDataObject }> {
	const item = itemOfParameter(ctx.getNodeParameter('inbound', itemIndex, {}));
	const event = asText(item.event);
	if (event === 'optOut')
		return { noTurn: { ...item, reason: 'an opt-out ends the conversation: no turn, no reply' } };
	if (event === 'optIn')
		return { noTurn: { ...item, reason: 'an opt-in is no text to answer: no turn, no reply' } };
	if (event !== 'inbound')
		throw new NodeOperationError(
			ctx.getNode(),
			`Inbound Message: item ${itemIndex} is not a Phonovation Trigger Inbound Message item (event "${event}"); set it to the trigger's item, e.g. {{ $('On Reply or Opt-Out').item.json }}`,
			{ itemIndex },
		);
	if (item.verified !== true)
		return {
			noTurn: { ...item, reason: 'the message was not verified by the Phonovation Trigger' },
		};
	const phone = readNumber(asText(item.from));
	if (phone === null) return { noTurn: { ...item, reason: 'the message has no phone number' } };
	const text = asText(item.text);
	const message: LoggedMessage = {
		kind: 'in',
		phone,
		key: asText(item.relayKey) || `${phone} ${text}`,
		text,
		at,
		arrivedAt: arrivalOf(item.arrivedAt, at),
		providerAt: providerStampOf(((item.unverified ?? {}) as IDataObject).receivedAt),
		id: messageId('in', runOf(ctx), itemIndex),
		turn: '',
		seq: null,
	};
	const { rows, logged: mine } = await logOnce(ctx, itemIndex, message, 'burstLogged');
	const copy = replayOf(rows, mine);
	if (copy) return { noTurn: { ...item, replayed: true, reason: replayReason(copy, mine) } };
	return { itemIndex, item, mine, rows };
}

/** After the quiet time: the turn, when this text was the burst's last; else why not. */
async function settled(
	ctx: IExecuteFunctions,
	{ itemIndex, item, mine }: Pending,
	{ quiet, bounds, account }: Settings,
): Promise<Outcome> {
	// Read again even when the text ends its burst at once: a copy of its relay logged beside it
	// is seen only once both are in.
	const rows = await messagesOfPerson(ctx, itemIndex, mine);
	const turn = `turn:${mine.id}`;
	const next = settling(rows, mine, quiet, bounds);
	if ('replayOf' in next)
		return { noTurn: { ...item, replayed: true, reason: replayReason(next.replayOf, mine) } };
	const size = historySize(ctx);
	if ('owed' in next)
		return await toPerson(
			ctx,
			itemIndex,
			turnOf(item, turnMessages(rows, turn), turn, { rows, size }),
			{ rows, account },
		);
	if ('merged' in next)
		return {
			noTurn: {
				...item,
				merged: true,
				reason:
					next.merged === 'later'
						? 'a later text of the burst puts the turn out'
						: 'another text of the burst was answered already (a busy n8n handed this one over late): one burst gets one reply, and this text goes with their next turn',
			},
		};
	const claimed = await claimTurn(ctx, itemIndex, { phone: mine.phone, turn, upTo: mine.at });
	const taken = turnMessages(mergedRows(claimed, rows), turn);
	if (!taken.some((row) => row.id === mine.id))
		return {
			noTurn: { ...item, merged: true, reason: 'another run took this text into its turn' },
		};
	const all = mergedRows(claimed, rows);
	return await toPerson(ctx, itemIndex, turnOf(item, taken, turn, { rows: all, size }), {
		rows: all,
		account,
	});
}

/**
 * The turn for a person instead of the AI when the conversation is handed over, or when the turn
 * asks for a person (Hand-Over Words): then it is handed over, logged once whatever the retries.
 * No turn at all when Reply could not answer from or to these numbers (not our longcode, one of our
 * own senders, a shortcode).
 */
async function toPerson(
	ctx: IExecuteFunctions,
	itemIndex: number,
	outcome: { turn: IDataObject },
	{ rows, account }: { rows: LoggedMessage[]; account: () => Promise<AccountSenders> },
): Promise<Outcome> {
	const { turn } = outcome;
	const phone = readNumber(asText(turn.from))!;
	// What Reply would refuse, refused before the model is asked: nobody would read its answer.
	const from = asText((turn.unverified as IDataObject | undefined)?.to);
	const refused = addressRefusal(
		{ writtenTo: asText(turn.from), to: phone, from },
		await account(),
	);
	if (refused) return { noTurn: { ...turn, reason: `${refused}: no turn, no model call` } };
	const now = new Date().toISOString();
	const current = handedOverAt(rows, { phone, at: now });
	if (current) return { handedOver: { ...turn, handedOver: { ...current, asked: false } } };
	const options = ctx.getNodeParameter('options', 0, {}) as IDataObject;
	const words = asText(options.handOverWords ?? DEFAULT_HANDOVER_WORDS);
	if (!asksForPerson(words)(asText(turn.text))) return outcome;
	const hours = withinBounds(options.handOverHours, HANDOVER_HOURS);
	const row = handoverRow(
		{ phone, at: now, id: messageId('handover', runOf(ctx), itemIndex) },
		{
			until: new Date(Date.parse(now) + hours * 3_600_000).toISOString(),
			longcode: asText((turn.unverified as IDataObject | undefined)?.to).replace(/^\+/, ''),
			by: 'person',
			answers: '',
		},
	);
	const { logged } = await logOnce(ctx, itemIndex, row, 'handoverLogged');
	const handover = handedOverAt([logged], { phone, at: now })!;
	return { handedOver: { ...turn, handedOver: { ...handover, asked: true } } };
}

/**
 * The Turn item: the trigger item with the turn's texts, in the order they reached n8n, and what
 * was said before it (history, historyText).
 */
function turnOf(
	item: IDataObject,
	taken: LoggedMessage[],
	turn: string,
	{ rows, size }: { rows: LoggedMessage[]; size: number },
): { turn: IDataObject } {
	const history = historyOf(rows, taken, size);
	return {
		turn: {
			...item,
			text: taken.map((row) => row.text).join('\n'),
			messages: taken.map((row) => ({ text: row.text, at: sentAt(row) })),
			count: taken.length,
			firstAt: sentAt(taken[0]),
			lastAt: sentAt(taken[taken.length - 1]),
			turn,
			history: history.map((exchange) => ({ ...exchange })),
			historyText: historyText(history),
		},
	};
}

/**
 * Logs each inbound text, waits the quiet time once for all items (not at all when each ends its
 * burst at once), then puts out one Turn item per burst: the run of the burst's last text takes
 * every text of the person no turn has taken yet. A burst ends after Quiet Time without a text,
 * at Max Wait from its first text, at Max Texts, or at a flush word.
 * Every other text's item leaves by No Turn with `merged` or `replayed` and the reason.
 */
export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[][]> {
	refuseAsAiTool(this, 'Collect Burst', 'it reads what people texted, from the trigger');
	const [turns, toStaff, noTurns]: INodeExecutionData[][] = [[], [], []];
	const put = (itemIndex: number, outcome: Outcome) => {
		const [output, json] =
			'turn' in outcome
				? [turns, outcome.turn]
				: 'handedOver' in outcome
					? [toStaff, outcome.handedOver]
					: [noTurns, outcome.noTurn];
		output.push({ json, pairedItem: { item: itemIndex } });
	};
	const failed = (itemIndex: number, error: unknown) => {
		if (!this.continueOnFail()) throw asNodeError(this, error, itemIndex);
		const json = { error: error instanceof Error ? error.message : String(error) };
		noTurns.push({ json, pairedItem: { item: itemIndex } });
	};

	const pending: Pending[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const result = await logged(this, itemIndex, new Date().toISOString());
			if ('noTurn' in result) put(itemIndex, result);
			else pending.push(result);
		} catch (error) {
			failed(itemIndex, error);
		}
	}
	const quiet = quietMs(this);
	const bounds = burstBounds(this);
	// A flush word, or the Max Texts-th text, ends its burst as soon as it is logged.
	const waited = pending.some(
		({ rows, mine }) => !placesOf(rows, mine, { quietMs: quiet, bounds }).get(mine.id)?.endsAtOnce,
	);
	if (waited) await sleep(quiet);
	const account = once(async () => await accountSenders(this));
	for (const one of pending) {
		try {
			put(one.itemIndex, await settled(this, one, { quiet, bounds, account }));
		} catch (error) {
			failed(one.itemIndex, error);
		}
	}
	return [turns, toStaff, noTurns];
}

/** How the Operation picker lists it. */
export const listing: Listing = [
	'Collect Burst',
	'Wait until a person stops texting, then put out their texts as one turn (for an AI assistant)',
	'Collect a burst of texts into one turn',
	'docs/conversations.md#sms-assistant-before-going-live',
];
