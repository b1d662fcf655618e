import { TYPES, useE2eEnvironment } from './support/environment';

/** Scenario 7: the credential's "Test" button in n8n's editor, against the simulator. */
describe('credential test in n8n', () => {
	const suite = useE2eEnvironment();

	suite.it(
		'says OK for the simulator’s username and password',
		async ({ client, credential, sim }) => {
			sim.reset();
			const result = await client.testCredential(credential);
			expect(result).toEqual({ status: 'OK', message: expect.any(String) });
			expect(sim.count('POST', '/token')).toBe(1);
			expect(sim.count('GET', '/api/v2/senderlist')).toBe(1);
		},
	);

	suite.it(
		'fails clearly for a wrong password, without showing it',
		async ({ client, createCredential, sim }) => {
			const wrongPassword = 'Not-The-Password-4417';
			const credential = await createCredential('Phonovation (wrong password)', {
				password: wrongPassword,
			});
			sim.reset();
			const result = await client.testCredential(credential);
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/refused the username or password/i);
			expect(result.message).not.toContain(wrongPassword);
			expect(sim.count('GET', '/api/v2/senderlist')).toBe(0);
		},
	);

	suite.it(
		'fails clearly when the Auth URL points nowhere',
		async ({ client, createCredential }) => {
			const credential = await createCredential('Phonovation (no token server)', {
				authUrl: 'http://127.0.0.1:9',
			});
			const result = await client.testCredential(credential);
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(
				/Could not log in to Phonovation at http:\/\/127\.0\.0\.1:9\/token/,
			);
			expect(credential.type).toBe(TYPES.credential);
		},
	);
});
