import {
	SuppressionCache,
	suppressionOf,
} from '../../../../../../nodes/Phonovation/resources/campaign/pipeline/suppression';

describe('Exclude Numbers', () => {
	it("reads a list with the recipients' rules, adds the Irish number a spreadsheet lost its 0 from, and lists what it cannot read", () => {
		const suppression = suppressionOf('087 123 4567; 861234567\n+44 7911 123456, call me', '353');
		expect([...suppression.numbers].sort()).toEqual([
			'353861234567',
			'353871234567',
			'447911123456',
		]);
		expect(suppression.unreadable).toEqual([
			{ at: '', shown: 'call me', reason: 'contains letters' },
		]);
	});

	it("reads another node's whole items, as $('Opted-Out').all() gives them", () => {
		const items = [
			{ json: { phone: '0871234567' }, pairedItem: { item: 0 } },
			{ json: { phone: '353861234567.0' }, pairedItem: { item: 1 } },
		];
		expect([...suppressionOf(items, '353').numbers].sort()).toEqual([
			'353861234567',
			'353871234567',
		]);
	});

	it('reads national numbers with the Default Country Code', () => {
		expect([...suppressionOf('06 12 34 56 78', '33').numbers]).toEqual(['33612345678']);
	});

	it('an empty list excludes nothing', () => {
		expect(suppressionOf('', '353')).toEqual({ numbers: new Set(), unreadable: [] });
		expect(suppressionOf(undefined, '353')).toEqual({ numbers: new Set(), unreadable: [] });
	});

	it('a cache reads the same list once, and again when the list or the country code changes', () => {
		const cache = new SuppressionCache();
		const first = cache.get('0612345678', '33');
		expect(cache.get('0612345678', '33')).toBe(first);
		expect([...cache.get('0612345678', '353').numbers]).toEqual(['353612345678']);
		expect([...cache.get('0712345678', '33').numbers]).toEqual(['33712345678']);
		expect([...cache.get('0612345678', '33').numbers]).toEqual(['33612345678']);
	});
});
