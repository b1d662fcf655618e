import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { QUESTION_LOG, QuestionLog } from '../../../../../harness/question-log';
import { sharedFixture } from '../../../fixture';

const ANNA = '353871234567';
/** The simulator account's numeric longcode: the number people text. */
const LONGCODE = '353851234567';
const [TURN, HANDED_OVER] = [0, 1];

let relays = 0;
/** A verified Inbound Message item as the trigger puts it out. */
const inbound = (text: string): IDataObject => ({
	event: 'inbound',
	verified: true,
	from: ANNA,
	text,
	sessionId: `sms:${ANNA}`,
	relayKey: `key-${ANNA}${text}-${++relays}`,
	unverified: { to: LONGCODE, receivedAt: new Date().toISOString() },
});

describe('Hand Over: a person asks for a person, staff write from the longcode, the assistant stays quiet until handed back', () => {
	const fixture = sharedFixture();
	let log: QuestionLog;
	beforeAll(() => {
		log = new QuestionLog(fixture().engine);
	});
	beforeEach(() => log.clear());

	let executions = 0;
	const run = async (parameters: INodeParameters, item: IDataObject, node = {}) =>
		await fixture().run(
			{ resource: 'conversation', questionLog: QUESTION_LOG, ...parameters },
			[{ json: item }],
			node,
			{ executionId: `handover-${++executions}` },
		);
	const collect = async (text: string) =>
		await run({ operation: 'collectBurst', quietSeconds: 1 }, inbound(text));
	const reply = async (item: IDataObject, message: string, options: INodeParameters = {}) =>
		await run(
			{
				operation: 'reply',
				recipients: '={{ $json.from }}',
				textedNumber: '={{ $json.unverified?.to ?? "" }}',
				message,
				answers: '={{ $json.turn ?? "" }}',
				options,
			},
			item,
		);
	const posted = () => fixture().sim.campaigns.map((c) => c.body as IDataObject);

	it('"can I talk to a person" goes to staff, not the AI; staff reply from the longcode; after the hand-back the assistant sees it', async () => {
		const asked = await collect('can I talk to a person');
		expect(asked.outputs[TURN]).toEqual([]);
		expect(asked.outputs[HANDED_OVER][0].json).toMatchObject({
			from: ANNA,
			text: 'can I talk to a person',
			handedOver: { by: 'person', asked: true, longcode: LONGCODE },
		});

		// While handed over, their texts go to staff too, and an AI reply is not sent.
		const more = await collect('hello??');
		expect(more.outputs[TURN]).toEqual([]);
		expect(more.outputs[HANDED_OVER][0].json).toMatchObject({ handedOver: { asked: false } });
		const ai = await reply(more.outputs[HANDED_OVER][0].json, 'I can help with that!');
		expect(ai.items[0].json).toMatchObject({
			sent: false,
			reason: expect.stringMatching(/handed over to a person/),
		});
		expect(posted()).toHaveLength(0);

		// Staff reply to the number alone (From Longcode empty): from the longcode they texted, no AI disclosure.
		const staff = await run(
			{
				operation: 'reply',
				recipients: ANNA,
				textedNumber: '',
				message: 'Hi Anna, Mary here from reception.',
				answers: '',
				options: { staffReply: true },
			},
			{},
		);
		expect(staff.items[0].json).toMatchObject({ status: 'accepted', disclosed: false });
		expect(posted()).toEqual([
			expect.objectContaining({ from: LONGCODE, text: 'Hi Anna, Mary here from reception.' }),
		]);

		const back = await run(
			{ operation: 'handOver', handOverAction: 'handBack', recipients: ANNA },
			{},
		);
		expect(back.items[0].json).toMatchObject({ handedOver: false, phone: ANNA });

		// Handed back: a turn for the AI again, with the staff's reply in its history; the AI says it is one again.
		const next = await collect('thanks, and can I pay online?');
		expect(next.outputs[HANDED_OVER]).toEqual([]);
		const turn = next.outputs[TURN][0].json;
		expect(turn.historyText).toContain('Us: "Hi Anna, Mary here from reception."');
		expect(turn.historyText).not.toContain('I can help with that!');
		const answered = await reply(turn, 'Yes, on our website.');
		expect(answered.items[0].json).toMatchObject({ status: 'accepted', disclosed: true });
		expect(posted()).toHaveLength(2);
	});

	it("a hand-over made while answering a turn (the agent's tool call) lets the reply to that turn go, and refuses the next", async () => {
		const first = (await collect('my tooth is killing me')).outputs[TURN][0].json;
		const handed = await run(
			{
				operation: 'handOver',
				handOverAction: 'handOver',
				recipients: ANNA,
				textedNumber: LONGCODE,
				answers: String(first.turn),
			},
			{},
		);
		expect(handed.items[0].json).toMatchObject({ handedOver: true, by: 'staff' });
		const farewell = await reply(first, 'A colleague will text you in a minute.');
		expect(farewell.items[0].json).toMatchObject({ status: 'accepted' });
		const later = await collect('hello?');
		expect(later.outputs[TURN]).toEqual([]);
		const refused = await reply({ ...later.outputs[HANDED_OVER][0].json }, 'Anything else?');
		expect(refused.items[0].json).toMatchObject({ sent: false });
		expect(posted()).toHaveLength(1);
	});

	it('staff write the number as they say it (087…, 00353…): Hand Over and Hand Back read it as Staff Reply does', async () => {
		for (const written of ['087 123 4567', '00353871234567', '+353 87 123 4567']) {
			const over = await run(
				{
					operation: 'handOver',
					handOverAction: 'handOver',
					recipients: written,
					textedNumber: LONGCODE,
				},
				{},
			);
			expect(over.items[0].json).toMatchObject({ handedOver: true, phone: ANNA });
			const back = await run(
				{ operation: 'handOver', handOverAction: 'handBack', recipients: written },
				{},
			);
			expect(back.items[0].json).toMatchObject({ handedOver: false, phone: ANNA });
		}
		expect((await collect('still there?')).outputs[TURN]).toHaveLength(1);
	});

	it('a Staff Reply to a number never handed over needs its From Longcode, and says so; nothing is sent', async () => {
		const staff = await run(
			{
				operation: 'reply',
				recipients: ANNA,
				textedNumber: '',
				message: 'Hello from reception',
				answers: '',
				options: { staffReply: true },
			},
			{},
		);
		expect(staff.items[0].json).toMatchObject({
			sent: false,
			reason: expect.stringMatching(/no longcode to reply from.*set From Longcode/),
		});
		expect(posted()).toHaveLength(0);
	});

	it('a hand-over ends by itself after For (Hours)', async () => {
		log.seed({
			kind: 'handover',
			phone: ANNA,
			key: 'handover:old',
			text: JSON.stringify({
				until: new Date(Date.now() - 1_000).toISOString(),
				longcode: LONGCODE,
				by: 'person',
				answers: '',
			}),
			at: new Date(Date.now() - 3_600_000).toISOString(),
			id: 'handover:old',
		});
		const next = await collect('are you back?');
		expect(next.outputs[TURN]).toHaveLength(1);
	});

	it('Empty Hand-Over Words: nobody is handed over by what they text', async () => {
		const result = await run(
			{ operation: 'collectBurst', quietSeconds: 1, options: { handOverWords: '' } },
			inbound('can I talk to a person'),
		);
		expect(result.outputs[TURN]).toHaveLength(1);
		expect(log.messages.filter((row) => row.kind === 'handover')).toEqual([]);
	});

	it('Person that is no phone number is an error naming the field and item; nothing is logged', async () => {
		const result = await run(
			{ operation: 'handOver', handOverAction: 'handOver', recipients: 'Anna' },
			{},
		);
		expect(result.error?.message).toMatch(/Person: item 0 is no phone number/);
		expect(log.messages).toEqual([]);
	});
});
