import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { QUESTION_LOG, QuestionLog } from '../../../../../harness/question-log';
import type { Fault } from '../../../../../simulator/faults';
import { sharedFixture } from '../../../fixture';

/**
 * Reply's promises over generated conversations: turns answered again (replays, re-runs), messy
 * and hostile numbers, exclusions, the provider's faults and n8n's Retry On Fail. Each run is a
 * few executions of Reply in one workflow, one turn each, against the simulator.
 */
const SEED = 46;
const RUNS = 40;
jest.setTimeout(5 * 60_000);

const CAMPAIGN = '/api/v2/Campaign';
/** The simulator account's numeric longcode, the number people text. */
const LONGCODE = '353851234567';
const ANNA = '353871234567';
const BRIAN = '353861111111';

/** How a person's number may come: the same number written three ways, others, and junk. */
const FROM = [
	...[ANNA, '0871234567', '+353 87 123 4567', BRIAN, BRIAN],
	...['353831234501', '353831234502', '353831234503'],
	...['50123', LONGCODE, 'hello', ''],
];
/** What the unsigned SMS-To may say: mostly our longcode; our alphanumeric sender, a stranger, nothing. */
const TO = [LONGCODE, LONGCODE, LONGCODE, 'Phonovation', '353899999999', undefined];
/** Exclude Numbers as the inbox's opt-out lookup gives it: Anna in another format, Brian, none. */
const EXCLUDE = [['087 123 4567'], [BRIAN], [], [], ['087 123 4567', BRIAN]];
const FAULTS: Array<Fault | null> = [
	null,
	null,
	{ kind: 'status', status: 500 },
	{ kind: 'answer', status: 500, body: 'Internal Server Error' },
	{ kind: 'status', status: 429, retryAfter: 0 },
	{ kind: 'reset' },
];

interface Execution {
	turn: string;
	from: string;
	to: string | undefined;
	exclude: string[];
	fault: Fault | null;
	retryOnFail: boolean;
	repliesPerHour: number;
	/** Which Reply node: a second one (the agent's tool and a fallback) runs in the same execution as the run before. */
	node: 'Reply' | 'Fallback Reply';
	/** Runs at the same time as the next execution (two copies of a relay racing). */
	racesNext: boolean;
	/** Its log write lands this many ms late (a busy worker, a slow Data Table). */
	slowWriteMs: number;
}

const execution: fc.Arbitrary<Execution> = fc.record({
	turn: fc.constantFrom('turn:a', 'turn:b', 'turn:c', 'turn:d', 'turn:e', ''),
	from: fc.constantFrom(...FROM),
	to: fc.constantFrom(...TO),
	exclude: fc.constantFrom(...EXCLUDE),
	fault: fc.constantFrom(...FAULTS),
	retryOnFail: fc.boolean(),
	repliesPerHour: fc.integer({ min: 1, max: 4 }),
	node: fc.constantFrom('Reply' as const, 'Reply' as const, 'Fallback Reply' as const),
	racesNext: fc.boolean(),
	slowWriteMs: fc.constantFrom(0, 0, 40, 120),
});

/** The number as the provider gets it: international digits. */
const international = (phone: string) => {
	const digits = phone.replace(/\D/g, '');
	return digits.startsWith('0') ? `353${digits.slice(1)}` : digits;
};

describe('Reply keeps its promises over generated conversations', () => {
	const fixture = sharedFixture();
	let log: QuestionLog;
	beforeAll(() => {
		log = new QuestionLog(fixture().engine);
	});

	let executions = 0;
	/** One execution of Reply for one turn, under Continue On Fail: every item says what happened. */
	async function reply(run: Execution, executionId: string, index: number) {
		const f = fixture();
		if (run.fault) f.sim.injectFault(CAMPAIGN, run.fault);
		// Each run's text names it: racing runs' posts are told apart by it.
		const message = `Thanks, see you Friday. (${index})`;
		const result = await f.run(
			{
				resource: 'conversation',
				operation: 'reply',
				questionLog: QUESTION_LOG,
				recipients: '={{ $json.from }}',
				textedNumber: '={{ $json.unverified?.to }}',
				message,
				answers: '={{ $json.turn }}',
				options: { excludeNumbers: run.exclude.join(','), repliesPerHour: run.repliesPerHour },
			},
			[
				{
					json: {
						event: 'inbound',
						verified: true,
						from: run.from,
						turn: run.turn,
						unverified: { to: run.to },
					},
				},
			],
			{
				id: run.node === 'Reply' ? 'reply-node' : 'fallback-reply-node',
				name: run.node,
				continueOnFail: true,
				...(run.retryOnFail ? { retryOnFail: true, maxTries: 2, waitBetweenTries: 0 } : {}),
			},
			{ executionId },
		);
		f.sim.clearFaults();
		const posted = f.sim.campaigns
			.map((c) => c.body as IDataObject)
			.filter((body) => body.text === message);
		return { result, posted };
	}

	it(`holds over ${RUNS} generated conversations (seed ${SEED})`, async () => {
		let sent = 0;
		await fc.assert(
			fc.asyncProperty(fc.array(execution, { minLength: 1, maxLength: 8 }), async (runs) => {
				fixture().reset();
				log.clear();
				const perTurn = new Map<string, number>();
				const perPhone = new Map<string, number>();
				// A fallback Reply node answers in the same execution as a Reply node's run before it.
				const ids = runs.map((run, i) =>
					run.node === 'Fallback Reply' && runs[i - 1]?.node === 'Reply'
						? `reply-property-${executions}`
						: `reply-property-${++executions}`,
				);
				log.beforeWrite = async (call) => {
					const at = ids.findIndex((id) => String(call.id).includes(`:${id}:`));
					const ms = at >= 0 ? runs[at].slowWriteMs : 0;
					if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
				};
				// Runs that race go together; the provider's answers are read per run after all of them.
				const batches: number[][] = [];
				runs.forEach((run, i) =>
					i > 0 && runs[i - 1].racesNext ? batches.at(-1)!.push(i) : batches.push([i]),
				);
				const outcomes: Array<Awaited<ReturnType<typeof reply>>> = [];
				for (const batch of batches) {
					const done = await Promise.all(batch.map(async (i) => await reply(runs[i], ids[i], i)));
					done.forEach((outcome, k) => (outcomes[batch[k]] = outcome));
				}
				for (const [i, run] of runs.entries()) {
					const { result, posted } = outcomes[i];
					sent += posted.length;
					// Every item learns what happened: one output item, sent or why not, or the error.
					expect(result.error).toBeUndefined();
					expect(result.items).toHaveLength(1);
					const recipients = posted.flatMap((body) =>
						(body.recipientInfo as Array<{ msisdn: string }>).map((r) => r.msisdn),
					);
					for (const body of posted) expect(body.from).toBe(LONGCODE);
					for (const msisdn of recipients) {
						// Never to an excluded number, our own sender or a shortcode; only to who wrote.
						expect(run.exclude.map(international)).not.toContain(msisdn);
						expect([LONGCODE, '50123']).not.toContain(msisdn);
						expect(msisdn).toBe(international(run.from));
						perPhone.set(msisdn, (perPhone.get(msisdn) ?? 0) + 1);
					}
					// Only from a numeric sender of the account that the person texted.
					if (posted.length > 0) expect(run.to).toBe(LONGCODE);
					// A turn is a person's (its id names one of their texts), so it is counted per number.
					const turn = `${international(run.from)} ${run.turn}`;
					if (run.turn !== '') perTurn.set(turn, (perTurn.get(turn) ?? 0) + posted.length);
				}
				// A turn is answered at most once, whatever came again or failed half-way.
				for (const count of perTurn.values()) expect(count).toBeLessThanOrEqual(1);
				// Never more replies to one number than the highest limit any run allowed.
				const limit = Math.max(...runs.map((run) => run.repliesPerHour));
				for (const count of perPhone.values()) expect(count).toBeLessThanOrEqual(limit);
			}),
			{ seed: SEED, numRuns: RUNS },
		);
		// The generated conversations do reach the provider, or the promises above say nothing.
		expect(sent).toBeGreaterThan(RUNS / 2);
	});
});
