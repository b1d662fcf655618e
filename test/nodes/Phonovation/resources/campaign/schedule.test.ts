import { DateTime } from 'luxon';

import { phonovationFixture, type PhonovationFixture } from '../../fixture';

const SCHEDULE = { resource: 'campaign', operation: 'schedule', from: 'Phonovation', text: 'Reminder' };

describe('campaign.schedule', () => {
	let f: PhonovationFixture;
	beforeAll(async () => {
		f = await phonovationFixture();
	});
	beforeEach(() => f.reset());
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
		// The engine's default workflow time zone is the instance's (America/New_York in n8n's defaults);
		// whatever it is, the wire value is that wall-clock time converted to UTC.
		const zone = f.engine.workflow([f.node({})]).settings.timezone ?? 'America/New_York';
		const expected = DateTime.fromISO('2031-01-15T09:00:00', { zone: zone === 'DEFAULT' ? 'America/New_York' : zone })
			.toUTC()
			.toFormat("yyyy-MM-dd'T'HH:mm'Z'");
		expect(f.sim.campaigns[0].body.sendAt).toBe(expected);
	});

	it('accepts an n8n DateTime from an expression', async () => {
		const result = await f.run({ ...SCHEDULE, recipients: '0871234567', sendAt: '={{ $now.plus({ days: 2 }) }}' });
		expect(result.error).toBeUndefined();
		const sent = DateTime.fromISO(f.sim.campaigns[0].body.sendAt.replace('Z', ':00Z'));
		expect(sent.diffNow('hours').hours).toBeGreaterThan(47);
	});

	it.each([
		['in the past', '2020-01-01T10:00:00Z', /Send At: Send At 2020-01-01T10:00Z is in the past .*\(item 0\)/],
		['malformed', 'next tuesday-ish', /Send At: Send At "next tuesday-ish" is not a date-time.*\(item 0\)/],
	])('refuses a send time %s and sends nothing', async (_name, sendAt, message) => {
		const result = await f.run({ ...SCHEDULE, recipients: '0871234567', sendAt });
		expect(result.error?.message).toMatch(message);
		expect(f.sim.count('POST', '/api/v2/Campaign')).toBe(0);
	});
});
