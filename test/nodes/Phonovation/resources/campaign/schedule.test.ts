import { DateTime } from 'luxon';

import { phonovationFixture, type PhonovationFixture } from '../../fixture';

const SCHEDULE = {
	resource: 'campaign',
	operation: 'schedule',
	from: 'Phonovation',
	text: 'Reminder',
};

/** A zone without daylight saving time whose offset differs from UTC's and New York's. */
const ZONE = 'Asia/Kolkata';

describe('campaign.schedule', () => {
	let f: PhonovationFixture;
	beforeAll(async () => {
		f = await phonovationFixture();
	});
	beforeEach(() => {
		f.reset();
		f.engine.timezone = ZONE;
	});
	afterAll(async () => await f.stop());

	it('converts a time with an offset to UTC yyyy-MM-ddTHH:mmZ and sends one scheduled campaign', async () => {
		const result = await f.run({
			...SCHEDULE,
			recipients: '0871234567, 0861234567, 447911123456',
			sendAt: '2031-06-01T10:30:45+01:00',
		});
		expect(result.error).toBeUndefined();
		expect(f.sim.campaigns).toHaveLength(1);
		expect(f.sim.campaigns[0].body.sendAt).toBe('2031-06-01T09:30Z');
		expect(f.sim.campaigns[0].status).toBe('scheduled');
		expect((result.items[0].json as any).campaign.sendAt).toBe('2031-06-01T09:30Z');
	});

	it('reads a time without a zone in the workflow time zone', async () => {
		const result = await f.run(
			{ ...SCHEDULE, recipients: '0871234567', sendAt: '2031-01-15T09:00:00' },
			[{ json: {} }],
			{},
		);
		expect(result.error).toBeUndefined();
		// 09:00 at UTC+05:30: neither UTC, n8n's fallback New York nor the harness's usual Dublin.
		expect(f.sim.campaigns[0].body.sendAt).toBe('2031-01-15T03:30Z');
	});

	it('accepts an n8n DateTime from an expression', async () => {
		const inTwoDays = () =>
			DateTime.now().setZone(ZONE).plus({ days: 2 }).toUTC().startOf('minute').toMillis();
		const earliest = inTwoDays();
		const result = await f.run({
			...SCHEDULE,
			recipients: '0871234567',
			sendAt: '={{ $now.plus({ days: 2 }) }}',
		});
		const latest = inTwoDays();
		expect(result.error).toBeUndefined();
		const sent = DateTime.fromISO(f.sim.campaigns[0].body.sendAt.replace('Z', ':00Z'));
		expect(sent.diffNow('hours').hours).toBeGreaterThan(47);
		// Not just later: exactly two days after the run, to the minute, in the workflow's zone.
		expect(sent.toMillis()).toBeGreaterThanOrEqual(earliest);
		expect(sent.toMillis()).toBeLessThanOrEqual(latest);
	});

	describe('in Europe/Dublin, across the 2030 clock changes', () => {
		beforeEach(() => {
			f.engine.timezone = 'Europe/Dublin';
		});

		it.each([
			['the day before summer time (GMT)', '2030-03-30T09:00', '2030-03-30T09:00Z'],
			['the day after summer time starts (IST, UTC+1)', '2030-04-01T09:00', '2030-04-01T08:00Z'],
			[
				'01:30 on 31 March, which does not exist: read as 02:30 IST',
				'2030-03-31T01:30',
				'2030-03-31T01:30Z',
			],
			[
				'01:30 on 27 October, which happens twice: the second one, in GMT',
				'2030-10-27T01:30',
				'2030-10-27T01:30Z',
			],
			['00:30 on 27 October, before the change (IST)', '2030-10-27T00:30', '2030-10-26T23:30Z'],
		])('%s', async (_name, sendAt, wire) => {
			const result = await f.run({ ...SCHEDULE, recipients: '0871234567', sendAt });
			expect(result.error).toBeUndefined();
			expect(f.sim.campaigns.map((c) => c.body.sendAt)).toEqual([wire]);
		});
	});

	it.each([
		[
			'in the past',
			'2020-01-01T10:00:00Z',
			/Send At 2020-01-01T10:00Z is in the past .*\(item 0\)/,
		],
		['malformed', 'next tuesday-ish', /Send At "next tuesday-ish" is not a date-time.*\(item 0\)/],
	])('refuses a send time %s and sends nothing', async (_name, sendAt, message) => {
		const result = await f.run({ ...SCHEDULE, recipients: '0871234567', sendAt });
		expect(result.error?.message).toMatch(message);
		expect(f.sim.count('POST', '/api/v2/Campaign')).toBe(0);
	});
});
