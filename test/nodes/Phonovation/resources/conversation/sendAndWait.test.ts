import type { INodeExecutionData } from 'n8n-workflow';

import { simulatorCredentialData } from '../../../../simulator';
import { sharedFixture } from '../../fixture';

const CAMPAIGN = '/api/v2/Campaign';
const ASK = {
	resource: 'conversation',
	operation: 'sendAndWait',
	from: '353870000123',
	recipients: '0871234567',
	text: 'Reply YES to confirm',
	responseType: 'approval',
};

/** Mistakes Send and Wait for Reply catches before a question is texted (what it does after is tested in a real n8n, e2e). */
describe('Send and Wait for Reply: nothing is sent when the question cannot be answered', () => {
	const fixture = sharedFixture();

	it.each<[string, Record<string, unknown>, INodeExecutionData[], RegExp]>([
		['more than one item (n8n resumes one waiting node per execution)', {}, [{ json: {} }, { json: {} }], /asks one question per execution, and 2 items came in/],
		['an alphanumeric sender, which cannot be answered', { from: 'Phonovation' }, [{ json: {} }], /^Sender: "Phonovation" cannot receive replies/],
		['a number it cannot read', { recipients: 'call me' }, [{ json: {} }], /^To: "call me" is not a phone number/],
		['Default Country Code 35', { options: { defaultCountryCode: '35' } }, [{ json: {} }], /^Default Country Code: "35" is not a country calling code/],
	])('%s', async (_case, change, items, message) => {
		const f = fixture();
		const result = await f.run({ ...ASK, ...change }, items);
		expect(result.error?.message).toMatch(message);
		expect(f.sim.count('POST', CAMPAIGN)).toBe(0);
	});

	it('without a Relay Secret in the credential: the answer could not be proven', async () => {
		const f = fixture();
		f.engine.credentials.set('cred-1', { ...simulatorCredentialData(f.sim), accessToken: '', relaySecret: '' });
		const result = await f.run(ASK, [{ json: {} }]);
		expect(result.error?.message).toBe('Credential: set a Relay Secret; it proves that the answer came from the number asked');
		expect(f.sim.count('POST', CAMPAIGN)).toBe(0);
	});
});
