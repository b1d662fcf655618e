import { EVENTS } from '../../../../nodes/PhonovationTrigger/events';
import { parseFormBody } from '../../../../nodes/PhonovationTrigger/incoming/formBody';
import type { VerifiedRelay } from '../../../../nodes/PhonovationTrigger/verification/verifyRelay';

const form = (fields: Record<string, string>) =>
	parseFormBody(new URLSearchParams(fields).toString());
const message = (content: string, to: string): VerifiedRelay => ({
	authenticatedBy: 'message',
	fields: form({ 'SMS-From': '353871111111', 'SMS-Content': content, 'SMS-To': to }),
	verification: {},
});

const RELAYS: Array<[string, VerifiedRelay]> = [
	['a reply', message('Confirm please', '353877777777')],
	['a STOP reply', message('STOP', '353877777777')],
	['a STOP to the shortcode', message('STOP', '50123')],
	['other text to the shortcode', message('Yes please', '50123')],
	['a START reply', message('START', '353877777777')],
	['an UNSTOP to the shortcode', message('unstop', '50123')],
	[
		'a message without content',
		{ authenticatedBy: 'message', fields: form({ 'SMS-From': '1' }), verification: {} },
	],
	[
		'a receipt',
		{
			authenticatedBy: 'receipt',
			fields: form({ 'SMS-NotifyId': '1', 'SMS-Success': 'True' }),
			verification: {},
		},
	],
	[
		'a processing result',
		{ authenticatedBy: 'token', value: { Status: 'COMPLETED' }, verification: {} },
	],
	['JSON that is no processing result', { authenticatedBy: 'token', value: {}, verification: {} }],
];

describe('event registry', () => {
	it.each(RELAYS)(
		'exactly one event claims %s, whether STOP replies count or not and opt-ins are selected or not',
		(_name, relay) => {
			for (const stopReplies of [true, false])
				for (const optIns of [true, false])
					expect(
						EVENTS.filter((event) => event.claim(relay, { stopReplies, optIns }) !== null),
					).toHaveLength(1);
		},
	);

	it('has one module per event value', () => {
		expect(new Set(EVENTS.map((event) => event.value)).size).toBe(EVENTS.length);
	});
});
