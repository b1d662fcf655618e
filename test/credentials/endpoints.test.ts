import { endpoint } from '../../credentials/endpoints';

describe('credential URLs joined with a path', () => {
	it.each([
		['as entered', 'https://auth.interactsms.com', 'https://auth.interactsms.com/token'],
		['with a trailing slash', 'https://auth.interactsms.com/', 'https://auth.interactsms.com/token'],
		['with several trailing slashes', 'http://127.0.0.1:8080///', 'http://127.0.0.1:8080/token'],
		['with a path of its own', 'https://secure.interactsms.com/api/v1/', 'https://secure.interactsms.com/api/v1/token'],
	])('%s', (_name, base, url) => {
		expect(endpoint(base, '/token')).toBe(url);
	});

	it('an empty field gives the path alone, never "undefined" or "null"', () => {
		expect(endpoint(undefined, '/token')).toBe('/token');
		expect(endpoint(null, '/token')).toBe('/token');
		expect(endpoint('', '/token')).toBe('/token');
	});
});
