/**
 * The properties `npm run fuzz` runs besides the campaign's (campaignInvariants.ts runs them all):
 * Deliver Reply / Deliver Receipt (`delivery`) and the numbering plans (`numbering`), both from
 * test/nodes/Phonovation/resources/conversation/deliveryInvariants.ts, and Reply (`reply`, from
 * assistant/replyInvariants.ts beside it), where their promises and labels are listed.
 */
import type fc from 'fast-check';

import { QuestionLog } from '../harness/question-log';
import { phonovationFixture } from '../nodes/Phonovation/fixture';
import {
	labelOf as replyLabelOf,
	replyProperty,
} from '../nodes/Phonovation/resources/conversation/assistant/replyInvariants';
import {
	deliveryProperty,
	labelOf,
	numberingProperty,
	startDeliveryWorld,
} from '../nodes/Phonovation/resources/conversation/deliveryInvariants';

/** What the runner hands a property: what to look past, and whom to tell. */
export interface FuzzSettings {
	/** Labels of violations not to count (FUZZ_IGNORE). */
	ignore: readonly string[];
	/** Set with FUZZ_SURVEY: told every run's broken promises instead of failing. */
	survey?: (problems: string[], describe: () => string) => void;
	/** Told after every run (shrinking runs included). */
	ran: () => void;
	/** A line on stderr. */
	log: (line: string) => void;
}

/** A property the fuzzer runs by name (FUZZ_PROPERTY), with what it needs started and stopped. */
export interface FuzzedProperty {
	name: string;
	labelOf: (problem: string) => string;
	start(settings: FuzzSettings): Promise<{
		// Sync or async, over whatever it generates.
		property: fc.IRawProperty<any>;
		stop(): Promise<void>;
	}>;
}

/** Deliver Reply and Deliver Receipt against a played n8n (about 30 ms a run). */
export const deliveryFuzz: FuzzedProperty = {
	name: 'delivery',
	labelOf,
	async start({ ignore, survey, ran, log }) {
		const fixture = await phonovationFixture();
		const world = await startDeliveryWorld(fixture);
		const property = deliveryProperty(() => world, {
			ignore,
			survey,
			onRun: (ms) => {
				if (ms > 5000) log(`delivery: a run took ${(ms / 1000).toFixed(1)} s`);
				ran();
			},
		});
		return {
			property,
			stop: async () => {
				await world.stop();
				await fixture.stop();
			},
		};
	},
};

/** National forms of every country's numbers against libphonenumber-js (about a millisecond a run). */
export const numberingFuzz: FuzzedProperty = {
	name: 'numbering',
	labelOf,
	async start({ ignore, survey, ran }) {
		return {
			property: numberingProperty({ ignore, survey, onRun: () => ran() }),
			stop: async () => {},
		};
	},
};

/** Reply over generated conversations: races, slow and failing log writes, retries (about 0.4 s a run). */
export const replyFuzz: FuzzedProperty = {
	name: 'reply',
	labelOf: replyLabelOf,
	async start({ ignore, survey, ran, log }) {
		const fixture = await phonovationFixture();
		const questionLog = new QuestionLog(fixture.engine);
		const property = replyProperty(() => ({ fixture, log: questionLog }), {
			ignore,
			survey,
			onRun: (ms) => {
				if (ms > 5000) log(`reply: a run took ${(ms / 1000).toFixed(1)} s`);
				ran();
			},
		});
		return { property, stop: async () => await fixture.stop() };
	},
};
