import type { IDataObject, INode, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { QUESTION_LOG, QuestionLog } from '../../../../harness/question-log';
import { type Answer, useWaitingRuns, waitingQuestion } from '../../../../harness/waiting-runs';
import { sharedFixture } from '../../fixture';

const PHONE = '353871234567';
const ASSISTANT_ID = 'sms-assistant';
/** The assistant as the editor saves it when chosen from the list. */
const ASSISTANT = { __rl: true, mode: 'list', value: ASSISTANT_ID };
const RESUMED: Answer = { status: 200, body: { resumed: true, answer: 'yes' } };

/** A verified reply as the trigger gives it: its relayKey stands for the signed From + Content. */
const reply = (text: string, extra: IDataObject = {}): IDataObject => ({
	event: 'inbound',
	verified: true,
	from: PHONE,
	text,
	unverified: { receivedAt: new Date().toISOString(), notifyId: null },
	relayKey: `signed-${PHONE}${text}`,
	...extra,
});

describe('Deliver Reply: the texts no question took go to the assistant chosen in its Assistant field', () => {
	const fixture = sharedFixture();
	const runs = useWaitingRuns(() => fixture().engine);
	let log: QuestionLog;
	/** What each start of the assistant workflow was handed. */
	const handed: IDataObject[][] = [];
	beforeAll(() => {
		log = new QuestionLog(fixture().engine);
		fixture().engine.subWorkflows.set(ASSISTANT_ID, async (items: INodeExecutionData[]) => {
			handed.push(items.map((item) => item.json));
			return items;
		});
	});
	beforeEach(() => {
		log.clear();
		handed.length = 0;
	});

	/** A question to PHONE waiting in execution `executionId`, which answers with `answer`: its reference. */
	function asked(executionId: string, answer: Answer): string {
		const { relaySecret: secret } = fixture().sim.config;
		return waitingQuestion(log, runs, { executionId, phone: PHONE, secret, answers: [answer] });
	}

	let executions = 0;
	const deliver = async (
		items: IDataObject[],
		assistant: INodeParameters | string = ASSISTANT,
		node: Partial<INode> = {},
	) =>
		await fixture().run(
			{ resource: 'conversation', operation: 'deliverReply', questionLog: QUESTION_LOG, assistant },
			items.map((json) => ({ json })),
			node,
			{ executionId: `inbox-${++executions}` },
		);

	it('a text no question waits for is handed to the assistant once, and its item says so', async () => {
		const result = await deliver([reply('Are you open on Saturday?')]);
		expect(handed).toEqual([
			[expect.objectContaining({ text: 'Are you open on Saturday?', handedToAssistant: true })],
		]);
		expect(result.items[0].json).toMatchObject({ resumed: false, handedToAssistant: true });
	});

	it('an answer to a waiting question and an opt-out are not handed', async () => {
		const reference = asked('51', RESUMED);
		const result = await deliver([
			reply('Yes', { unverified: { receivedAt: new Date().toISOString(), notifyId: reference } }),
			reply('STOP', { event: 'optOut', from: '353871230000' }),
		]);
		expect(result.items.map((item) => item.json.resumed)).toEqual([true, false]);
		expect(handed).toEqual([]);
		expect(result.items.every((item) => item.json.handedToAssistant === undefined)).toBe(true);
	});

	it('a text a waiting question refused with its Re-Prompt Text is not handed: the inbox asks again', async () => {
		asked('52', {
			status: 202,
			body: {
				resumed: false,
				reason: 'not an answer: still waiting',
				reprompt: 'Reply YES or NO',
			},
		});
		const result = await deliver([reply('What time?')]);
		expect(result.items[0].json).toMatchObject({ resumed: false, reprompt: 'Reply YES or NO' });
		expect(handed).toEqual([]);
	});

	it('a copy of a relay whose signed text was logged first for another number is not handed', async () => {
		const moved = reply('Call me');
		log.seed({
			kind: 'seen',
			phone: '353871239999',
			key: moved.relayKey,
			text: '',
			at: new Date(Date.now() - 1_000).toISOString(),
			id: 'seen:earlier',
		});
		const result = await deliver([moved]);
		expect(result.items[0].json).toMatchObject({ replay: true });
		expect(handed).toEqual([]);
	});

	it('an unverified text is never handed, and its item says so: no keyword answer either', async () => {
		const result = await deliver([reply('Hello', { verified: false })]);
		expect(handed).toEqual([]);
		expect(result.items[0].json).toMatchObject({
			handedToAssistant: false,
			assistantError: expect.stringMatching(/not verified/),
		});
	});

	it('with no assistant chosen nothing is handed, and the items go on as before', async () => {
		const result = await deliver([reply('Are you open on Saturday?')], '');
		expect(handed).toEqual([]);
		expect(result.items[0].json.handedToAssistant).toBeUndefined();
	});

	it('an assistant that cannot be started fails the run naming the field, and says what to do', async () => {
		const result = await deliver([reply('Are you open on Saturday?')], {
			__rl: true,
			mode: 'list',
			value: 'deleted-workflow',
		});
		expect(result.error?.message).toMatch(
			/^Assistant: the workflow deleted-workflow could not be started/,
		);
		expect(result.error?.description).toMatch(/SMS assistant example/);
	});

	it('under Continue On Fail, an assistant that cannot be started leaves every item its outcome, and its texts say why', async () => {
		const reference = asked('53', RESUMED);
		const result = await deliver(
			[
				reply('Yes', { unverified: { receivedAt: new Date().toISOString(), notifyId: reference } }),
				reply('Are you open on Saturday?', { from: '353871230001' }),
			],
			{ __rl: true, mode: 'list', value: 'deleted-workflow' },
			{ onError: 'continueRegularOutput' },
		);
		expect(result.error).toBeUndefined();
		// The answer keeps what it did: the inbox must not give it a keyword reply.
		expect(result.items[0].json).toMatchObject({ resumed: true });
		expect(result.items[0].json.handedToAssistant).toBeUndefined();
		expect(result.items[1].json).toMatchObject({
			resumed: false,
			handedToAssistant: false,
			assistantError: expect.stringMatching(
				/^Assistant: the workflow deleted-workflow could not be started/,
			),
		});
	});
});
