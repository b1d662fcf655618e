import { errorStrings, providerText } from '../../../../nodes/Phonovation/transport/failures';

describe("the provider's words", () => {
	it('errors as strings, objects (nested too) or nulls are read as text', () => {
		expect(
			errorStrings([
				'Invalid MSISDN: 3538',
				{ msisdn: '353871234511', error: 'Blacklisted' },
				null,
				'',
				{ recipient: { msisdn: '353871234512' }, reason: 'Opted out' },
				42,
			]),
		).toEqual([
			'Invalid MSISDN: 3538',
			'353871234511: Blacklisted',
			'353871234512: Opted out',
			'42',
		]);
		expect(errorStrings('one error')).toEqual(['one error']);
		expect(errorStrings(null)).toEqual([]);
	});

	it('a refusal listing 50,000 errors makes a short message that says how many more there are', () => {
		const errors = Array.from({ length: 50_000 }, (_, i) => ({
			msisdn: `3538712${String(i).padStart(5, '0')}`,
			error: 'Invalid',
		}));
		const text = providerText({ success: false, message: 'Error scheduling campaign', errors });
		expect(text.length).toBeLessThan(700);
		expect(text).toMatch(/^Error scheduling campaign: 353871200000: Invalid; .*; and 49980 more$/);
		expect(text).not.toContain('[object Object]');
	});
});

describe('long provider words are cut', () => {
	it('a 1 MB message and a lone error object', () => {
		expect(
			providerText({ success: false, message: 'x'.repeat(1_000_000) }).length,
		).toBeLessThanOrEqual(500);
		expect(errorStrings({ msisdn: '353871234511', error: 'Blacklisted' })).toEqual([
			'353871234511: Blacklisted',
		]);
	});
});
