import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

import type { QuietHours } from '../../../../../../nodes/Phonovation/domain/quietHours';
import {
	type BatchOutcome,
	foldPosting,
} from '../../../../../../nodes/Phonovation/resources/campaign/pipeline/posting';
import { sourcesUnder } from '../../../../../harness/sources';

const accepted: BatchOutcome = { state: 'accepted', message: null, errors: [] };
const timedOut = new Error('timed out');
const earlierUnconfirmed = new Error('an earlier attempt could not confirm it');

describe('a Posting: what each batch of a campaign returned, folded in order', () => {
	it('leaves a batch nobody reached "not attempted", and counts the requests and the 429s repeated', () => {
		const posting = foldPosting(3, [
			{ batch: { index: 0, outcome: accepted }, requests: 3, retriedAfter429: 2 },
			{ batch: { index: 1, outcome: accepted }, requests: 1 },
		]);
		expect(posting.batches.map((b) => b.state)).toEqual(['accepted', 'accepted', 'not attempted']);
		expect(posting).toMatchObject({ requests: 4, retriedAfter429: 2 });
		expect(posting.failure).toBeUndefined();
	});

	it("makes the campaign an error with the first earlier attempt's unconfirmed batch, and a failure of this attempt takes its place", () => {
		const replayed = { error: earlierUnconfirmed, batch: 0, replayed: true };
		const later = { error: new Error('another'), batch: 1, replayed: true };
		expect(foldPosting(2, [{ failure: replayed }, { failure: later }]).failure).toBe(replayed);
		const failed = { error: timedOut, batch: 1 };
		expect(foldPosting(2, [{ failure: replayed }, { failure: failed }]).failure).toBe(failed);
		// What the final pass finds in the record after this attempt's failure does not hide it.
		expect(foldPosting(2, [{ failure: failed }, { failure: replayed }]).failure).toBe(failed);
	});

	it('reports recipients from the record, a later look-up of one winning, and those texted for other items', () => {
		const posting = foldPosting(1, [
			{ earlier: new Map([[4, accepted]]), textedForOthers: new Set([7]) },
			{ earlier: new Map([[4, { state: 'not attempted' } as BatchOutcome]]) },
			{ earlier: new Map(), textedForOthers: new Set() },
		]);
		expect([...posting.earlier!]).toEqual([[4, { state: 'not attempted' }]]);
		expect([...posting.textedForOthers!]).toEqual([7]);
		// Nothing found: no empty map or set for the report to mistake for a finding.
		expect(foldPosting(1, [{ earlier: new Map(), textedForOthers: new Set() }])).not.toHaveProperty(
			'earlier',
		);
	});

	it('counts the requests that went into Quiet Hours that began while the campaign went out, at the first one’s send time', () => {
		const judged = { start: '21:00', end: '08:00' } as unknown as QuietHours;
		const posting = foldPosting(2, [
			{ movedBySendTime: { judged, sendAt: '2030-01-01T08:00:00Z' } },
			{ movedBySendTime: { judged, sendAt: '2030-01-01T08:00:05Z' } },
		]);
		expect(posting.movedBySendTime).toEqual({
			judged,
			sendAt: '2030-01-01T08:00:00Z',
			requests: 2,
		});
	});

	it('a rule that stops the campaign on this attempt is its failure, whatever the record said', () => {
		const rule = new Error('Quiet Hours');
		const posting = foldPosting(
			0,
			[{ failure: { error: earlierUnconfirmed, replayed: true } }],
			rule,
		);
		expect(posting.failure).toEqual({ error: rule });
		expect(posting.batches).toEqual([]);
	});

	it('is built in one place: no other module of the pipeline writes a Posting', () => {
		const folder = join(
			__dirname,
			'../../../../../../nodes/Phonovation/resources/campaign/pipeline',
		);
		const writers = sourcesUnder(folder).filter((file) =>
			/:\s*Posting\s*=\s*\{|posting\.\w+\s*(\+\+|\+=|\?\?=|=(?!=))/.test(
				readFileSync(file, 'utf8'),
			),
		);
		expect(writers.map((file) => relative(folder, file))).toEqual(['posting.ts']);
	});
});
