import { optOutOf } from '../../../nodes/PhonovationTrigger/optOuts';

describe('opt-outs', () => {
	it.each([
		['STOP', 'STOP'],
		['stop please', 'STOP'],
		['OptOut now', 'OPTOUT'],
		['Opt out', 'OPT OUT'],
		['unsubscribe', 'UNSUBSCRIBE'],
		['Hello', null],
		['stopping by', null],
		['', null],
	])('everything texted to the shortcode is one: "%s" names %p', (text, keyword) => {
		expect(optOutOf('optOut', text, { stopReplies: false })).toEqual({ via: 'shortcode', keyword });
	});

	it('a reply to your own number is one only when its whole text is a stop word and STOP replies count', () => {
		expect(optOutOf('inbound', 'Stop.', { stopReplies: true })).toEqual({ via: 'reply', keyword: 'STOP' });
		expect(optOutOf('inbound', 'opt-out', { stopReplies: true })).toEqual({ via: 'reply', keyword: 'OPT OUT' });
		expect(optOutOf('inbound', 'stop please', { stopReplies: true })).toBeNull();
		expect(optOutOf('inbound', 'Stop.', { stopReplies: false })).toBeNull();
	});
});
