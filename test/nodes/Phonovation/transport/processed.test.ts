import {
	confirmsAcceptance,
	mayHaveBeenProcessed,
	neverOpened,
	provesRefusal,
} from '../../../../nodes/Phonovation/transport/processed';

describe('may the provider have processed this request?', () => {
	it.each([400, 401, 404, 415, 422, 429])(
		'HTTP %i is the provider refusing it: it may be repeated',
		(status) => {
			expect(mayHaveBeenProcessed({ status, message: '' })).toBe(false);
		},
	);

	it.each([500, 502, 504, 520, 524])(
		'HTTP %i may come after processing, whatever its body',
		(status) => {
			expect(mayHaveBeenProcessed({ status, body: { success: false }, message: '' })).toBe(true);
		},
	);

	it("a 503 is a refusal only with the provider's own JSON success: false, not a proxy's page", () => {
		expect(
			mayHaveBeenProcessed({
				status: 503,
				body: { success: false, message: 'Service Unavailable', errors: [] },
				message: '',
			}),
		).toBe(false);
		expect(
			mayHaveBeenProcessed({
				status: 503,
				body: '<html>upstream reset before headers</html>',
				message: '',
			}),
		).toBe(true);
		expect(mayHaveBeenProcessed({ status: 503, body: { success: true }, message: '' })).toBe(true);
		expect(mayHaveBeenProcessed({ status: 503, message: '' })).toBe(true);
	});

	it.each([301, 302, 303, 307, 308])(
		'a redirect (HTTP %i, never followed) may come after processing',
		(status) => {
			expect(mayHaveBeenProcessed({ status, message: '' })).toBe(true);
		},
	);

	it.each([
		'ECONNREFUSED',
		'ENOTFOUND',
		'EAI_AGAIN',
		'DEPTH_ZERO_SELF_SIGNED_CERT',
		'ERR_TLS_CERT_ALTNAME_INVALID',
		'ERR_SSL_WRONG_VERSION_NUMBER',
	])('a connection that never opened (%s) never carried the request', (code) => {
		expect(neverOpened({ code, message: '' })).toBe(true);
		expect(mayHaveBeenProcessed({ code, message: '' })).toBe(false);
	});

	it('an unreachable host proves nothing was sent only when the connect call failed', () => {
		expect(mayHaveBeenProcessed({ code: 'EHOSTUNREACH', syscall: 'connect', message: '' })).toBe(
			false,
		);
		expect(mayHaveBeenProcessed({ code: 'EHOSTUNREACH', syscall: 'read', message: '' })).toBe(true);
		expect(mayHaveBeenProcessed({ code: 'ENETUNREACH', message: '' })).toBe(true);
	});

	it('EPROTO is a failed handshake only when OpenSSL says so, not a broken record on an open connection', () => {
		expect(
			mayHaveBeenProcessed({
				code: 'EPROTO',
				message: 'x',
				detail: 'write EPROTO …:wrong version number:…',
			}),
		).toBe(false);
		expect(
			mayHaveBeenProcessed({
				code: 'EPROTO',
				message: 'read EPROTO …:decryption failed or bad record mac:…',
			}),
		).toBe(true);
		expect(
			mayHaveBeenProcessed({ code: 'ERR_SSL_DECRYPTION_FAILED_OR_BAD_RECORD_MAC', message: '' }),
		).toBe(true);
	});

	it.each(['ECONNRESET', 'ETIMEDOUT', 'ECONNABORTED', 'ERR_CANCELED', 'EPIPE', undefined])(
		'%s (or nothing known) may have carried it',
		(code) => {
			expect(mayHaveBeenProcessed({ code, message: 'socket hang up' })).toBe(true);
		},
	);

	it('a body saying success: true is never a refusal, whatever the status', () => {
		expect(
			mayHaveBeenProcessed({
				status: 409,
				body: { success: true, message: 'Campaign queued' },
				message: '',
			}),
		).toBe(true);
	});

	it('a refused login never sent the request', () => {
		expect(mayHaveBeenProcessed({ loginFailed: true, message: 'refused' })).toBe(false);
	});

	it("only a 4xx or the provider's 503 proves a refusal by status", () => {
		expect(provesRefusal(418, '')).toBe(true);
		expect(provesRefusal(503, { success: false })).toBe(true);
		expect(provesRefusal(500, { success: false })).toBe(false);
		expect(provesRefusal(200, { success: false })).toBe(false);
	});

	it('a 2xx confirms acceptance only with success: true', () => {
		expect(confirmsAcceptance({ success: true, message: null, errors: [] })).toBe(true);
		for (const body of [
			{ success: false },
			{ success: 'true' },
			{},
			'',
			null,
			undefined,
			'OK',
			'{"success":true}',
		]) {
			expect(confirmsAcceptance(body)).toBe(false);
		}
	});
});
