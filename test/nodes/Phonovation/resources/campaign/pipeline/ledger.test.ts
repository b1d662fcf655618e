import type { IContextObject } from 'n8n-workflow';

import { Ledger } from '../../../../../../nodes/Phonovation/resources/campaign/pipeline/ledger';

const who = (...pairs: Array<[number, string]>) =>
	pairs.map(([item, msisdn]) => Ledger.recipientKey(item, msisdn)).join('\n');

describe('Ledger: who this execution texted', () => {
	it('remembers each recipient of a batch, as its item and number, across attempts of the same run only', () => {
		const context: IContextObject = {};
		const first = new Ledger(context, 0);
		expect(first.isEmpty).toBe(true);
		first.record({
			state: 'accepted',
			message: 'OK',
			errors: [],
			body: 'b1',
			who: who([0, '353871111111'], [1, '353871111112']),
		});

		const retry = new Ledger(context, 0);
		expect(retry.isEmpty).toBe(false);
		expect(retry.recipient(Ledger.recipientKey(1, '353871111112'))).toMatchObject({
			state: 'accepted',
			body: 'b1',
		});
		expect(retry.recipient(Ledger.recipientKey(0, '353871111111'))).toMatchObject({
			state: 'accepted',
		});
		// The same number for another item is another message.
		expect(retry.recipient(Ledger.recipientKey(2, '353871111111'))).toBeUndefined();
		expect(new Ledger(context, 1).isEmpty).toBe(true);
	});

	it('keeps every batch, even two with the same body, and sees records made after its first look-up', () => {
		const context: IContextObject = {};
		const ledger = new Ledger(context, 0);
		ledger.record({
			state: 'accepted',
			message: null,
			errors: [],
			body: 'same',
			who: who([0, '1']),
		});
		expect(ledger.recipient(Ledger.recipientKey(1, '1'))).toBeUndefined();
		ledger.record({ state: 'unconfirmed', reason: 'timeout', body: 'same', who: who([1, '1']) });
		expect(ledger.recipient(Ledger.recipientKey(1, '1'))).toMatchObject({ state: 'unconfirmed' });
		const retry = new Ledger(context, 0);
		expect(retry.recipient(Ledger.recipientKey(0, '1'))).toMatchObject({ state: 'accepted' });
		expect(retry.recipient(Ledger.recipientKey(1, '1'))).toMatchObject({ state: 'unconfirmed' });
	});

	it('still finds a whole batch an earlier version recorded under its exact body', () => {
		const context: IContextObject = {};
		const body = Ledger.fingerprint(Buffer.from('{"text":"Hi"}'));
		(context as Record<string, unknown>).phonovationBatches = {
			0: { [body]: { state: 'unconfirmed', reason: 'timeout' } },
		};
		const ledger = new Ledger(context, 0);
		expect(ledger.byBody(body)).toEqual({ state: 'unconfirmed', reason: 'timeout' });
		expect(ledger.byBody(Ledger.fingerprint(Buffer.from('{"text":"Hi!"}')))).toBeUndefined();
	});

	it('says whether an earlier attempt had recorded anything when this one began, whatever this one records', () => {
		const context: IContextObject = {};
		const first = new Ledger(context, 0);
		first.record({
			state: 'accepted',
			message: null,
			errors: [],
			body: 'b',
			who: who([0, '353871111111']),
		});
		expect([first.retrying, first.isEmpty]).toEqual([false, false]);
		expect(new Ledger(context, 0).retrying).toBe(true);
		expect(new Ledger(context, 1).retrying).toBe(false);
	});

	it('knows nothing of names an object has by default', () => {
		const ledger = new Ledger({}, 0);
		expect(ledger.byBody('constructor')).toBeUndefined();
		expect(ledger.recipient('toString')).toBeUndefined();
		expect(ledger.recall('constructor')).toBeUndefined();
	});

	it('fingerprints the exact bytes', () => {
		expect(Ledger.fingerprint(Buffer.from('a'))).toBe(Ledger.fingerprint(Buffer.from('a')));
		expect(Ledger.fingerprint(Buffer.from('a'))).not.toBe(Ledger.fingerprint(Buffer.from('a ')));
	});

	it('learns a fact once per run: a retry finds what the first attempt learned, another run learns anew', () => {
		const context: IContextObject = {};
		expect(new Ledger(context, 0).recall('senders')).toBeUndefined();
		expect(new Ledger(context, 0).firstLearned('senders', 'first')).toBe('first');
		expect(new Ledger(context, 0).firstLearned('senders', 'second')).toBe('first');
		expect(new Ledger(context, 0).recall('senders')).toBe('first');
		expect(new Ledger(context, 1).firstLearned('senders', 'third')).toBe('third');
	});
});

describe('Ledger: when the run was first planned', () => {
	it("keeps the first attempt's moment for every retry of the same run; a new run gets its own", () => {
		const context: IContextObject = {};
		expect(
			new Ledger(context, 0).firstPlanned(new Date('2030-01-01T20:59:00Z')).toISOString(),
		).toBe('2030-01-01T20:59:00.000Z');
		expect(
			new Ledger(context, 0).firstPlanned(new Date('2030-01-01T21:05:00Z')).toISOString(),
		).toBe('2030-01-01T20:59:00.000Z');
		expect(
			new Ledger(context, 1).firstPlanned(new Date('2030-01-01T21:05:00Z')).toISOString(),
		).toBe('2030-01-01T21:05:00.000Z');
	});
});
