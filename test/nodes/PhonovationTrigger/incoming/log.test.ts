import {
	LOG_LINES_PER_WINDOW,
	LOG_WINDOW_MS,
	rateLimitedLog,
} from '../../../../nodes/PhonovationTrigger/incoming/log';

describe('log lines caused by requests', () => {
	it(`writes at most ${LOG_LINES_PER_WINDOW} a minute, then says how many it left out`, () => {
		let now = 1_000_000;
		const log = rateLimitedLog(() => now);
		const written: string[] = [];
		const write = (line: string) => written.push(line);
		for (let i = 0; i < 500; i++) log(write, `refused ${i}`);
		expect(written).toEqual(Array.from({ length: LOG_LINES_PER_WINDOW }, (_, i) => `refused ${i}`));

		now += LOG_WINDOW_MS - 1;
		log(write, 'still the same minute');
		expect(written).toHaveLength(LOG_LINES_PER_WINDOW);

		now += 1;
		log(write, 'next minute');
		expect(written.slice(LOG_LINES_PER_WINDOW)).toEqual([
			`Phonovation Trigger: ${500 - LOG_LINES_PER_WINDOW + 1} more such log lines were left out in the last minute`,
			'next minute',
		]);
	});

	it('says nothing about left-out lines when none were left out', () => {
		let now = 0;
		const log = rateLimitedLog(() => now);
		const written: string[] = [];
		log((line) => written.push(line), 'one');
		now += LOG_WINDOW_MS * 3;
		log((line) => written.push(line), 'two');
		expect(written).toEqual(['one', 'two']);
	});
});
