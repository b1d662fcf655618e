import { DateTime } from 'luxon';

import { itemsOf, sharedFixture } from '../../fixture';

const SEND = {
	resource: 'campaign',
	operation: 'send',
	from: 'Phonovation',
	recipients: '0871234567, 0861234567',
};
const SCHEDULE = { ...SEND, operation: 'schedule' };
const FOOTER = 'Text STOP to 50123 to opt out';
const MISSING =
	/^Message Type is Marketing but the text offers no way to opt out \(no STOP, OPTOUT or 50123 wording\)/;
type Json = Record<string, any>;
const jsonOf = (items: Array<{ json: unknown }>) => items.map((i) => i.json as Json);

/** Quiet hours from `from` to `to` hours after now in Dublin (to the minute), and when they end in UTC. */
function quietWindow(from: number, to: number) {
	const now = DateTime.now().setZone('Europe/Dublin');
	const [start, end] = [now.plus({ hours: from }), now.plus({ hours: to }).startOf('minute')];
	return {
		quietHours: `${start.toFormat('HH:mm')}-${end.toFormat('HH:mm')}`,
		end: end.toUTC().toFormat("yyyy-MM-dd'T'HH:mm'Z'"),
	};
}

describe('compliance: opt-out wording and quiet hours', () => {
	const fixture = sharedFixture();

	describe('Opt-Out Text', () => {
		it('is appended once on its own line, and a text that already ends with it is sent as it is', async () => {
			const f = fixture();
			const items = itemsOf(2, (i) => ({
				text: i === 0 ? 'Spring sale: 20% off' : `Spring sale\n${FOOTER}`,
			}));
			const result = await f.run(
				{ ...SEND, text: '={{ $json.text }}', options: { optOutText: FOOTER } },
				items,
			);
			expect(result.error).toBeUndefined();
			expect(f.sim.campaigns.map((c) => c.body.text)).toEqual([
				`Spring sale: 20% off\n${FOOTER}`,
				`Spring sale\n${FOOTER}`,
			]);
			expect(jsonOf(result.items).map((o) => o.warnings)).toEqual([[], []]);
		});

		it('counts in the parts and credits, and Dry Run shows it in the request body', async () => {
			const f = fixture();
			// 140 characters: one part alone, two with the 30 of the footer and its line break.
			const text = 'a'.repeat(140);
			const result = await f.run({
				...SEND,
				text,
				options: { optOutText: FOOTER, dryRun: true },
			});
			expect(result.error).toBeUndefined();
			const [out] = jsonOf(result.items);
			expect(out.requests[0].body.text).toBe(`${text}\n${FOOTER}`);
			expect(out.text).toMatchObject({
				characters: 170,
				segments: 2,
				estimatedCredits: 4,
			});
			expect(out.campaign.estimatedCredits).toBe(4);
			expect(f.sim.count('POST', '/api/v2/Campaign')).toBe(0);
		});

		it('the 2,000-character limit applies to the text with it, and nothing is sent', async () => {
			const f = fixture();
			const result = await f.run({
				...SEND,
				text: 'a'.repeat(1980),
				options: { optOutText: FOOTER },
			});
			expect(result.error?.message).toBe(
				'Text is too long: 2010 characters, the limit is 2000 (with the Opt-Out Text) (item 0)',
			);
			expect(f.sim.count('POST', '/api/v2/Campaign')).toBe(0);
		});
	});

	describe('Message Type', () => {
		it('a marketing text without opt-out wording is sent with a warning', async () => {
			const f = fixture();
			const result = await f.run({ ...SEND, text: 'Spring sale: 20% off' });
			expect(result.error).toBeUndefined();
			expect(f.sim.campaigns).toHaveLength(1);
			expect(jsonOf(result.items)[0].warnings).toEqual([expect.stringMatching(MISSING)]);
		});

		it.each([
			['the text names STOP', { text: 'Sale! Reply STOP to end' }],
			['Opt-Out Text is set', { text: 'Sale!', options: { optOutText: FOOTER } }],
			[
				'Message Type is Transactional',
				{
					text: 'Your appointment is at 10:00',
					options: { messageType: 'transactional' },
				},
			],
		])('no warning when %s', async (_name, parameters) => {
			const f = fixture();
			const result = await f.run({ ...SEND, ...parameters });
			expect(jsonOf(result.items)[0].warnings).toEqual([]);
		});

		it('with Missing Opt-Out Wording = Fail, the run stops before sending, naming the option and the item', async () => {
			const f = fixture();
			const items = itemsOf(2, (i) => ({
				text: i === 0 ? 'Sale! Text STOP to 50123' : 'Sale!',
			}));
			const result = await f.run(
				{
					...SEND,
					text: '={{ $json.text }}',
					options: { missingOptOut: 'fail' },
				},
				items,
			);
			expect(result.error?.message).toMatch(
				/^Missing Opt-Out Wording: Message Type is Marketing but the text offers no way to opt out .*\(item 1\)$/,
			);
			expect(result.error?.description).toMatch(/Nothing was sent/);
			expect(f.sim.count('POST', '/api/v2/Campaign')).toBe(0);
		});
	});

	describe('Quiet Hours', () => {
		it('a Send inside them becomes a campaign scheduled for their end, in UTC, and the output says so', async () => {
			const f = fixture();
			const { quietHours, end } = quietWindow(-1, 1);
			const result = await f.run({
				...SEND,
				text: 'Sale! Text STOP to 50123',
				options: { quietHours },
			});
			expect(result.error).toBeUndefined();
			expect(f.sim.campaigns.map((c) => c.body.sendAt)).toEqual([end]);
			const [out] = jsonOf(result.items);
			expect(out.campaign.sendAt).toBe(end);
			expect(out.warnings).toEqual([
				expect.stringMatching(
					new RegExp(
						`^Quiet Hours ${quietHours} in the recipients' time zones \\(Europe/Dublin\\): Sending now \\(.*\\) falls inside them, so the campaign is scheduled for .* local time \\(sendAt ${end}\\)$`,
					),
				),
			]);
		});

		it('a Send planned just before them but posted inside them: that request is scheduled for their end', async () => {
			const f = fixture();
			// Quiet Hours begin at the next minute: the run plans before them, its first request is held
			// by the provider until they have begun, so its second request is posted inside them.
			if (DateTime.utc().second >= 55) await new Promise((resolve) => setTimeout(resolve, 6_000));
			const start = DateTime.utc().plus({ minutes: 1 }).startOf('minute');
			const end = start.plus({ hours: 2 });
			f.sim.injectFault('/api/v2/Campaign', {
				kind: 'delay',
				ms: start.toMillis() - Date.now() + 500,
			});
			const result = await f.run({
				...SEND,
				text: 'Doors open at 8',
				options: {
					quietHours: `${start.toFormat('HH:mm')}-${end.toFormat('HH:mm')}`,
					quietHoursTimeZone: 'UTC',
					batchSize: 1,
					parallelRequests: 1,
					messageType: 'transactional',
				},
			});
			expect(result.error).toBeUndefined();
			const endWire = end.toFormat("yyyy-MM-dd'T'HH:mm'Z'");
			expect(f.sim.campaigns.map((c) => c.body.sendAt ?? null)).toEqual([null, endWire]);
			expect(jsonOf(result.items)[0].warnings).toEqual([
				`Quiet Hours ${start.toFormat('HH:mm')}-${end.toFormat('HH:mm')} UTC: 1 request(s) were about to be posted inside them, so they were scheduled for their end (sendAt ${endWire})`,
			]);
		}, 90_000);

		it('with no time zone named, an Irish number is judged in Dublin time on an n8n set to New York', async () => {
			const f = fixture();
			f.engine.timezone = 'America/New_York';
			// Quiet now in Dublin; in New York (5 hours behind) this window lies elsewhere in the day.
			const { quietHours, end } = quietWindow(-1, 1);
			const result = await f.run({
				...SEND,
				recipients: '0871234567',
				text: 'Doors open at 8',
				options: { quietHours, messageType: 'transactional' },
			});
			expect(result.error).toBeUndefined();
			expect(f.sim.campaigns.map((c) => c.body.sendAt)).toEqual([end]);
			expect(jsonOf(result.items)[0].campaign.quietHours).toBe(
				`${quietHours} in the recipients' time zones (Europe/Dublin)`,
			);
		});

		it("a number of a country with several zones is judged in the workflow's zone, with a warning", async () => {
			const f = fixture();
			f.engine.timezone = 'Europe/Dublin';
			const { quietHours, end } = quietWindow(-1, 1);
			const result = await f.run({
				...SEND,
				recipients: '+12125550100',
				text: 'Doors open at 8',
				options: { quietHours, messageType: 'transactional' },
			});
			expect(f.sim.campaigns.map((c) => c.body.sendAt)).toEqual([end]);
			expect(jsonOf(result.items)[0].warnings).toEqual(
				expect.arrayContaining([
					"Quiet Hours: 1 recipient(s) are in a country with no single time zone, so their Quiet Hours are judged in the workflow's (Europe/Dublin); set Quiet Hours Time Zone to choose one",
				]),
			);
		});

		it('a Send outside them goes out now', async () => {
			const f = fixture();
			const { quietHours } = quietWindow(2, 4);
			const result = await f.run({
				...SEND,
				text: 'Sale! Text STOP to 50123',
				options: { quietHours },
			});
			expect(result.error).toBeUndefined();
			expect(f.sim.campaigns[0].body.sendAt).toBeUndefined();
			expect(jsonOf(result.items)[0].warnings).toEqual([]);
		});

		it.each([
			[
				'23:30 GMT on 30 March → 08:00 IST, after the clocks go forward',
				'2030-03-30T23:30',
				'2030-03-31T07:00Z',
			],
			[
				'23:30 IST on 26 October → 08:00 GMT, after the clocks go back',
				'2030-10-26T23:30',
				'2030-10-27T08:00Z',
			],
			['07:00 on 27 October → 08:00 GMT that morning', '2030-10-27T07:00', '2030-10-27T08:00Z'],
			['12:00 on 31 March is outside: unchanged', '2030-03-31T12:00', '2030-03-31T11:00Z'],
		])('a Schedule in Europe/Dublin at %s', async (_name, sendAt, wire) => {
			const f = fixture();
			f.engine.timezone = 'Europe/Dublin';
			const result = await f.run({
				...SCHEDULE,
				text: 'Reminder',
				sendAt,
				options: { quietHours: '21:00-08:00', messageType: 'transactional' },
			});
			expect(result.error).toBeUndefined();
			expect(f.sim.campaigns.map((c) => c.body.sendAt)).toEqual([wire]);
			expect(jsonOf(result.items)[0].campaign.sendAt).toBe(wire);
		});

		it('says when a Schedule was moved', async () => {
			const f = fixture();
			const result = await f.run({
				...SCHEDULE,
				text: 'Reminder',
				sendAt: '2030-10-26T23:30+01:00',
				options: {
					quietHours: '21:00-08:00',
					quietHoursTimeZone: 'Europe/Dublin',
					messageType: 'transactional',
				},
			});
			expect(jsonOf(result.items)[0].warnings).toEqual([
				'Quiet Hours 21:00-08:00 Europe/Dublin: Send At 2030-10-26 23:30 falls inside them, so the campaign is scheduled for 2030-10-27 08:00 local time (sendAt 2030-10-27T08:00Z)',
			]);
		});

		it.each([
			[
				{ quietHours: '9pm-8am' },
				'Quiet Hours "9pm-8am" is not a window such as 21:00-08:00 (24-hour clock) (item 0)',
			],
			[
				{ quietHours: '21:00-08:00', quietHoursTimeZone: 'Dublin' },
				'Quiet Hours Time Zone "Dublin" is not a time zone; use a name such as Europe/Dublin (item 0)',
			],
		])('refuses %j before sending', async (options, message) => {
			const f = fixture();
			const result = await f.run({
				...SEND,
				text: 'Sale! Text STOP to 50123',
				options,
			});
			expect(result.error?.message).toBe(message);
			expect(f.sim.count('POST', '/api/v2/Campaign')).toBe(0);
		});
	});
});
