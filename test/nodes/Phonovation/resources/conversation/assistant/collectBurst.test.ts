import type { IDataObject } from 'n8n-workflow';

import { QUESTION_LOG, QuestionLog } from '../../../../../harness/question-log';
import { sharedFixture } from '../../../fixture';

const ANNA = '353871234567';
const BRIAN = '353861234599';
const TURN = 0;
const NO_TURN = 2;

let relays = 0;
/** The provider's SMS-TimeStamp as the trigger gives it: whole seconds, here when the text reached n8n. */
const stampOf = (at: unknown) =>
	new Date(
		Math.floor((typeof at === 'string' ? Date.parse(at) : Date.now()) / 1000) * 1000,
	).toISOString();

/** A verified Inbound Message item as the trigger puts it out. */
const inbound = (from: string, text: string, extra: IDataObject = {}): IDataObject => ({
	event: 'inbound',
	verified: true,
	from,
	text,
	sessionId: `sms:${from}`,
	// As the trigger's: over From and Content as one string, the way the provider signs them.
	relayKey: `key-${from}${text}`,
	unverified: { to: '353851234567', receivedAt: stampOf(extra.arrivedAt), n: ++relays },
	...extra,
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Collect Burst: the texts a person sends in a row become one turn, once', () => {
	const fixture = sharedFixture();
	let log: QuestionLog;
	beforeAll(() => {
		log = new QuestionLog(fixture().engine);
	});
	beforeEach(() => log.clear());

	let executions = 0;
	/** One trigger execution for one text, as n8n runs the inbox's branch per relay. */
	const collect = async (item: IDataObject, quietSeconds = 1, node = {}, options = {}) =>
		await fixture().run(
			{
				resource: 'conversation',
				operation: 'collectBurst',
				questionLog: QUESTION_LOG,
				quietSeconds,
				options,
			},
			[{ json: item }],
			node,
			{ executionId: `burst-${++executions}` },
		);

	it('three texts within the quiet time make one turn, in order, put out by the last one only', async () => {
		const runs = [];
		for (const text of ['Hi', 'I need to move my appointment', 'to Friday']) {
			runs.push(collect(inbound(ANNA, text)));
			await sleep(200);
		}
		const results = await Promise.all(runs);
		const turns = results.flatMap((r) => r.outputs[TURN]);
		expect(turns).toHaveLength(1);
		expect(turns[0].json).toMatchObject({
			from: ANNA,
			sessionId: `sms:${ANNA}`,
			text: 'Hi\nI need to move my appointment\nto Friday',
			count: 3,
		});
		expect((turns[0].json.messages as IDataObject[]).map((m) => m.text)).toEqual([
			'Hi',
			'I need to move my appointment',
			'to Friday',
		]);
		expect(Date.parse(String(turns[0].json.firstAt))).toBeLessThan(
			Date.parse(String(turns[0].json.lastAt)),
		);
		// The other two runs end quietly on No Turn, saying why.
		expect(results.slice(0, 2).map((r) => r.outputs[NO_TURN][0]?.json.merged)).toEqual([
			true,
			true,
		]);
		expect(results[2].outputs[NO_TURN]).toEqual([]);
	});

	it('texts a busy worker logs out of order keep the order they reached n8n (queue mode)', async () => {
		const sent = Date.now();
		const arrived = (ms: number) => ({ arrivedAt: new Date(sent + ms).toISOString() });
		// The webhook process stamped "Hi" first; the worker running it logs it 200 ms after "to Friday".
		const late = collect(inbound(ANNA, 'to Friday', arrived(500)));
		await sleep(200);
		const early = collect(inbound(ANNA, 'Hi', arrived(0)));
		const turns = (await Promise.all([late, early])).flatMap((r) => r.outputs[TURN]);
		expect(turns.map((t) => t.json.text)).toEqual(['Hi\nto Friday']);
		expect(turns[0].json).toMatchObject({
			firstAt: arrived(0).arrivedAt,
			lastAt: arrived(500).arrivedAt,
		});
	});

	it('a text stamped earlier but written to the log later (a busy worker) is still in the one turn', async () => {
		// "I need to move" is stamped first, but its row lands after "to Friday"'s.
		log.beforeWrite = async (call) => {
			if (call.text === 'I need to move my appointment')
				await new Promise((resolve) => setTimeout(resolve, 400));
		};
		const runs = [collect(inbound(ANNA, 'Hi'))];
		await sleep(100);
		runs.push(collect(inbound(ANNA, 'I need to move my appointment')));
		await sleep(100);
		runs.push(collect(inbound(ANNA, 'to Friday')));
		const turns = (await Promise.all(runs)).flatMap((r) => r.outputs[TURN]);
		expect(turns.map((t) => t.json.count)).toEqual([3]);
	});

	it('two people texting at the same time get a turn each, with only their own texts', async () => {
		const results = await Promise.all([
			collect(inbound(ANNA, 'Hi')),
			collect(inbound(BRIAN, 'Hello there')),
			sleep(100).then(() => collect(inbound(ANNA, 'it is Anna'))),
			sleep(100).then(() => collect(inbound(BRIAN, 'it is Brian'))),
		]);
		const turns = results.flatMap((r) => r.outputs[TURN]).map((t) => [t.json.from, t.json.text]);
		expect(turns.sort()).toEqual(
			[
				[BRIAN, 'Hello there\nit is Brian'],
				[ANNA, 'Hi\nit is Anna'],
			].sort(),
		);
	});

	it('a text after the quiet time starts a new turn', async () => {
		const first = await collect(inbound(ANNA, 'Hi'));
		const second = await collect(inbound(ANNA, 'Are you there?'));
		expect(first.outputs[TURN].map((t) => t.json.text)).toEqual(['Hi']);
		expect(second.outputs[TURN].map((t) => t.json.text)).toEqual(['Are you there?']);
		expect(first.outputs[TURN][0].json.turn).not.toBe(second.outputs[TURN][0].json.turn);
	});

	it('a turn Reply could not answer (to a number that is not our longcode, from one of our own senders) makes no turn: no model is asked', async () => {
		const stranger = await collect(inbound(ANNA, 'Hi', { unverified: { to: '353899999999' } }));
		expect(stranger.outputs[TURN]).toEqual([]);
		expect(stranger.outputs[NO_TURN][0].json.reason).toMatch(
			/not a numeric sender \(longcode\) of this account: no turn, no model call/,
		);
		const loop = await collect(inbound('353851234567', 'Auto-reply: thanks'));
		expect(loop.outputs[TURN]).toEqual([]);
		expect(loop.outputs[NO_TURN][0].json.reason).toMatch(/own senders.*no model call/);
		// The account's senders are read once per run, and only for a turn that would go out.
		expect(fixture().sim.count('GET', '/api/v2/senderlist')).toBe(2);
	});

	describe('a burst has an end', () => {
		/** Texts sent `everyMs` apart, each in its own execution; what each run put out, in order. */
		const texting = async (
			texts: string[],
			everyMs: number,
			quiet: number,
			options: IDataObject,
		) => {
			const runs = [];
			for (const text of texts) {
				runs.push(collect(inbound(ANNA, text), quiet, {}, options));
				await sleep(everyMs);
			}
			return await Promise.all(runs);
		};
		const turnTexts = (results: Array<{ outputs: Array<Array<{ json: IDataObject }>> }>) =>
			results.flatMap((r) => r.outputs[TURN]).map((turn) => turn.json.text);

		it("a flush word puts the turn out at once, before the burst's earlier texts have waited their quiet time", async () => {
			const finished: string[] = [];
			const runs = ['Hi', 'move me to Friday', 'Send!'].map(async (text, i) => {
				await sleep(i * 150);
				const result = await collect(inbound(ANNA, text), 4, {}, { flushWords: 'go, send' });
				finished.push(text);
				return result;
			});
			const results = await Promise.all(runs);
			expect(turnTexts(results)).toEqual(['Hi\nmove me to Friday\nSend!']);
			// The flush word's run ended first: it did not wait the 4 s the others waited.
			expect(finished[0]).toBe('Send!');
			expect(results.slice(0, 2).map((r) => r.outputs[NO_TURN][0].json.merged)).toEqual([
				true,
				true,
			]);
		});

		it('Max Texts ends a turn at the text that reaches it; the next text starts another', async () => {
			const results = await texting(['one', 'two', 'three'], 100, 1, { maxTexts: 2 });
			expect(turnTexts(results)).toEqual(['one\ntwo', 'three']);
		});

		it('a person who keeps texting gets a turn by Max Wait, and each text is in exactly one turn', async () => {
			const texts = Array.from({ length: 10 }, (_, i) => `text ${i}`);
			const results = await texting(texts, 400, 1, { maxWaitSeconds: 1.5 });
			const turns = turnTexts(results).map((text) => String(text).split('\n'));
			// Without Max Wait the 4 s of texting would be one turn; with it, one per 1.5 s at most.
			expect(turns.length).toBeGreaterThanOrEqual(3);
			expect(turns.flat()).toEqual(texts);
			for (const turn of turns) expect(turn.length).toBeLessThanOrEqual(4);
		});

		it('an opt-out never waits for the burst', async () => {
			const optOut = collect(
				{ ...inbound(ANNA, 'STOP'), event: 'optOut' },
				10,
				{},
				{ flushWords: '' },
			);
			const first = await Promise.race([optOut, sleep(5_000).then(() => 'waited')]);
			expect(first).not.toBe('waited');
			expect((await optOut).outputs[NO_TURN][0].json.reason).toMatch(/opt-out/);
		});
	});

	it('a replayed relay makes no second turn, even after the first turn is done', async () => {
		const item = inbound(ANNA, 'Hi');
		await collect(item);
		const replayed = await collect({ ...item, unverified: { to: '353851234567', n: 'replayed' } });
		expect(replayed.outputs[TURN]).toEqual([]);
		expect(replayed.outputs[NO_TURN][0].json).toMatchObject({ replayed: true });
	});

	it('two copies of one relay logged at the same moment make one turn, not two', async () => {
		const item = inbound(ANNA, 'Hi');
		const results = await Promise.all([
			collect(item),
			collect({ ...item, unverified: { to: '353851234567', n: 'copy' } }),
		]);
		expect(results.flatMap((r) => r.outputs[TURN])).toHaveLength(1);
		expect(results.flatMap((r) => r.outputs[NO_TURN]).map((i) => i.json.replayed)).toEqual([true]);
	});

	it('an opt-out, an opt-in or an unverified text makes no turn and logs nothing', async () => {
		const stop = await collect(inbound(ANNA, 'STOP', { event: 'optOut' }));
		const start = await collect(inbound(ANNA, 'START', { event: 'optIn' }));
		const forged = await collect(inbound(ANNA, 'Hi', { verified: false }));
		expect([stop, start, forged].map((r) => r.outputs[TURN].length)).toEqual([0, 0, 0]);
		expect(stop.outputs[NO_TURN][0].json.reason).toMatch(/opt-out ends the conversation/);
		expect(start.outputs[NO_TURN][0].json.reason).toMatch(/an opt-in is no text to answer/);
		expect(forged.outputs[NO_TURN][0].json.reason).toMatch(/not verified/);
		expect(log.messages).toEqual([]);
	});

	it('an item that is no trigger message is an error naming the field and the item', async () => {
		const result = await collect({ event: 'deliveryReceipt', from: ANNA });
		expect(result.error?.message).toMatch(
			/^Inbound Message: item 0 is not a Phonovation Trigger Inbound Message item/,
		);
		expect(log.messages).toEqual([]);
	});

	it('a busy n8n hands a burst over out of order: the text handed over after the later one was answered makes no second turn', async () => {
		// Both reached n8n 0.6 s apart (the quiet time is 1 s), 20 s ago; the later one's run went first.
		const reached = Date.now() - 20_000;
		const arrived = (ms: number) => ({ arrivedAt: new Date(reached + ms).toISOString() });
		const later = await collect(inbound(ANNA, 'to Friday', arrived(600)));
		expect(later.outputs[TURN].map((t) => t.json.text)).toEqual(['to Friday']);
		const earlier = await collect(inbound(ANNA, 'I need to move my appointment', arrived(0)));
		expect(earlier.outputs[TURN]).toEqual([]);
		expect(earlier.outputs[NO_TURN][0].json).toMatchObject({
			merged: true,
			reason: expect.stringMatching(/one burst gets one reply/),
		});
		// It is not lost: the person's next turn carries it, in the order the texts reached n8n.
		const next = await collect(inbound(ANNA, 'Thanks', arrived(9_000)));
		expect(next.outputs[TURN].map((t) => t.json.text)).toEqual([
			'I need to move my appointment\nThanks',
		]);
	});

	it('a busy n8n hands a burst over late: a text sent just after one already answered makes no second turn either', async () => {
		const reached = Date.now() - 20_000;
		const arrived = (ms: number) => ({ arrivedAt: new Date(reached + ms).toISOString() });
		expect((await collect(inbound(ANNA, 'Hi', arrived(0)))).outputs[TURN]).toHaveLength(1);
		// Sent 0.4 s after "Hi" (within the quiet time of 1 s), handed over after its turn went out.
		const late = await collect(inbound(ANNA, 'about my order', arrived(400)));
		expect(late.outputs[TURN]).toEqual([]);
		expect(late.outputs[NO_TURN][0].json).toMatchObject({ merged: true });
		// Sent 1.5 s after "Hi" and 1.1 s after the late one (past the quiet time of 1 s; its
		// whole-second stamp cannot prove otherwise): the person's own next turn, which carries the
		// late text along.
		const next = await collect(inbound(ANNA, 'and my bill', arrived(1_500)));
		expect(next.outputs[TURN].map((t) => t.json.text)).toEqual(['about my order\nand my bill']);
	});

	it("a storm stretches a burst past the quiet time on its way to n8n: the provider's stamps keep it one turn, one reply", async () => {
		// Sent 1.2 s apart (the provider stamped them a second apart: less than 2 s), but the second
		// relay reached n8n 3 s after the first (a backlog, past the quiet time of 2 s), after the
		// first text's turn went out.
		const reached = Date.now() - 20_000;
		const stamp = Math.floor(reached / 1000) * 1000;
		const text = (words: string, arrivedMs: number, stampMs: number) =>
			inbound(ANNA, words, {
				arrivedAt: new Date(reached + arrivedMs).toISOString(),
				unverified: { to: '353851234567', receivedAt: new Date(stamp + stampMs).toISOString() },
			});
		expect((await collect(text('Hi', 0, 0), 2)).outputs[TURN]).toHaveLength(1);
		const late = await collect(text('I need to move my appointment', 3_000, 1_000), 2);
		expect(late.outputs[TURN]).toEqual([]);
		expect(late.outputs[NO_TURN][0].json).toMatchObject({ merged: true });
		// Stamps that tell otherwise than the arrivals by minutes are not believed: the next text,
		// 4 s after by n8n's clock, is the person's own turn whatever its stamp says.
		const next = await collect(text('Thanks', 7_000, 1_000 - 10 * 60_000), 2);
		expect(next.outputs[TURN].map((t) => t.json.text)).toEqual([
			'I need to move my appointment\nThanks',
		]);
	});

	it('a Question Log that fails stops the run with its reason (Continue On Fail: on No Turn)', async () => {
		log.fail = new Error('no Data Table named messages');
		const stopped = await collect(inbound(ANNA, 'Hi'));
		expect(stopped.error?.message).toMatch(/Question Log: the workflow question-log failed/);
		const continued = await collect(inbound(ANNA, 'Hi'), 1, { onError: 'continueRegularOutput' });
		expect(continued.outputs[TURN]).toEqual([]);
		expect(continued.outputs[NO_TURN][0].json.error).toMatch(/Question Log/);
	});

	describe("the turn carries what was said before it, from the log: the assistant's memory", () => {
		const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();
		const said = (kind: 'in' | 'out', text: string, ago: number, extra: IDataObject = {}) =>
			log.seed({
				kind,
				phone: ANNA,
				key: kind === 'in' ? `key-${ANNA}${text}` : `turn:${ago}`,
				text,
				at: minutesAgo(ago),
				id: `${kind}:said:${ago}`,
				turn: `turn:${ago}`,
				...extra,
			});

		it("the person's texts and our replies before this turn, oldest first, each once; another person's never", async () => {
			said('in', 'Hi, can I move my appointment?', 30);
			said('out', 'Sure, to which day?', 29, { key: 'turn:30' });
			// A second reply to the same turn lost the race and was never sent.
			said('out', 'Which day suits you?', 28, { key: 'turn:30' });
			log.seed({
				kind: 'in',
				phone: BRIAN,
				key: 'key-brian',
				text: 'Brian here',
				at: minutesAgo(25),
				id: 'in:brian',
				turn: 't',
			});
			const [turn] = (await collect(inbound(ANNA, 'Friday please'))).outputs[TURN];
			expect(turn.json.history).toEqual([
				{ from: 'person', text: 'Hi, can I move my appointment?', at: expect.any(String) },
				{ from: 'us', text: 'Sure, to which day?', at: expect.any(String) },
			]);
			expect(turn.json.historyText).toBe(
				'Them: "Hi, can I move my appointment?"\nUs: "Sure, to which day?"',
			);
			expect(turn.json.text).toBe('Friday please');
		});

		it('texts a busy n8n logged out of order are in the order they reached n8n, as in their turn', async () => {
			// "Hi" reached n8n first but its run logged it second.
			said('in', 'I need to move my appointment', 9, { arrivedAt: minutesAgo(10) });
			said('in', 'Hi', 8, { arrivedAt: minutesAgo(10.02) });
			const [turn] = (await collect(inbound(ANNA, 'Friday'))).outputs[TURN];
			expect(turn.json.historyText).toBe('Them: "Hi"\nThem: "I need to move my appointment"');
		});

		it('History Size bounds it to the last ones; 0 gives none, and a first text has none', async () => {
			for (let n = 10; n >= 1; n--) said(n % 2 ? 'in' : 'out', `message ${n}`, n);
			const run = async (historySize: number) =>
				(
					await fixture().run(
						{
							resource: 'conversation',
							operation: 'collectBurst',
							questionLog: QUESTION_LOG,
							quietSeconds: 1,
							historySize,
						},
						[{ json: inbound(ANNA, `now ${historySize}`) }],
						{},
						{ executionId: `burst-${++executions}` },
					)
				).outputs[TURN][0].json;
			expect((await run(3)).historyText).toBe(
				'Them: "message 3"\nUs: "message 2"\nThem: "message 1"',
			);
			expect((await run(0)).history).toEqual([]);
			log.clear();
			expect((await collect(inbound(ANNA, 'first ever'))).outputs[TURN][0].json).toMatchObject({
				history: [],
				historyText: '',
			});
		});
	});

	describe('a captured relay, a Retry and a genuine repeat', () => {
		const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();
		/** A row the log holds: a text or a relay seen (`kind`), of `phone`, under `key`, `ago` minutes ago. */
		const seedRow = (
			kind: 'in' | 'seen',
			{
				phone,
				key,
				text,
				ago,
				id,
			}: { phone: string; key: IDataObject[string]; text: string; ago: number; id: string },
		) => log.seed({ kind, phone, key, text, at: minutesAgo(ago), id });
		/** A history in the log: Anna's text `m1` minutes ago, and a reply to her `m2` minutes ago. */
		const history = (text: string, textAgo: number, replyAgo?: number) => {
			const item = inbound(ANNA, text);
			log.seed({
				kind: 'in',
				phone: ANNA,
				key: item.relayKey,
				text,
				at: minutesAgo(textAgo),
				id: `in:earlier:${textAgo}`,
				turn: `turn:in:earlier:${textAgo}`,
			});
			if (replyAgo !== undefined)
				log.seed({
					kind: 'out',
					phone: ANNA,
					key: `turn:in:earlier:${textAgo}`,
					text: 'Sure, see you then',
					at: minutesAgo(replyAgo),
					id: `out:earlier:${replyAgo}`,
					turn: `turn:in:earlier:${textAgo}`,
				});
			return item;
		};

		it('a copy with the From/Content boundary moved makes no turn for the other number', async () => {
			const genuine = inbound(ANNA, '5 mins late');
			expect((await collect(genuine)).outputs[TURN]).toHaveLength(1);
			// The signature covers From + Content as one string: "3538712345675" + " mins late" signs alike.
			const moved = { ...inbound(`${ANNA}5`, ' mins late'), relayKey: genuine.relayKey };
			const result = await collect(moved);
			expect(result.outputs[TURN]).toEqual([]);
			expect(result.outputs[NO_TURN][0].json).toMatchObject({
				replayed: true,
				reason: expect.stringMatching(/another number/),
			});
		});

		it('a copy with the boundary moved days after the genuine text still makes no turn', async () => {
			const genuine = history('5 mins late', 3 * 24 * 60);
			const moved = {
				...inbound(`${ANNA}5`, ' mins late'),
				relayKey: genuine.relayKey,
			};
			const result = await collect(moved);
			expect(result.outputs[TURN]).toEqual([]);
			expect(result.outputs[NO_TURN][0].json).toMatchObject({ replayed: true });
		});

		it("a moved copy logged after the person's own text does not silence their genuine repeat", async () => {
			const item = history('ok', 10, 9);
			seedRow('in', {
				phone: `${ANNA}5`,
				key: item.relayKey,
				text: 'ok',
				ago: 8,
				id: 'in:moved:0',
			});
			const result = await collect(item);
			expect(result.outputs[TURN].map((t) => t.json.text)).toEqual(['ok']);
		});

		it("a moved copy logged after the person's own text a day or more ago does not silence their repeat either", async () => {
			// Anna's text and its answer two days ago (out of the day the log reads by number).
			const item = history('ok', 2 * 24 * 60, 2 * 24 * 60 - 1);
			seedRow('in', {
				phone: `${ANNA}5`,
				key: item.relayKey,
				text: 'k',
				ago: 24 * 60 + 30,
				id: 'in:moved:1',
			});
			const result = await collect(item);
			expect(result.outputs[TURN].map((t) => t.json.text)).toEqual(['ok']);
		});

		it('a relay the inbox saw first for another number (an opt-out, an answer) makes no turn here either', async () => {
			const item = inbound(ANNA, '8STOP');
			seedRow('seen', {
				phone: `${ANNA}8`,
				key: item.relayKey,
				text: '',
				ago: 90,
				id: 'seen:x:0:0',
			});
			const result = await collect(item);
			expect(result.outputs[TURN]).toEqual([]);
			expect(result.outputs[NO_TURN][0].json).toMatchObject({ replayed: true });
		});

		it("the inbox's own record of the person's relay is no earlier copy of it: the text makes its turn", async () => {
			const item = inbound(ANNA, 'ok');
			seedRow('seen', { phone: ANNA, key: item.relayKey, text: '', ago: 0, id: 'seen:y:0:0' });
			const result = await collect(item);
			expect(result.outputs[TURN].map((t) => t.json.text)).toEqual(['ok']);
		});

		it('a text rejected as a replay never speaks in a later turn', async () => {
			const first = inbound(ANNA, 'Cancel my appointment');
			await collect(first);
			const replay = await collect({ ...first, unverified: { to: '353851234567', n: 'again' } });
			expect(replay.outputs[NO_TURN][0].json.replayed).toBe(true);
			const next = await collect(inbound(ANNA, 'What time is my booking?'));
			expect(next.outputs[TURN].map((t) => t.json.text)).toEqual(['What time is my booking?']);
		});

		it('a text left unclaimed for over a day (a replay then) is claimed by no later turn', async () => {
			seedRow('in', {
				phone: ANNA,
				key: 'key-old-replay',
				text: 'Cancel my appointment',
				ago: 25 * 60,
				id: 'in:old:0',
			});
			const result = await collect(inbound(ANNA, 'What time is my booking?'));
			expect(result.outputs[TURN].map((t) => t.json.text)).toEqual(['What time is my booking?']);
			expect(log.messages.find((row) => row.id === 'in:old:0')?.turn).toBe('');
		});

		it('a Retry of an execution whose Collect Burst failed after logging puts out the turn it owed', async () => {
			// The log takes the text, then fails (a Data Table hiccup) when the quiet time is over.
			log.afterWrite = async () => {
				log.fail = new Error('SQLITE_BUSY: database is locked');
			};
			const item = inbound(ANNA, 'Can I come at 3?');
			const failed = await collect(item);
			expect(failed.error?.message).toMatch(/Question Log/);
			log.fail = null;
			log.afterWrite = async () => {};
			const retried = await fixture().run(
				{
					resource: 'conversation',
					operation: 'collectBurst',
					questionLog: QUESTION_LOG,
					quietSeconds: 1,
				},
				[{ json: item }],
				{},
				{
					executionId: `burst-retry-${++executions}`,
					mode: 'retry',
					contextData: failed.run.data.executionData!.contextData,
				},
			);
			expect(retried.outputs[TURN].map((t) => t.json.text)).toEqual(['Can I come at 3?']);
			expect(log.messages.filter((row) => row.kind === 'in')).toHaveLength(1);
		});

		it('the person\'s second "ok", minutes after we wrote to them, gets its turn', async () => {
			const item = history('ok', 10, 9);
			const result = await collect(item);
			expect(result.outputs[TURN].map((t) => t.json.text)).toEqual(['ok']);
		});

		it.each([
			['nothing was written to the person since', 10, undefined],
			['it comes within the minute, with a fresh time stamp', 0.5, 0.4],
		])('the same text again makes no turn when %s', async (_case, textAgo, replyAgo) => {
			const result = await collect(history('ok', textAgo, replyAgo));
			expect(result.outputs[TURN]).toEqual([]);
			expect(result.outputs[NO_TURN][0].json.replayed).toBe(true);
		});

		it('a captured text buys at most two more turns a day, however the replies fall', async () => {
			history('ok', 50, 49);
			history('ok', 30, 29);
			const item = history('ok', 10, 9);
			const result = await collect(item);
			expect(result.outputs[TURN]).toEqual([]);
			expect(result.outputs[NO_TURN][0].json.replayed).toBe(true);
		});
	});
});
