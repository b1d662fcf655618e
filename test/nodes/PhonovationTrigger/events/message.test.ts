import { relayKeyOf } from '../../../../nodes/PhonovationTrigger/events/fields/relayKey';
import { SHORTCODE_TEXT_HINT } from '../../../../nodes/PhonovationTrigger/events/inbound';
import { SUPPRESSION_HINT } from '../../../../nodes/PhonovationTrigger/events/optOut';
import { parseFormBody } from '../../../../nodes/PhonovationTrigger/incoming/formBody';
import { messageItem, rejectionOf } from '../support';

const form = (fields: Record<string, string>) =>
	parseFormBody(new URLSearchParams(fields).toString());

const INBOUND = {
	'SMS-From': '353871111111',
	'SMS-To': '353877777777',
	'SMS-Content': 'Confirm please',
	'SMS-Keyphrase': ' CONFIRM ',
	'SMS-NotifyId': 'order-1',
	'SMS-Type': 'Text',
	'SMS-Network': '272/3',
	'SMS-TimeStamp': '2026-04-09 16:03:11',
};

describe('inbound items', () => {
	it('carries the signed fields on top and every other field, typed, under unverified', () => {
		expect(messageItem(form(INBOUND), { stopReplies: true })).toEqual({
			event: 'inbound',
			from: '353871111111',
			text: 'Confirm please',
			keyword: 'CONFIRM',
			sessionId: 'sms:353871111111',
			relayKey: relayKeyOf('message', ['353871111111Confirm please']),
			unverified: {
				to: '353877777777',
				notifyId: 'order-1',
				keyphrase: 'CONFIRM',
				type: 'Text',
				network: {
					mcc: '272',
					mnc: '3',
					country: 'Ireland',
					carrier: 'Eir',
					operatorNetwork: false,
				},
				receivedAt: '2026-04-09T16:03:11.000Z',
			},
		});
	});

	it('takes the keyword from the signed text, not from SMS-Keyphrase', () => {
		const item = messageItem(
			form({ ...INBOUND, 'SMS-Keyphrase': 'CANCEL', 'SMS-Content': 'Yes, please!' }),
			{
				stopReplies: true,
			},
		);
		expect(item).toMatchObject({
			keyword: 'YES',
			unverified: expect.objectContaining({ keyphrase: 'CANCEL' }),
		});
	});

	it('keeps the same relayKey whatever the unsigned fields say, and changes it with the signed ones', () => {
		const key = (fields: Record<string, string>) =>
			messageItem(form(fields), { stopReplies: true }).relayKey;
		const original = key(INBOUND);
		expect(
			key({
				...INBOUND,
				'SMS-TimeStamp': '2026-04-10 09:00:00',
				'SMS-NotifyId': 'x',
				'SMS-To': '1',
			}),
		).toBe(original);
		expect(key({ ...INBOUND, 'SMS-Content': 'Confirm please!' })).not.toBe(original);
		expect(key({ ...INBOUND, 'SMS-From': '353871111112' })).not.toBe(original);
		// Moving the boundary between From and Content keeps the signature valid: it is the same relay replayed.
		expect(key({ ...INBOUND, 'SMS-From': '35387111111', 'SMS-Content': '1Confirm please' })).toBe(
			original,
		);
	});

	it('gives null for absent or empty optional fields and for the * keyphrase', () => {
		const item = messageItem(
			form({ 'SMS-From': '353871111111', 'SMS-Content': '', 'SMS-Keyphrase': '*', 'SMS-To': '' }),
			{
				stopReplies: true,
			},
		);
		expect(item).toEqual({
			event: 'inbound',
			from: '353871111111',
			text: '',
			keyword: null,
			sessionId: 'sms:353871111111',
			relayKey: relayKeyOf('message', ['353871111111']),
			unverified: {
				to: null,
				notifyId: null,
				keyphrase: null,
				type: null,
				network: null,
				receivedAt: null,
			},
		});
		expect(
			messageItem(form({ 'SMS-From': '1', 'SMS-Content': '  ' }), { stopReplies: true }).keyword,
		).toBeNull();
	});

	it('makes a STOP reply an opt-out, with the keyword, the route and the hint, only when STOP replies count', () => {
		const stop = form({ ...INBOUND, 'SMS-Content': 'Stop.' });
		expect(messageItem(stop, { stopReplies: true })).toMatchObject({
			event: 'optOut',
			optOutKeyword: 'STOP',
			hint: SUPPRESSION_HINT,
			unverified: expect.objectContaining({ via: 'reply' }),
		});
		const kept = messageItem(stop, { stopReplies: false });
		expect(kept.event).toBe('inbound');
		expect(kept).not.toHaveProperty('optOutKeyword');
		expect(kept.unverified).not.toHaveProperty('via');
		expect(kept).not.toHaveProperty('hint');
	});

	it('never makes other text an opt-out because SMS-To names the shortcode; the item says where it was sent', () => {
		const replayed = messageItem(
			form({ ...INBOUND, 'SMS-To': '50123', 'SMS-Content': 'Yes please' }),
			{ stopReplies: true },
		);
		expect(replayed).toMatchObject({ event: 'inbound', hint: SHORTCODE_TEXT_HINT });
		expect(replayed).not.toHaveProperty('optOutKeyword');
		// A stop word to the shortcode opts out even when STOP replies do not count.
		const stop = messageItem(form({ ...INBOUND, 'SMS-To': ' 50123 ', 'SMS-Content': 'OPTOUT' }), {
			stopReplies: false,
		});
		expect(stop).toMatchObject({
			event: 'optOut',
			optOutKeyword: 'OPTOUT',
			unverified: expect.objectContaining({ via: 'shortcode' }),
		});
	});

	it('keeps the key when the unsigned SMS-To turns a replayed STOP from inbound into an opt-out', () => {
		const reply = messageItem(form({ ...INBOUND, 'SMS-Content': 'STOP' }), { stopReplies: false });
		const steered = messageItem(form({ ...INBOUND, 'SMS-Content': 'STOP', 'SMS-To': '50123' }), {
			stopReplies: false,
		});
		expect([reply.event, steered.event]).toEqual(['inbound', 'optOut']);
		expect(steered.relayKey).toBe(reply.relayKey);
	});

	it('tells the user, in so many words, to suppress the number', () => {
		expect(SUPPRESSION_HINT).toBe(
			'Add this number to your suppression list now and send it no more marketing messages.',
		);
	});

	it.each([
		['no sender', { 'SMS-Content': 'hi' }, 'Missing field SMS-From'],
		['a blank sender', { 'SMS-From': '  ', 'SMS-Content': 'hi' }, 'Empty field SMS-From'],
		['no content', { 'SMS-From': '1' }, 'Missing field SMS-Content'],
	])('refuses %s with 400', (_name, fields, detail) => {
		expect(rejectionOf(() => messageItem(form(fields), { stopReplies: true }))).toMatchObject({
			status: 400,
			detail,
		});
	});
});
