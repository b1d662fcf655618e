import { parseFormBody } from '../../../../nodes/PhonovationTrigger/incoming/formBody';
import { messageItem } from '../support';

const form = (content: string, to = '353877777777') =>
	parseFormBody(
		new URLSearchParams({
			'SMS-From': '353871111111',
			'SMS-Content': content,
			'SMS-To': to,
		}).toString(),
	);

describe('opt-ins', () => {
	it.each([
		['START', 'START', 'reply'],
		['Start.', 'START', 'reply'],
		['unstop 🙂', 'UNSTOP', 'reply'],
		['Subscribe', 'SUBSCRIBE', 'reply'],
	])('"%s" texted to your number is an opt-in naming %p', (text, keyword, via) => {
		expect(messageItem(form(text), { stopReplies: true })).toMatchObject({
			event: 'optIn',
			optInKeyword: keyword,
			unverified: expect.objectContaining({ via }),
		});
	});

	it('a start word texted to the shortcode 50123 is an opt-in by the shortcode', () => {
		expect(messageItem(form('START', '50123'), { stopReplies: true })).toMatchObject({
			event: 'optIn',
			unverified: expect.objectContaining({ via: 'shortcode' }),
		});
	});

	it.each(['start now', 'YES', 'Stop', 'restart', 'S T A R T', ''])('"%s" is no opt-in', (text) => {
		expect(messageItem(form(text), { stopReplies: true }).event).not.toBe('optIn');
	});

	it('without the Opt-In event selected, START is an inbound message, as before the event existed', () => {
		expect(messageItem(form('START'), { stopReplies: true, optIns: false })).toMatchObject({
			event: 'inbound',
			text: 'START',
		});
	});
});
