import { optOutOf } from '../../../../nodes/PhonovationTrigger/events/optOut';

describe('opt-outs', () => {
	it.each([
		['STOP', 'STOP'],
		['OptOut', 'OPTOUT'],
		['Opt out', 'OPT OUT'],
		['unsubscribe', 'UNSUBSCRIBE'],
	])('a stop word texted to the shortcode is one: "%s" names %p', (text, keyword) => {
		expect(optOutOf(text, { stopReplies: false, toShortcode: true })).toEqual({
			via: 'shortcode',
			keyword,
		});
		expect(optOutOf(text, { stopReplies: true, toShortcode: true })).toEqual({
			via: 'shortcode',
			keyword,
		});
	});

	it.each(['stop please', 'OptOut now', 'Hello', 'stopping by', ''])(
		'other text is none, whatever SMS-To says: "%s"',
		(text) => {
			expect(optOutOf(text, { stopReplies: true, toShortcode: true })).toBeNull();
			expect(optOutOf(text, { stopReplies: true, toShortcode: false })).toBeNull();
		},
	);

	it('a reply to your own number is one only when its whole text is a stop word and STOP replies count', () => {
		expect(optOutOf('Stop.', { stopReplies: true, toShortcode: false })).toEqual({
			via: 'reply',
			keyword: 'STOP',
		});
		expect(optOutOf('opt-out', { stopReplies: true, toShortcode: false })).toEqual({
			via: 'reply',
			keyword: 'OPT OUT',
		});
		expect(optOutOf('Stop.', { stopReplies: false, toShortcode: false })).toBeNull();
	});
});
