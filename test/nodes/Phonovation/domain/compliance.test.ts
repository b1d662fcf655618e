import { sendAtWhenPosted } from '../../../../nodes/Phonovation/domain/compliance';
import {
	canonicalWindow,
	type QuietHours,
	windowIn,
} from '../../../../nodes/Phonovation/domain/quietHours';

const quiet = (window: string, zone = 'Europe/Dublin'): QuietHours => {
	const written = canonicalWindow(window);
	const parsed = written.ok ? windowIn(written.value, zone) : null;
	if (!parsed) throw new Error(`bad window ${window}`);
	return parsed;
};
const at = (iso: string) => new Date(iso);

describe('time rules judged when a request is about to be posted', () => {
	const night = quiet('21:00-08:00');

	it('a Send planned at 20:59 but posted at 21:00 (Dublin, winter) is scheduled for 08:00 the next day', () => {
		const planned = sendAtWhenPosted(
			{ scheduled: false, sendAt: null, quiet: night },
			at('2030-01-15T20:59:59Z'),
		);
		expect(planned).toEqual({ ok: true, sendAt: null });
		const posted = sendAtWhenPosted(
			{ scheduled: false, sendAt: null, quiet: night },
			at('2030-01-15T21:00:00Z'),
		);
		expect(posted).toEqual({ ok: true, sendAt: '2030-01-16T08:00Z', movedInto: night });
	});

	it('judges summer time in Dublin: 21:00 IST is 20:00 UTC', () => {
		const posted = sendAtWhenPosted(
			{ scheduled: false, sendAt: null, quiet: night },
			at('2030-07-15T20:00:00Z'),
		);
		expect(posted).toEqual({ ok: true, sendAt: '2030-07-16T07:00Z', movedInto: night });
	});

	it('a Send planned inside the window whose window has ended by the time it is posted goes now', () => {
		const timing = { scheduled: false, sendAt: '2030-01-16T08:00Z', quiet: night };
		expect(sendAtWhenPosted(timing, at('2030-01-16T07:59:59Z'))).toEqual({
			ok: true,
			sendAt: '2030-01-16T08:00Z',
			movedInto: night,
		});
		expect(sendAtWhenPosted(timing, at('2030-01-16T08:00:00Z'))).toEqual({
			ok: true,
			sendAt: null,
		});
	});

	it('a Send without Quiet Hours is never moved', () => {
		expect(
			sendAtWhenPosted({ scheduled: false, sendAt: null, quiet: null }, at('2030-01-15T23:00:00Z')),
		).toEqual({ ok: true, sendAt: null });
	});

	it('a Schedule keeps its Send At while it is ahead, and is refused once it has passed', () => {
		const timing = { scheduled: true, sendAt: '2030-01-15T10:00Z', quiet: night };
		expect(sendAtWhenPosted(timing, at('2030-01-15T09:59:59Z'))).toEqual({
			ok: true,
			sendAt: '2030-01-15T10:00Z',
		});
		expect(sendAtWhenPosted(timing, at('2030-01-15T10:00:00Z'))).toEqual({
			ok: false,
			message:
				'Send At 2030-01-15T10:00Z had passed when the request was about to be posted (now 2030-01-15T10:00Z); nothing was posted for it. Pick a later time',
		});
	});
});
