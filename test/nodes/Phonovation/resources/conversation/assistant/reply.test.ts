import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { NodeRunResult } from '../../../../../harness/engine';
import { QUESTION_LOG, QuestionLog } from '../../../../../harness/question-log';
import { DEFAULT_DISCLOSURE } from '../../../../../../nodes/Phonovation/resources/conversation/assistant/disclosure';
import { sharedFixture } from '../../../fixture';

const ANNA = '353871234567';
/** The simulator account's numeric longcode: the number people text. */
const LONGCODE = '353851234567';
const CAMPAIGN = '/api/v2/Campaign';

/** A turn as Collect Burst puts it out (the trigger's item, the burst's text and its turn). */
const turn = (n: number, extra: IDataObject = {}): IDataObject => ({
	event: 'inbound',
	verified: true,
	from: ANNA,
	text: 'Hi\nmove me to Friday',
	sessionId: `sms:${ANNA}`,
	turn: `turn:${n}`,
	unverified: { to: LONGCODE },
	...extra,
});

describe('Reply: a text back from the longcode the person texted, with the guards an assistant needs', () => {
	const fixture = sharedFixture();
	let log: QuestionLog;
	beforeAll(() => {
		log = new QuestionLog(fixture().engine);
	});
	beforeEach(() => log.clear());

	let executions = 0;
	/** One execution of Reply over the item (or items); `retryOf` is the failed one a Retry follows. */
	const reply = async (
		item: IDataObject | IDataObject[],
		parameters: INodeParameters = {},
		node = {},
		executionId = `reply-${++executions}`,
		retryOf?: NodeRunResult,
	) =>
		await fixture().run(
			{
				resource: 'conversation',
				operation: 'reply',
				questionLog: QUESTION_LOG,
				recipients: '={{ $json.from }}',
				textedNumber: '={{ $json.unverified?.to }}',
				message: 'Done: you are booked for Friday at 10:00.',
				answers: '={{ $json.turn ?? $json.relayKey ?? "" }}',
				...parameters,
			},
			(Array.isArray(item) ? item : [item]).map((json) => ({ json })),
			node,
			retryOf
				? { executionId, mode: 'retry', contextData: retryOf.run.data.executionData!.contextData }
				: { executionId },
		);
	const posted = () => fixture().sim.campaigns.map((c) => c.body as IDataObject);

	it('texts the person from the longcode they texted, transactional, and logs the reply', async () => {
		const result = await reply(turn(1));
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ status: 'accepted', disclosed: true });
		expect(posted()).toHaveLength(1);
		// The first reply to the person says it is an AI, on a line of its own.
		expect(posted()[0]).toMatchObject({
			from: LONGCODE,
			text: `${DEFAULT_DISCLOSURE}\nDone: you are booked for Friday at 10:00.`,
		});
		expect(JSON.stringify(posted()[0])).toContain(ANNA);
		expect(log.messages).toMatchObject([{ kind: 'out', phone: ANNA, key: 'turn:1' }]);
	});

	it("reads the account's sender list once per run: its guards and the campaign's sender check share it", async () => {
		const before = fixture().sim.count('GET', '/api/v2/senderlist');
		const result = await reply([turn(1), turn(2, { from: '353871234568' })]);
		expect(result.items.map((i) => i.json.status)).toEqual(['accepted', 'accepted']);
		expect(fixture().sim.count('GET', '/api/v2/senderlist') - before).toBe(1);
	});

	it.each([
		[
			'an unsigned SMS-To that is no sender of the account',
			{ unverified: { to: '353899999999' } },
			/not a numeric sender/,
		],
		[
			'an alphanumeric sender of the account',
			{ unverified: { to: 'Phonovation' } },
			/not a numeric sender/,
		],
		['no SMS-To at all', { unverified: {} }, /no number to reply from/],
		['a shortcode', { from: '50123' }, /shortcode/],
		["one of the account's own numbers (a loop)", { from: LONGCODE }, /own senders/],
	])('sends nothing from or to %s, and says why', async (_case, change, reason) => {
		const result = await reply(turn(2, change));
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({
			sent: false,
			reason: expect.stringMatching(reason),
		});
		expect(fixture().sim.requests.filter((r) => r.path === CAMPAIGN)).toHaveLength(0);
	});

	it('sends nothing to a number on Exclude Numbers (a STOP stored by the inbox)', async () => {
		const result = await reply(turn(3), { options: { excludeNumbers: '087 123 4567' } });
		expect(result.items[0].json).toMatchObject({
			sent: false,
			reason: expect.stringMatching(/opted out/),
		});
		expect(posted()).toHaveLength(0);
		expect(log.messages).toEqual([]);
	});

	it('answers a turn once: the same turn again (a replayed relay, a re-run) sends nothing', async () => {
		await reply(turn(4));
		const again = await reply(turn(4));
		expect(again.items[0].json).toMatchObject({
			sent: false,
			reason: expect.stringMatching(/already answered/),
		});
		expect(posted()).toHaveLength(1);
	});

	it('stops at the replies-per-hour limit: a loop with another bot gets three replies, not thirty', async () => {
		const results = [];
		for (let n = 0; n < 6; n++)
			results.push(await reply(turn(100 + n), { options: { repliesPerHour: 3 } }));
		expect(results.map((r) => r.items[0].json.sent !== false)).toEqual([
			true,
			true,
			true,
			false,
			false,
			false,
		]);
		expect(results[3].items[0].json.reason).toMatch(/limit of 3 replies per hour/);
		expect(posted()).toHaveLength(3);
	});

	it("counts the replies of runs that also logged the person's text (Collect Burst and Reply in one execution)", async () => {
		const f = fixture();
		const results = [];
		for (let n = 0; n < 4; n++) {
			const executionId = `assistant-${n}`;
			const collected = await f.run(
				{
					resource: 'conversation',
					operation: 'collectBurst',
					questionLog: QUESTION_LOG,
					quietSeconds: 1,
				},
				[{ json: { ...turn(200 + n), relayKey: `key-${n}`, text: `text ${n}` } }],
				{},
				{ executionId },
			);
			const [turned] = collected.outputs[0];
			results.push(await reply(turned.json, { options: { repliesPerHour: 2 } }, {}, executionId));
		}
		expect(results.map((r) => r.items[0].json.sent !== false)).toEqual([true, true, false, false]);
		expect(posted()).toHaveLength(2);
	});

	it('under Retry On Fail, a reply the provider processed and then answered 500 is posted once', async () => {
		fixture().sim.injectFault(CAMPAIGN, {
			kind: 'answer',
			status: 500,
			body: 'Internal Server Error',
		});
		const result = await reply(
			turn(5),
			{},
			{ retryOnFail: true, maxTries: 3, waitBetweenTries: 0 },
		);
		expect(posted()).toHaveLength(1);
		// The retry saw the first attempt's unknown outcome and posted nothing: the user is told to check.
		expect(result.error?.message).toMatch(
			/^An earlier attempt of this execution could not confirm the campaign: .*may have reached the provider/,
		);
		expect(fixture().sim.requests.filter((r) => r.path === CAMPAIGN)).toHaveLength(1);
	});

	it('decides once per run: Retry On Fail neither logs nor checks again, so it posts what the first attempt chose, once', async () => {
		fixture().sim.injectFault(CAMPAIGN, {
			kind: 'answer',
			status: 500,
			body: 'Internal Server Error',
		});
		await reply(
			[turn(30, { from: '50123' }), turn(31)],
			{ message: 'Done.', answers: '={{ $json.turn }}' },
			{ retryOnFail: true, maxTries: 3, waitBetweenTries: 0 },
			'reply-retried',
		);
		expect(log.calls.filter((call) => call.action === 'converse')).toHaveLength(1);
		expect(fixture().sim.requests.filter((r) => r.path === CAMPAIGN)).toHaveLength(1);
	});

	it('a reply the provider refuses is an error naming its own input item, not its place among the replies sent', async () => {
		fixture().sim.injectFault(CAMPAIGN, { kind: 'answer', status: 400, body: 'Bad Request' });
		const result = await reply([turn(40, { from: '50123' }), turn(41)], { message: 'Done.' });
		expect(fixture().sim.requests.filter((r) => r.path === CAMPAIGN)).toHaveLength(1);
		// n8n shows the error on the item it names: the second input item, whose reply it was.
		expect(result.error?.context).toEqual({ itemIndex: 1 });
	});

	it('a Retry after an update finds what the earlier version posted, which numbered replies by their place: none is posted again', async () => {
		fixture().sim.injectFault(CAMPAIGN, {
			kind: 'answer',
			status: 500,
			body: 'Internal Server Error',
		});
		const items = [turn(50, { from: '50123' }), turn(51), turn(52, { from: '353871234568' })];
		const first = await reply(items, { message: 'Done.' }, {}, 'reply-updated');
		expect(first.error).toBeDefined();
		expect(fixture().sim.requests.filter((r) => r.path === CAMPAIGN)).toHaveLength(1);
		// What the earlier version left: a plan without byItem, and its record numbered by place
		// among the replies sent (input items 1 and 2 were replies 0 and 1).
		const earlier = JSON.parse(
			JSON.stringify(first.run.data.executionData!.contextData),
			(key, value: unknown) => {
				if (key === 'byItem') return undefined;
				if (key === 'who' && typeof value === 'string')
					return value.replace(
						/^(d?)(\d+):/gm,
						(_, d: string, n: string) => `${d}${Number(n) - 1}:`,
					);
				return value;
			},
		) as typeof first.run.data.executionData;
		const retried = await reply(items, { message: 'Done.' }, {}, 'reply-updated-retry', {
			...first,
			run: {
				...first.run,
				data: {
					...first.run.data,
					executionData: { ...first.run.data.executionData!, contextData: earlier },
				},
			},
		} as typeof first);
		expect(fixture().sim.requests.filter((r) => r.path === CAMPAIGN)).toHaveLength(1);
		expect(retried.error?.message).toMatch(
			/^An earlier attempt of this execution could not confirm the campaign/,
		);
	});

	it('with Answers empty (after an AI Agent, say) it sends, and only the limit applies', async () => {
		const result = await reply(turn(32), { answers: '' });
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ status: 'accepted' });
		expect(log.messages).toMatchObject([{ kind: 'out', key: '' }]);
	});

	it('an Exclude Numbers list it cannot read is an error naming the field and the item; nothing is sent', async () => {
		const result = await reply(turn(33), { options: { excludeNumbers: 'unsubscribed people' } });
		expect(result.error?.message).toMatch(
			/^Exclude Numbers: item 0 has \d+ entries that are no phone number/,
		);
		expect(posted()).toHaveLength(0);
		expect(log.messages).toEqual([]);
	});

	describe('the AI Disclosure (EU AI Act Art. 50): in the first reply to a person and after a silence', () => {
		const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();
		const earlierReply = (hours: number) =>
			log.seed({
				kind: 'out',
				phone: ANNA,
				key: `turn:old-${hours}`,
				text: 'Hello',
				at: hoursAgo(hours),
				id: `out:old-${hours}`,
				turn: `turn:old-${hours}`,
			});
		const sent = () => posted().map((body) => String(body.text));

		it('is said once: the second reply within the day goes without it', async () => {
			await reply(turn(40));
			const second = await reply(turn(41));
			expect(second.items[0].json).toMatchObject({ status: 'accepted', disclosed: false });
			expect(sent()).toEqual([
				`${DEFAULT_DISCLOSURE}\nDone: you are booked for Friday at 10:00.`,
				'Done: you are booked for Friday at 10:00.',
			]);
		});

		it('is said again after Disclose Again After without a reply, and not before it', async () => {
			earlierReply(3);
			await reply(turn(42), { options: { aiDisclosureAfterHours: 4 } });
			log.clear();
			earlierReply(3);
			await reply(turn(43), { options: { aiDisclosureAfterHours: 1 } });
			expect(sent()).toEqual([
				'Done: you are booked for Friday at 10:00.',
				`${DEFAULT_DISCLOSURE}\nDone: you are booked for Friday at 10:00.`,
			]);
		});

		it("is the user's own words, and empty means never", async () => {
			const words = "You are texting Acme Dental's assistant (AI). Call 01 234 5678 for a person.";
			await reply(turn(44), { options: { aiDisclosure: words } });
			log.clear();
			await reply(turn(45), { options: { aiDisclosure: '' } });
			expect(sent()).toEqual([
				`${words}\nDone: you are booked for Friday at 10:00.`,
				'Done: you are booked for Friday at 10:00.',
			]);
		});

		it('counts within Max Parts: the message is cut, never the disclosure', async () => {
			const long = 'We have moved your appointment to Friday at 10:00. '.repeat(12);
			await reply(turn(46), { message: long, options: { maxParts: 2 } });
			const [text] = sent();
			expect(text.length).toBeLessThanOrEqual(306);
			expect(text.startsWith(`${DEFAULT_DISCLOSURE}\nWe have moved`)).toBe(true);
			expect(text).toMatch(/\w\.\.\.$/);
		});

		it('one that leaves too little room for a reply with an emoji is an error naming the field and the item, whatever this message holds; nothing is logged or sent', async () => {
			for (const message of ['OK', 'We’ll call you.']) {
				const result = await reply(turn(47), { message, options: { maxParts: 1 } });
				expect(result.error?.message).toMatch(
					/^AI Disclosure: item 0's disclosure leaves too little room for a reply within Max Parts \(1\)/,
				);
			}
			expect(posted()).toHaveLength(0);
			expect(log.messages).toEqual([]);
		});

		it('a reply with a curly apostrophe (UCS-2, 70 characters a part) still leads with the whole disclosure', async () => {
			const message = 'We’ll see you on Friday at 10:00, and we’ll text you the day before.';
			const result = await reply(turn(48), { message, options: { maxParts: 2 } });
			expect(result.items[0].json).toMatchObject({ disclosed: true });
			expect(sent()[0].startsWith(`${DEFAULT_DISCLOSURE}\nWe’ll see you`)).toBe(true);
		});

		it('a replayed relay answered again (a reply that never went out) does not put off the next disclosure', async () => {
			earlierReply(20);
			// Logged 2 hours ago for what was answered 20 hours ago: it lost the race and was never sent.
			log.seed({
				kind: 'out',
				phone: ANNA,
				key: 'turn:old-20',
				text: 'Hello',
				at: hoursAgo(2),
				id: 'out:replayed',
				turn: 'turn:old-20',
			});
			expect(
				(await reply(turn(49), { options: { aiDisclosureAfterHours: 12 } })).items[0].json,
			).toMatchObject({
				disclosed: true,
			});
		});
	});

	it('cuts a long answer to the parts the user pays for, at a word, ending with "..."', async () => {
		const long = 'We have moved your appointment to Friday at 10:00. '.repeat(12);
		await reply(turn(6), { message: long, options: { maxParts: 1, aiDisclosure: '' } });
		const text = String(posted()[0].text);
		expect(text.length).toBeLessThanOrEqual(160);
		expect(text).toMatch(/\w\.\.\.$/);
		expect(long.startsWith(text.slice(0, -3))).toBe(true);
	});

	it('an empty message is an error naming the field and the item; nothing is logged or sent', async () => {
		const result = await reply(turn(7), { message: '  ' });
		expect(result.error?.message).toBe('Message: item 0 has no text to send');
		expect(posted()).toHaveLength(0);
		expect(log.messages).toEqual([]);
	});

	describe('racing runs, two Reply nodes and a captured relay', () => {
		/** The log writes the row of executions named here only after this long (a busy worker, a slow table). */
		const slowWritesOf = (executions: string[], ms: number) => {
			log.beforeWrite = async (call) => {
				if (executions.some((e) => String(call.id).includes(`:${e}:`)))
					await new Promise((resolve) => setTimeout(resolve, ms));
			};
		};

		it('two runs answering one turn send one reply, whichever run logged first and whatever its clock said', async () => {
			// The first run's time stamp is earlier, but its row reaches the table 300 ms after the second's.
			slowWritesOf(['race-a'], 300);
			const results = await Promise.all([
				reply(turn(300), {}, {}, 'race-a'),
				new Promise((resolve) => setTimeout(resolve, 50)).then(
					async () => await reply(turn(300), {}, {}, 'race-b'),
				),
			]);
			expect(posted()).toHaveLength(1);
			expect(results.map((r) => r.items[0].json.sent === false).sort()).toEqual([false, true]);
		});

		it('Replies Per Hour holds between racing runs: two turns at a limit of one send one reply', async () => {
			slowWritesOf(['limit-a'], 300);
			await Promise.all([
				reply(turn(301), { options: { repliesPerHour: 1 } }, {}, 'limit-a'),
				new Promise((resolve) => setTimeout(resolve, 50)).then(
					async () => await reply(turn(302), { options: { repliesPerHour: 1 } }, {}, 'limit-b'),
				),
			]);
			expect(posted()).toHaveLength(1);
		});

		it("a second Reply node answering the same turn in the same execution sends nothing (the agent's tool and a fallback)", async () => {
			const first = await reply(turn(303), {}, { id: 'reply-tool', name: 'Reply' }, 'two-nodes');
			const second = await reply(
				turn(303),
				{},
				{ id: 'reply-fallback', name: 'Fallback Reply' },
				'two-nodes',
			);
			expect(first.items[0].json).toMatchObject({ status: 'accepted' });
			expect(second.items[0].json).toMatchObject({
				sent: false,
				reason: expect.stringMatching(/already answered/),
			});
			expect(posted()).toHaveLength(1);
		});

		it('a relay answered directly, posted again with the From/Content boundary moved, texts no stranger', async () => {
			const relay = {
				...turn(0),
				turn: undefined,
				text: '5 mins late',
				relayKey: 'signed-5-mins-late',
			};
			expect((await reply(relay)).items[0].json).toMatchObject({ status: 'accepted' });
			const moved = { ...relay, from: `${ANNA}5`, text: ' mins late' };
			expect((await reply(moved)).items[0].json).toMatchObject({
				sent: false,
				reason: expect.stringMatching(/already answered/),
			});
			expect(posted()).toHaveLength(1);
		});

		it('a Retry of an execution whose log call failed after writing the reply sends it, once', async () => {
			log.afterWrite = async () => {
				log.afterWrite = async () => {};
				throw new Error('SQLITE_BUSY: database is locked');
			};
			const failed = await reply(turn(304), {}, {}, 'retried-1');
			expect(failed.error?.message).toMatch(/Question Log/);
			expect(posted()).toHaveLength(0);
			const retried = await reply(turn(304), {}, {}, 'retried-2', failed);
			expect(retried.items[0].json).toMatchObject({ status: 'accepted' });
			expect(posted()).toHaveLength(1);
			expect(log.messages.filter((row) => row.kind === 'out')).toHaveLength(1);
		});
	});
});
