import { relayKeyOf } from '../../../../nodes/PhonovationTrigger/events/fields/relayKey';
import { processingResultItem } from '../../../../nodes/PhonovationTrigger/events/processingResult';
import { rejectionOf } from '../support';

describe('processing result items', () => {
	it("reads the provider's PascalCase fields, in any case", () => {
		expect(
			processingResultItem({
				Status: 'COMPLETED',
				message: 'Done',
				NOTIFYID: 'order-1',
				FinishedAt: '2026-04-09T14:39:40.6Z',
			}),
		).toEqual({
			event: 'processingResult',
			status: 'COMPLETED',
			message: 'Done',
			notifyId: 'order-1',
			finishedAt: '2026-04-09T14:39:40.600Z',
			relayKey: relayKeyOf('processingResult', [
				'COMPLETED',
				'order-1',
				'Done',
				'2026-04-09T14:39:40.600Z',
			]),
		});
	});

	it('gives null for absent, null or empty fields, and a number as text', () => {
		expect(
			processingResultItem({ Status: 'CAMPAIGN_ERROR', Message: null, NotifyId: '', Extra: 1 }),
		).toEqual({
			event: 'processingResult',
			status: 'CAMPAIGN_ERROR',
			message: null,
			notifyId: null,
			finishedAt: null,
			relayKey: relayKeyOf('processingResult', ['CAMPAIGN_ERROR', null, null, null]),
		});
		expect(processingResultItem({ Status: 'X', NotifyId: 42 }).notifyId).toBe('42');
	});

	it.each([
		['an object', { a: 1 }],
		['a boolean', true],
		['an endless number', Infinity],
	])('refuses a field that is %s with 400', (_name, value) => {
		expect(rejectionOf(() => processingResultItem({ Status: 'X', Message: value }))).toMatchObject({
			status: 400,
			detail: 'Message is not a string',
		});
	});
});
