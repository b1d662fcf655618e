import { waitAfterTooMany } from '../../../../../../nodes/Phonovation/resources/campaign/pipeline/tooManyRequests';

// README: a 429's Retry-After is waited out, at most 60 s; 5 s when the header is missing.
const NOW = new Date('2030-03-28T12:00:00Z');
const later = (seconds: number) => new Date(NOW.getTime() + seconds * 1000).toUTCString();

describe('waiting after a 429', () => {
	it.each([
		['no Retry-After', undefined, 5],
		['an empty one', '', 5],
		['a blank one', '   ', 5],
		['seconds', '7', 7],
		['seconds with spaces around', ' 7 ', 7],
		['fractional seconds', '1.5', 1.5],
		['zero', '0', 0],
		['the longest wait, 60 s', '60', 60],
		['an HTTP date 30 s ahead', later(30), 30],
		['an HTTP date already past', new Date(NOW.getTime() - 5000).toUTCString(), 0],
		['an HTTP date exactly 60 s ahead', later(60), 60],
		['something unreadable', 'soon', 5],
	])('%s: waits %p s', (_name, retryAfter, seconds) => {
		expect(waitAfterTooMany(retryAfter, NOW)).toBe(seconds);
	});

	it('rounds a date part-way into a second up, so the wait is never too short', () => {
		// 10.2 s before the date the provider gave.
		expect(waitAfterTooMany(later(10), new Date(NOW.getTime() - 200))).toBe(11);
	});

	it.each([
		['61 s', '61'],
		['60.5 s', '60.5'],
		['an HTTP date 61 s ahead', later(61)],
		['an hour', '3600'],
	])("does not wait for %s: the request fails with the provider's answer", (_name, retryAfter) => {
		expect(waitAfterTooMany(retryAfter, NOW)).toBeNull();
	});
});
