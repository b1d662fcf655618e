import { receiptItem } from '../../../../nodes/PhonovationTrigger/events/deliveryReceipt';
import { relayKeyOf } from '../../../../nodes/PhonovationTrigger/events/fields/relayKey';
import { parseFormBody } from '../../../../nodes/PhonovationTrigger/incoming/formBody';
import { rejectionOf } from '../support';

const form = (fields: Record<string, string>) =>
	parseFormBody(new URLSearchParams(fields).toString());

const RECEIPT = {
	'SMS-Type': 'Notification',
	'SMS-NotifyId': 'order-1',
	'SMS-Success': 'True',
	'SMS-To': '353871111111',
	'SMS-From': 'Phonovation',
	'SMS-TotalToSend': '3',
	'SMS-TotalSent': ' 2 ',
	'SMS-TotalFailed': '1',
	'SMS-TimeStamp': '2024-01-10 14:17:44',
};

describe('delivery receipt items', () => {
	it('carries the counts as numbers and the success as a boolean', () => {
		expect(receiptItem(form(RECEIPT))).toEqual({
			event: 'deliveryReceipt',
			notifyId: 'order-1',
			delivered: true,
			relayKey: relayKeyOf('deliveryReceipt', ['order-1', true]),
			unverified: {
				to: '353871111111',
				from: 'Phonovation',
				totalToSend: 3,
				totalSent: 2,
				totalFailed: 1,
				receivedAt: '2024-01-10T14:17:44.000Z',
			},
		});
	});

	it.each([
		['False', false],
		[' false ', false],
		['TRUE', true],
	])('reads SMS-Success %p as delivered: %p', (success, delivered) => {
		expect(receiptItem(form({ ...RECEIPT, 'SMS-Success': success })).delivered).toBe(delivered);
	});

	it('gives null for empty or absent counts and fields', () => {
		expect(
			receiptItem(form({ 'SMS-NotifyId': '', 'SMS-Success': 'false', 'SMS-TotalSent': ' ' })),
		).toEqual({
			event: 'deliveryReceipt',
			notifyId: null,
			delivered: false,
			relayKey: relayKeyOf('deliveryReceipt', [null, false]),
			unverified: {
				to: null,
				from: null,
				totalToSend: null,
				totalSent: null,
				totalFailed: null,
				receivedAt: null,
			},
		});
	});

	it.each([
		['no notifyId', { 'SMS-Success': 'True' }, 'Missing field SMS-NotifyId'],
		['no success value', { 'SMS-NotifyId': '1' }, 'Missing field SMS-Success'],
		[
			'a success value that is neither',
			{ 'SMS-NotifyId': '1', 'SMS-Success': 'yes' },
			'SMS-Success is neither True nor False',
		],
		[
			'a count that is not a whole number',
			{ ...RECEIPT, 'SMS-TotalSent': '2.5' },
			'SMS-TotalSent is not a whole number',
		],
		[
			'a negative count',
			{ ...RECEIPT, 'SMS-TotalFailed': '-1' },
			'SMS-TotalFailed is not a whole number',
		],
		[
			'a count with letters',
			{ ...RECEIPT, 'SMS-TotalToSend': '3 sms' },
			'SMS-TotalToSend is not a whole number',
		],
	])('refuses %s with 400', (_name, fields, detail) => {
		expect(rejectionOf(() => receiptItem(form(fields)))).toMatchObject({ status: 400, detail });
	});
});
