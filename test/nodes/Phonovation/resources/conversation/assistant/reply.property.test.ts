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
}

const execution: fc.Arbitrary<Execution> = fc.record({
	turn: fc.constantFrom('turn:a', 'turn:b', 'turn:c', 'turn:d', 'turn:e', ''),
	from: fc.constantFrom(...FROM),
	to: fc.constantFrom(...TO),
	exclude: fc.constantFrom(...EXCLUDE),
	fault: fc.constantFrom(...FAULTS),
	retryOnFail: fc.boolean(),
	repliesPerHour: fc.integer({ min: 1, max: 4 }),
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
	async function reply(run: Execution) {
		const f = fixture();
		if (run.fault) f.sim.injectFault(CAMPAIGN, run.fault);
		const before = f.sim.campaigns.length;
		const result = await f.run(
			{
				resource: 'conversation',
				operation: 'reply',
				questionLog: QUESTION_LOG,
				recipients: '={{ $json.from }}',
				textedNumber: '={{ $json.unverified?.to }}',
				message: 'Thanks, see you Friday.',
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
				continueOnFail: true,
				...(run.retryOnFail ? { retryOnFail: true, maxTries: 2, waitBetweenTries: 0 } : {}),
			},
			{ executionId: `reply-property-${++executions}` },
		);
		f.sim.clearFaults();
		const posted = f.sim.campaigns.slice(before).map((c) => c.body as IDataObject);
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
				for (const run of runs) {
					const { result, posted } = await reply(run);
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
