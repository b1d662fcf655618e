import type { IContextObject } from 'n8n-workflow';

import { Ledger } from '../../../../../../nodes/Phonovation/resources/campaign/pipeline/ledger';

const FIRST = new Date('2030-03-28T12:00:00Z');
const LATER = new Date('2030-03-28T12:05:00Z');

describe('Ledger: batches posted in this execution', () => {
	it('remembers a batch by its body across attempts of the same run, not in another run', () => {
		const context: IContextObject = {};
		const body = Buffer.from('{"text":"Hi"}');
		new Ledger(context, 0, FIRST).record(Ledger.fingerprint(body), { state: 'accepted', message: 'OK', errors: [] });

		const retry = new Ledger(context, 0, LATER);
		expect(retry.get(Ledger.fingerprint(body))).toEqual({ state: 'accepted', message: 'OK', errors: [] });
		expect(retry.get(Ledger.fingerprint(Buffer.from('{"text":"Hi!"}')))).toBeUndefined();
		expect(new Ledger(context, 1, LATER).get(Ledger.fingerprint(body))).toBeUndefined();
	});

	it('knows nothing of names an object has by default', () => {
		const ledger = new Ledger({}, 0, FIRST);
		expect(ledger.get('constructor')).toBeUndefined();
		expect(ledger.get('toString')).toBeUndefined();
	});

	it('fingerprints the exact bytes', () => {
		expect(Ledger.fingerprint(Buffer.from('a'))).toBe(Ledger.fingerprint(Buffer.from('a')));
		expect(Ledger.fingerprint(Buffer.from('a'))).not.toBe(Ledger.fingerprint(Buffer.from('a ')));
	});

	it('a retry plans at the moment the first attempt did', () => {
		const context: IContextObject = {};
		expect(new Ledger(context, 0, FIRST).moment).toEqual(FIRST);
		expect(new Ledger(context, 0, LATER).moment).toEqual(FIRST);
		expect(new Ledger(context, 1, LATER).moment).toEqual(LATER);
	});

	it('learns a fact once per run; a failure to learn it is not remembered', async () => {
		const context: IContextObject = {};
		const asked: string[] = [];
		const learn = (value: string) => async () => (asked.push(value), value);

		await expect(new Ledger(context, 0, FIRST).once('senders', async () => Promise.reject(new Error('down')))).rejects.toThrow('down');
		expect(await new Ledger(context, 0, FIRST).once('senders', learn('first'))).toBe('first');
		expect(await new Ledger(context, 0, LATER).once('senders', learn('second'))).toBe('first');
		expect(await new Ledger(context, 1, LATER).once('senders', learn('third'))).toBe('third');
		expect(asked).toEqual(['first', 'third']);
	});
});
