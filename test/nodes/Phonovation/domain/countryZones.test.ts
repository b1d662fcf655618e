import { zoneOfNumber } from '../../../../nodes/Phonovation/domain/countryZones';

describe("a recipient's time zone from their number", () => {
	it.each([
		['353871234567', 'Europe/Dublin'],
		['447911123456', 'Europe/London'],
		['33612345678', 'Europe/Paris'],
		['4915112345678', 'Europe/Berlin'],
		['35840123456', 'Europe/Helsinki'],
	])('%s is in %s', (msisdn, zone) => {
		expect(zoneOfNumber(msisdn)).toBe(zone);
	});

	it.each(['12125550100', '79161234567', '61412345678', '5511912345678'])(
		'%s is in a country with several zones: none',
		(msisdn) => {
			expect(zoneOfNumber(msisdn)).toBeUndefined();
		},
	);
});
