import fc from 'fast-check';

import { QuestionLog } from '../../../../../harness/question-log';
import { sharedFixture } from '../../../fixture';
import { replyProperty } from './replyInvariants';

/**
 * Reply's promises (replyInvariants.ts) over generated conversations, with a fixed seed; `npm run
 * fuzz` runs the same property over many more with a random one.
 */
const SEED = 46;
const RUNS = 40;
jest.setTimeout(5 * 60_000);

describe('Reply keeps its promises over generated conversations', () => {
	const fixture = sharedFixture();
	let log: QuestionLog;
	beforeAll(() => {
		log = new QuestionLog(fixture().engine);
	});

	it(`holds over ${RUNS} generated conversations (seed ${SEED})`, async () => {
		let sent = 0;
		await fc.assert(
			replyProperty(() => ({ fixture: fixture(), log }), {
				onRun: (_ms, posted) => (sent += posted),
			}),
			{ seed: SEED, numRuns: RUNS },
		);
		// The generated conversations do reach the provider, or the promises above say nothing.
		expect(sent).toBeGreaterThan(RUNS / 2);
	});
});
