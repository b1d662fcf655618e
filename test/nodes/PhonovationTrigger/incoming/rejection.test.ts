import {
	badRequest,
	notConfigured,
	REFUSAL_TEXT,
	RelayRejection,
	unauthorized,
} from '../../../../nodes/PhonovationTrigger/incoming/rejection';

describe('relay refusals', () => {
	it('say only a fixed text per status', () => {
		expect(REFUSAL_TEXT).toEqual({
			400: 'Bad request',
			401: 'Unauthorized',
			413: 'Payload too large',
		});
	});

	it('carry the status, a description for the log and who has something to fix', () => {
		expect(badRequest('Empty body')).toMatchObject({
			status: 400,
			detail: 'Empty body',
			source: 'request',
			message: 'Empty body',
		});
		expect(unauthorized('invalid SMS-Verify signature')).toMatchObject({
			status: 401,
			source: 'request',
		});
		expect(notConfigured('no Relay Secret')).toMatchObject({
			status: 401,
			detail: 'no Relay Secret',
			source: 'configuration',
		});
		const rejection = new RelayRejection(413, 'Body larger than 64 KiB');
		expect(rejection).toBeInstanceOf(Error);
		expect(rejection.name).toBe('RelayRejection');
		expect(rejection.source).toBe('request');
	});
});
