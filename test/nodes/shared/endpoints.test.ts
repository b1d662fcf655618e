import {
	assertSecureEndpoints,
	endpoint,
	InsecureEndpointError,
	safeUrl,
	secureEndpoint,
	shown,
} from '../../../nodes/shared/endpoints';

describe('credential URLs joined with a path', () => {
	it.each([
		['as entered', 'https://auth.interactsms.com', 'https://auth.interactsms.com/token'],
		[
			'with a trailing slash',
			'https://auth.interactsms.com/',
			'https://auth.interactsms.com/token',
		],
		['with several trailing slashes', 'http://127.0.0.1:8080///', 'http://127.0.0.1:8080/token'],
		[
			'with a path of its own',
			'https://secure.interactsms.com/api/v1/',
			'https://secure.interactsms.com/api/v1/token',
		],
	])('%s', (_name, base, url) => {
		expect(endpoint(base, '/token')).toBe(url);
	});

	it('an empty field gives the path alone, never "undefined" or "null"', () => {
		expect(endpoint(undefined, '/token')).toBe('/token');
		expect(endpoint(null, '/token')).toBe('/token');
		expect(endpoint('', '/token')).toBe('/token');
	});
});

describe('which credential URLs may carry a secret (https, or http to this machine or a private network)', () => {
	it.each([
		['https to a public host', 'https://auth.interactsms.com'],
		['https to a public IP', 'https://203.0.113.7:8443/api'],
		['http to 127.0.0.1, the local simulator', 'http://127.0.0.1:8080'],
		['http anywhere in 127/8', 'http://127.255.0.9'],
		['http to localhost, in capitals', 'HTTP://LOCALHOST:3000'],
		['http to IPv6 loopback', 'http://[::1]:8080'],
		['http to 10/8', 'http://10.0.0.5'],
		['http to the first of 172.16/12', 'http://172.16.0.1'],
		['http to the last of 172.16/12', 'http://172.31.255.254'],
		['http to 192.168/16', 'http://192.168.1.20:8080/api/v1'],
		['http to IPv6 unique-local fc00::/7 (fc..)', 'http://[fc00::1]'],
		['http to IPv6 unique-local fc00::/7 (fd..)', 'http://[fd12:3456:789a::1]:8080'],
		['http with a user name before a private host', 'http://user@10.0.0.1'],
		['http to 127.0.0.1 written as one number (parsed to 127.0.0.1)', 'http://2130706433'],
	])('accepts %s', (_name, url) => {
		expect(safeUrl(url)).toBeDefined();
	});

	it.each([
		['http to a public host', 'http://example.com'],
		['http to a public IP', 'http://8.8.8.8'],
		['http to a host named like a loopback address', 'http://127.0.0.1.example.com'],
		['http to a host that only starts with localhost', 'http://localhost.example.com'],
		['http to a subdomain of localhost (not every resolver keeps it local)', 'http://a.localhost'],
		['http to 172.32.0.1, just past 172.16/12', 'http://172.32.0.1'],
		['http to 172.15.255.255, just before 172.16/12', 'http://172.15.255.255'],
		['http to link-local 169.254/16 (cloud metadata)', 'http://169.254.169.254'],
		['http to IPv6 link-local fe80::/10', 'http://[fe80::1]'],
		['http to [fc::1], which is 0x00fc, not fc00::/7', 'http://[fc::1]'],
		['http to IPv4-mapped IPv6', 'http://[::ffff:127.0.0.1]'],
		['http to 0.0.0.0', 'http://0.0.0.0'],
		['http whose private-looking part is only the user name', 'http://10.0.0.1@example.com'],
		['http whose private-looking part is only the password', 'http://user:10.0.0.1@example.com'],
		['ftp', 'ftp://files.interactsms.com'],
		['javascript:', 'javascript:alert(1)'],
		['file:', 'file:///etc/passwd'],
		['ws to a private host', 'ws://10.0.0.5'],
		['a host name without a scheme', 'auth.interactsms.com'],
		['https without a host', 'https://'],
		['an empty value', ''],
	])('refuses %s', (_name, url) => {
		expect(safeUrl(url)).toBeUndefined();
	});
});

describe('secureEndpoint: the request URL from a credential field, or an error naming the field', () => {
	const rule =
		'must start with https:// (http:// is allowed only for this machine or a private network, such as the local simulator)';

	it('joins the field and the path, trimming spaces and trailing slashes', () => {
		expect(
			secureEndpoint({ authUrl: ' https://auth.interactsms.com/ ' }, 'authUrl', '/token'),
		).toBe('https://auth.interactsms.com/token');
		expect(
			secureEndpoint({ baseUrl: 'http://127.0.0.1:8080' }, 'baseUrl', '/api/v2/senderlist'),
		).toBe('http://127.0.0.1:8080/api/v2/senderlist');
		expect(
			secureEndpoint(
				{ legacyBaseUrl: 'HTTP://LOCALHOST:8080/api/v1' },
				'legacyBaseUrl',
				'/sendmessage.aspx',
			),
		).toBe('http://localhost:8080/api/v1/sendmessage.aspx');
	});

	it('returns the URL it checked, so the request goes where the check looked', () => {
		// WHATWG URL reads a backslash as a slash: the host is 127.0.0.1, whatever an older parser thinks.
		expect(
			secureEndpoint({ baseUrl: 'http://127.0.0.1\\@example.com' }, 'baseUrl', '/health'),
		).toBe('http://127.0.0.1/@example.com/health');
	});

	it.each([
		['authUrl', 'Auth URL', 'http://example.com'],
		['baseUrl', 'Base URL', 'http://api.example.com'],
		['legacyBaseUrl', 'Legacy Base URL', 'http://169.254.169.254/api/v1'],
	] as const)('refuses an unsafe %s, naming its label and the value', (field, label, value) => {
		expect(() => secureEndpoint({ [field]: value }, field, '/x')).toThrow(
			new InsecureEndpointError(`The credential's ${label} ${rule}: ${value}`),
		);
	});

	it('shows an empty field as (empty) and a scheme-less one as typed', () => {
		expect(() => secureEndpoint({}, 'authUrl', '/token')).toThrow(
			`The credential's Auth URL ${rule}: (empty)`,
		);
		expect(() => secureEndpoint({ authUrl: 'auth.interactsms.com' }, 'authUrl', '/token')).toThrow(
			`The credential's Auth URL ${rule}: auth.interactsms.com`,
		);
	});

	it('never shows a user name or password written into the URL', () => {
		let message = '';
		try {
			secureEndpoint({ baseUrl: 'http://admin:Url-Secret-55@api.example.com' }, 'baseUrl', '/x');
		} catch (error) {
			message = (error as Error).message;
		}
		expect(message).toBe(`The credential's Base URL ${rule}: http://***@api.example.com`);
	});

	it('checks every URL field, the Auth URL first', () => {
		const safe = {
			authUrl: 'https://a.example',
			baseUrl: 'https://b.example',
			legacyBaseUrl: 'http://10.1.1.1/api/v1',
		};
		expect(() => assertSecureEndpoints(safe)).not.toThrow();
		expect(() => assertSecureEndpoints({ ...safe, legacyBaseUrl: 'http://c.example' })).toThrow(
			/Legacy Base URL/,
		);
		expect(() =>
			assertSecureEndpoints({ ...safe, baseUrl: 'ftp://b.example', authUrl: 'http://a.example' }),
		).toThrow(/^The credential's Auth URL /);
	});
});

describe('shown: a URL fit for an error message', () => {
	it.each([
		['http://user:pass@host/x', 'http://***@host/x'],
		['https://token@host', 'https://***@host'],
		['user:pass@host', '***@host'],
		['https://host/path@not-userinfo', 'https://host/path@not-userinfo'],
		['https://host', 'https://host'],
	])('%s → %s', (url, expected) => {
		expect(shown(url)).toBe(expected);
	});
});
