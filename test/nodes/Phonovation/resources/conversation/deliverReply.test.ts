import type { IDataObject } from 'n8n-workflow';

import { answerCodeOf } from '../../../../../nodes/Phonovation/resources/conversation/ask/answerCodes';
import { signedTextMark } from '../../../../../nodes/Phonovation/resources/conversation/proof/replyProof';
import { QUESTION_LOG, QuestionLog } from '../../../../harness/question-log';
import {
	type Answer,
	referenceOf,
	useWaitingRuns,
	waitingQuestion,
} from '../../../../harness/waiting-runs';
import { sharedFixture } from '../../fixture';

const PHONE = '353871234567';
const RESUMED: Answer = { status: 200, body: { resumed: true, answer: 'yes' } };
const FINISHED: Answer = { status: 200, body: '<html>No action required</html>' };
const NOT_AN_ANSWER: Answer = {
	status: 202,
	body: { resumed: false, reason: 'not an answer: still waiting' },
};
const BUSY: Answer = { status: 503, body: { message: 'Service Unavailable' } };

/** A verified reply as the trigger gives it: its relayKey stands for the signed From + Content. */
const reply = (text: string, notifyId: string | null, extra: IDataObject = {}): IDataObject => {
	const relay = {
		event: 'inbound',
		verified: true,
		from: PHONE,
		text,
		unverified: { receivedAt: new Date().toISOString(), notifyId },
		...extra,
	};
	return { ...relay, relayKey: `signed-${String(relay.from)}${String(relay.text)}` };
};

/** A settled question's marks: the relay's (number, text, time stamp) and its signed text's, with when. */
const SETTLED_BY = /^[0-9a-f]{40} t:[0-9a-f]{40}@[0-9a-z]+$/;

describe('Deliver Reply: the answer reaches the question it answers, and only with a resumed run', () => {
	const fixture = sharedFixture();
	const runs = useWaitingRuns(() => fixture().engine);
	let log: QuestionLog;
	beforeAll(() => {
		log = new QuestionLog(fixture().engine);
	});
	beforeEach(() => log.clear());

	/** A question in the log: asked `minutesAgo`, open until `expiresIn` minutes from now. */
	function asked(executionId: string, minutesAgo: number, answer: Answer[], expiresIn = 60) {
		return waitingQuestion(log, runs, {
			executionId,
			phone: PHONE,
			secret: fixture().sim.config.relaySecret,
			answers: answer,
			row: {
				askedAt: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
				expiresAt: new Date(Date.now() + expiresIn * 60_000).toISOString(),
			},
		});
	}

	let executions = 0;
	/** Each relay in an execution of its own, as the inbox runs one per relay. */
	const deliver = async (item: IDataObject, node = {}) =>
		await fixture().run(
			{ resource: 'conversation', operation: 'deliverReply', questionLog: QUESTION_LOG },
			[{ json: item }],
			node,
			{ executionId: `inbox-${++executions}` },
		);

	it('a reply linked to a question goes to that question only', async () => {
		const older = asked('41', 30, [RESUMED]);
		asked('42', 10, [RESUMED]);
		const result = await deliver(reply('Yes', older));
		expect(runs.posts.map((p) => p.executionId)).toEqual(['41']);
		expect(result.items[0].json).toMatchObject({
			resumed: true,
			answer: 'yes',
			question: { reference: older, executionId: '41' },
			text: 'Yes',
		});
		expect(log.calls).toEqual([
			// Seen, by its signed text's key only (no text): which number a copy of it came from first.
			expect.objectContaining({
				action: 'seen',
				kind: 'seen',
				phone: PHONE,
				key: `signed-${PHONE}Yes`,
				text: '',
			}),
			// With the questions any copy of this signed text settled, whatever number they are for.
			{
				action: 'find',
				phone: PHONE,
				reference: older,
				settled: expect.stringMatching(/^t:[0-9a-f]{40}@$/),
			},
			// Read again just before it is marked: another relay may have marked it since.
			{ action: 'find', phone: '', reference: older },
			{ action: 'settle', reference: older, settledBy: expect.stringMatching(SETTLED_BY) },
		]);
	});

	it("the same relay again answers nothing more, even with a new question of the number open; the person's next YES does", async () => {
		const first = asked('41', 30, [RESUMED]);
		const relay = reply('YES', null);
		expect((await deliver(relay)).items[0].json).toMatchObject({ resumed: true });
		// The log keeps a mark of the relay, not its text.
		const mark = log.rows.get(first)!.settledBy;
		expect(mark).toMatch(SETTLED_BY);
		expect(JSON.stringify(log.rows.get(first))).not.toMatch(/YES/);

		asked('42', 0, [RESUMED]);
		const again = await deliver(relay);
		expect(again.items[0].json).toMatchObject({
			resumed: false,
			alreadyAnswered: true,
			reason: 'this relay already answered a question',
			question: { reference: first },
		});
		expect(runs.posts.map((p) => p.executionId)).toEqual(['41']);

		const later = {
			...relay,
			unverified: { receivedAt: new Date(Date.now() + 1000).toISOString(), notifyId: null },
		};
		expect((await deliver(later)).items[0].json).toMatchObject({
			resumed: true,
			question: { executionId: '42' },
		});
		expect(runs.posts.map((p) => p.executionId)).toEqual(['41', '42']);
	});

	it('the answer posted again with a fresh time stamp, or its From/Content boundary moved, answers nothing and goes nowhere paid', async () => {
		const first = asked('41', 30, [RESUMED]);
		const relay = reply('5 mins late', null);
		expect((await deliver(relay)).items[0].json).toMatchObject({ resumed: true });
		const fresh = {
			...relay,
			unverified: { receivedAt: new Date(Date.now() + 5_000).toISOString(), notifyId: null },
		};
		// A question of the number asked before the answer is still open: a copy must not take it either.
		asked('40', 60, [RESUMED]);
		const moved = { ...fresh, from: `${PHONE}5`, text: ' mins late' };
		// alreadyAnswered and replay: the inbox hands it neither to the assistant nor to its keyword answers.
		expect((await deliver(fresh)).items[0].json).toMatchObject({
			resumed: false,
			alreadyAnswered: true,
			question: { reference: first },
		});
		expect((await deliver(moved)).items[0].json).toMatchObject({ resumed: false, replay: true });
		expect(runs.posts.map((p) => p.executionId)).toEqual(['41']);
	});

	it('a copy of an answer whose delivery was unknown goes to that question only; under another number, nowhere', async () => {
		asked('41', 30, [BUSY, BUSY, BUSY, RESUMED]);
		const relay = reply('5 Yes', null);
		expect((await deliver(relay)).items[0].json).toMatchObject({ unconfirmed: true });
		asked('40', 60, [RESUMED]);
		const fresh = {
			...relay,
			unverified: { receivedAt: new Date(Date.now() + 5_000).toISOString(), notifyId: null },
		};
		const moved = { ...fresh, from: `${PHONE}5`, text: ' Yes' };
		expect((await deliver(moved)).items[0].json).toMatchObject({ replay: true });
		expect((await deliver(fresh)).items[0].json).toMatchObject({
			resumed: true,
			question: { executionId: '41' },
		});
		expect(runs.posts.map((p) => p.executionId)).toEqual(['41', '41', '41', '41']);
	}, 20_000);

	it('a text no question took, or an opt-out, posted again with its From/Content boundary moved is a replay: the inbox gives it no paid answer', async () => {
		// Nothing waits for the first: it goes on to the assistant or the keyword answers, as it should.
		const relay = reply('5 mins late', null);
		expect((await deliver(relay)).items[0].json).toMatchObject({ resumed: false });
		expect((await deliver(relay)).items[0].json).not.toHaveProperty('replay');
		asked('41', 30, [RESUMED]);
		const fresh = { receivedAt: new Date(Date.now() + 5_000).toISOString(), notifyId: null };
		// The number one digit longer, the text one shorter: the same signed string, another person.
		const moved = { ...relay, from: `${PHONE}5`, text: ' mins late', unverified: fresh };
		for (const copy of [moved, moved])
			expect((await deliver(copy)).items[0].json).toMatchObject({
				resumed: false,
				replay: true,
				reason: expect.stringMatching(/logged first for another number/),
			});
		// The person's own text again (a fresh time stamp): theirs to answer; the question takes it.
		expect((await deliver({ ...relay, unverified: fresh })).items[0].json).toMatchObject({
			resumed: true,
		});
		// An opt-out from a number one digit longer than this one, its last digit moved into the text:
		// a replay, though this number has a question open.
		asked('42', 5, [RESUMED]);
		const optOut = reply('STOP', null, { event: 'optOut', from: `${PHONE}8` });
		expect((await deliver(optOut)).items[0].json).not.toHaveProperty('replay');
		const stranger = reply('8STOP', null);
		expect((await deliver(stranger)).items[0].json).toMatchObject({ resumed: false, replay: true });
		expect(runs.posts.map((p) => p.executionId)).toEqual(['41']);
		// Copies add no rows: one per signed text and number, whatever the time stamps.
		for (const n of [1, 2, 3])
			await deliver({
				...moved,
				unverified: { receivedAt: new Date(Date.now() + n).toISOString() },
			});
		expect(log.messages.filter((row) => row.kind === 'seen')).toHaveLength(4);
	});

	it('a day after an answer, a copy of it still answers no question asked before that answer', async () => {
		const old = asked('40', 26 * 60, [RESUMED], 24 * 60);
		const answered = asked('41', 26 * 60, [RESUMED], 24 * 60);
		const relay = reply('YES', null);
		const mark = signedTextMark(
			{ from: PHONE, text: 'YES', receivedAt: null, optedOut: false, notifyId: null },
			fixture().sim.config.relaySecret,
		);
		const dayAgo = (Date.now() - 25 * 60 * 60_000).toString(36);
		log.rows.get(answered)!.settledBy = `${'0'.repeat(40)} t:${mark}@${dayAgo}`;
		const result = await deliver(relay);
		expect(result.items[0].json).toMatchObject({ resumed: false });
		expect(runs.posts).toEqual([]);
		expect(log.rows.get(old)!.settledBy).toBeUndefined();
	});

	it('a relay whose delivery may have answered (unconfirmed) goes again to that question only, and once it resumed it, nowhere', async () => {
		asked('41', 30, [BUSY, BUSY, BUSY, RESUMED]);
		const relay = reply('Yes', null);
		expect((await deliver(relay)).items[0].json).toMatchObject({ unconfirmed: true });
		asked('40', 60, [RESUMED]);
		expect((await deliver(relay)).items[0].json).toMatchObject({
			resumed: true,
			question: { executionId: '41' },
		});
		expect((await deliver(relay)).items[0].json).toMatchObject({ alreadyAnswered: true });
		expect(runs.posts.map((p) => p.executionId)).toEqual(['41', '41', '41', '41']);
	}, 20_000);

	it('a relay replayed as an opt-out or with another linked Notify ID is still the relay that answered', async () => {
		const first = asked('41', 30, [RESUMED]);
		const relay = reply('YES', first);
		expect((await deliver(relay)).items[0].json).toMatchObject({ resumed: true });
		asked('40', 60, [RESUMED]);
		for (const changed of [
			{ ...relay, event: 'optOut' },
			{ ...relay, unverified: { ...(relay.unverified as object), notifyId: null } },
		])
			expect((await deliver(changed)).items[0].json).toMatchObject({ alreadyAnswered: true });
		expect(runs.posts.map((p) => p.executionId)).toEqual(['41']);
	});

	it('a log without the settledBy column: the reply is delivered all the same, and the item says the mark was not kept', async () => {
		asked('41', 30, [RESUMED]);
		log.missingColumns = ['settledBy'];
		const result = await deliver(reply('YES', null));
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({
			resumed: true,
			notRemembered: expect.stringMatching(/settledBy/),
		});
	});

	it('an inbox of an earlier version: the reply is not delivered, and the error says to re-import the inbox', async () => {
		log.speaks = null;
		asked('41', 30, [RESUMED]);
		const result = await deliver(reply('YES', null));
		expect(result.error?.message).toMatch(
			/^Question Log: the workflow is an inbox of an earlier n8n-nodes-phonovation/,
		);
		expect(runs.posts).toEqual([]);
	});

	describe('an opt-in (START, UNSTOP, SUBSCRIBE): honoured once per signed text, and it answers no question', () => {
		const start = (text = 'START') => reply(text, null, { event: 'optIn', optInKeyword: text });

		it('the first START from a number is honoured, answers no waiting question and is kept as seen', async () => {
			asked('41', 30, [RESUMED]);
			const result = await deliver(start());
			expect(result.items[0].json).toMatchObject({
				resumed: false,
				optIn: { honoured: true, at: expect.any(String) },
			});
			expect(runs.posts).toEqual([]);
			expect(log.messages).toEqual([
				expect.objectContaining({ kind: 'seen', phone: PHONE, key: start().relayKey }),
			]);
		});

		it('the same START again (a copy posted with a fresh time stamp, or typed again) changes nothing, and says what to text instead', async () => {
			expect((await deliver(start())).items[0].json).toMatchObject({ optIn: { honoured: true } });
			for (const again of [start(), start()])
				expect((await deliver(again)).items[0].json).toMatchObject({
					optIn: {
						honoured: false,
						reason: expect.stringMatching(/came from this number before .*another start word/),
					},
				});
			// Another start word is another signed text: the person's own way back.
			expect((await deliver(start('UNSTOP'))).items[0].json).toMatchObject({
				optIn: { honoured: true },
			});
		});

		it("a START with its From/Content boundary moved changes nobody's opt-out, and a text moved from a START is a replay", async () => {
			const genuine = start();
			expect((await deliver(genuine)).items[0].json).toMatchObject({ optIn: { honoured: true } });
			// The same signed text under another number (the tests' numbers stand for any split).
			const moved = { ...genuine, from: `${PHONE}5`, text: 'TART' };
			expect((await deliver(moved)).items[0].json).toMatchObject({
				optIn: {
					honoured: false,
					reason: expect.stringMatching(/logged first for another number/),
				},
			});
			const asText = { ...moved, event: 'inbound' };
			expect((await deliver(asText)).items[0].json).toMatchObject({ replay: true });
		});

		it('a START moved from an earlier text of another number is no opt-in for this one', async () => {
			const text = reply('5START', null, { from: `${PHONE}5` });
			await deliver({ ...text, relayKey: 'signed-shared' });
			expect(
				(await deliver({ ...start(), relayKey: 'signed-shared' })).items[0].json,
			).toMatchObject({ optIn: { honoured: false } });
		});
	});

	it('a reply linked to a reminder sent after the question falls back to the newest open question of the number', async () => {
		asked('41', 30, [RESUMED]);
		asked('42', 10, [RESUMED]);
		asked('43', 5, [RESUMED], -1); // its wait is over
		const result = await deliver(reply('YES', 'reminder-2030-06-01'));
		expect(runs.posts.map((p) => p.executionId)).toEqual(['42']);
		expect(result.items[0].json).toMatchObject({ resumed: true });
	});

	it("n8n's page for a run no longer waiting is never a success: the next open question gets the reply", async () => {
		asked('41', 30, [RESUMED]);
		asked('42', 10, [FINISHED]);
		const result = await deliver(reply('YES', null));
		expect(runs.posts.map((p) => p.executionId)).toEqual(['42', '41']);
		expect(result.items[0].json).toMatchObject({ resumed: true, question: { executionId: '41' } });
	});

	it('a run that reads the reply and keeps waiting does not stop it: an older question that takes it as its answer gets it', async () => {
		asked('41', 30, [RESUMED]);
		asked('42', 10, [NOT_AN_ANSWER]);
		const result = await deliver(reply('YES 1111', null));
		expect(runs.posts.map((p) => p.executionId)).toEqual(['42', '41']);
		expect(result.items[0].json).toMatchObject({ resumed: true, question: { executionId: '41' } });
	});

	it('when no question takes it, the first refusal is the reason, with its Re-Prompt Text for the inbox', async () => {
		asked('41', 30, [NOT_AN_ANSWER]);
		asked('42', 10, [
			{
				status: 202,
				body: { ...(NOT_AN_ANSWER.body as object), reprompt: 'Please reply YES or NO' },
			},
		]);
		const result = await deliver(reply('What time?', null));
		expect(runs.posts.map((p) => p.executionId)).toEqual(['42', '41']);
		expect(result.items[0].json).toMatchObject({
			resumed: false,
			reason: 'not an answer: still waiting',
			question: { executionId: '42' },
			reprompt: 'Please reply YES or NO',
		});
	});

	/** Two executions whose questions to PHONE carry the same answer code, and that code. */
	function twoSharingACode(): { executions: [string, string]; code: string } {
		const secret = fixture().sim.config.relaySecret;
		const seen = new Map<string, string>();
		for (let execution = 100; ; execution++) {
			const code = answerCodeOf(referenceOf(String(execution), PHONE, secret), secret);
			const other = seen.get(code);
			if (other) return { executions: [other, String(execution)], code };
			seen.set(code, String(execution));
		}
	}

	it('an answer whose code two waiting questions share (asked at once) answers neither, and gets no paid answer', async () => {
		const { executions, code } = twoSharingACode();
		const older = asked(executions[0], 30, [RESUMED]);
		const newer = asked(executions[1], 10, [RESUMED]);
		const result = await deliver(reply(`YES ${code}`, null), {
			assistant: { __rl: true, mode: 'id', value: 'sms-assistant' },
		});
		expect(runs.posts).toEqual([]);
		expect(result.items[0].json).toMatchObject({
			resumed: false,
			ambiguous: true,
			reason: expect.stringContaining(`carry the code ${code}`),
			question: { reference: newer },
		});
		expect(result.items[0].json.handedToAssistant).toBeUndefined();
		// Once one of them is answered, the code is the other's alone.
		log.rows.get(older)!.settledBy = 'an-earlier-relay';
		const next = await deliver(reply(`YES ${code} please`, null));
		expect(runs.posts.map((p) => p.executionId)).toEqual([executions[1]]);
		expect(next.items[0].json).toMatchObject({ resumed: true, question: { reference: newer } });
	});

	it('a reply linked to a question that no longer waits goes on to the open ones', async () => {
		const answered = asked('42', 10, [FINISHED]);
		asked('41', 30, [RESUMED]);
		const result = await deliver(reply('Yes', answered));
		expect(runs.posts.map((p) => p.executionId)).toEqual(['42', '41']);
		expect(result.items[0].json).toMatchObject({ resumed: true, question: { executionId: '41' } });
	});

	it('retries a run that n8n cannot take yet (503); still failing, it is unconfirmed and offered to no other question', async () => {
		asked('41', 30, [BUSY, BUSY, RESUMED]);
		expect((await deliver(reply('Yes', null))).items[0].json).toMatchObject({ resumed: true });
		expect(runs.posts).toHaveLength(3);

		runs.posts.length = 0;
		runs.scripts.set('41', [BUSY]);
		asked('40', 60, [RESUMED]);
		// Another text: the same one again would be a copy of the answer 41 already took.
		const unknown = await deliver(reply('YES', null));
		expect(unknown.error).toBeUndefined();
		expect(unknown.items[0].json).toMatchObject({
			resumed: false,
			unconfirmed: true,
			question: { executionId: '41' },
		});
		expect(runs.posts.map((p) => p.executionId)).toEqual(['41', '41', '41']);
	}, 20_000);

	it('a run still running after three tries (409, nothing taken) fails the item so Retry On Fail can take over', async () => {
		asked('41', 30, [{ status: 409, body: { message: 'The execution "41" is running already.' } }]);
		asked('40', 60, [RESUMED]);
		const failed = await deliver(reply('Yes', null));
		expect(failed.error?.message).toMatch(/^The asking run could not take the reply: /);
		expect(runs.posts.map((p) => p.executionId)).toEqual(['41', '41', '41']);
	}, 20_000);

	it('a credential without a Relay Secret: an error that says so, nothing posted', async () => {
		asked('41', 30, [RESUMED]);
		const { engine } = fixture();
		const saved = engine.credentials.stored('cred-1');
		engine.credentials.set('cred-1', { ...saved, relaySecret: '' });
		try {
			const result = await deliver(reply('Yes', null));
			expect(result.error?.message).toBe(
				'Credential: set a Relay Secret; Deliver Reply proves with it what it hands to a waiting run',
			);
		} finally {
			engine.credentials.set('cred-1', saved);
		}
		expect(runs.posts).toEqual([]);
	});

	it('no question waiting, an unverified reply: resumed false with the reason, nothing posted', async () => {
		expect((await deliver(reply('Yes', null))).items[0].json).toMatchObject({
			resumed: false,
			reason: 'no question to this number is waiting',
		});
		asked('41', 30, [RESUMED]);
		const forged = await deliver(reply('Yes', null, { verified: false }));
		expect(forged.items[0].json).toMatchObject({
			resumed: false,
			reason: 'the reply was not verified by the Phonovation Trigger',
		});
		expect(runs.posts).toEqual([]);
	});

	it.each<[string, (url: string) => string]>([
		["the run's own URL", (url) => url.replace('/ask-node', '')],
		['another host', (url) => url.replace('127.0.0.1', 'localhost')],
	])(
		'a row whose resume URL is not a question node of this n8n (%s) gets neither reply nor proof',
		async (_case, change) => {
			const reference = asked('41', 30, [RESUMED]);
			log.rows.get(reference)!.resumeUrl = change(runs.url('41'));
			expect((await deliver(reply('Yes', reference))).items[0].json).toMatchObject({
				resumed: false,
			});
			expect(runs.posts).toEqual([]);
		},
	);
});
