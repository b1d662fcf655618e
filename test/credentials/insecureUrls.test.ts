import { PhonovationApi } from '../../credentials/PhonovationApi.credentials';
import { CredentialTestNode } from '../harness/credential-test-node';
import { Engine } from '../harness/engine';
import { phonovationFixture, type PhonovationFixture } from '../nodes/Phonovation/fixture';
import { simulatorCredentialData } from '../simulator';

const RULE =
	'must start with https:// (http:// is allowed only for this machine or a private network, such as the local simulator)';
/** Distinctive, so any trace of it in an error is found. */
const PASSWORD = 'Url-Check-Secret-2290';

/**
 * The simulator on http://127.0.0.1 stands for the provider; one URL field at a time points at a
 * public host over plain http. Nothing there is contacted: the refusal comes before any request, so
 * the simulator's log shows whether anything, the login included, went out.
 */
describe('credential URLs over plain http to a public host are refused before anything is sent', () => {
	let f: PhonovationFixture;
	beforeAll(async () => {
		f = await phonovationFixture({ senders: [{ name: 'Acme', type: 0 }], password: PASSWORD });
	});
	beforeEach(() => f.reset());
	afterAll(async () => await f.stop());

	const store = (overrides: Record<string, string>, accessToken = '') =>
		f.engine.credentials.set('cred-1', {
			...simulatorCredentialData(f.sim),
			accessToken,
			...overrides,
		});
	const listSenders = () => f.run({ resource: 'sender', operation: 'getAll' });

	it('the simulator itself, on http://127.0.0.1, is accepted', async () => {
		const result = await listSenders();
		expect(result.error).toBeUndefined();
		expect(result.items.map((i) => i.json.name)).toEqual(['Acme']);
	});

	it('an http Auth URL on a public host: the login is refused naming Auth URL, and the password goes nowhere', async () => {
		store({ authUrl: 'http://auth.example.com' });
		const result = await listSenders();
		expect(result.error?.message).toBe(
			`The credential's Auth URL ${RULE}: http://auth.example.com`,
		);
		expect(f.sim.requests).toEqual([]);
		expect(JSON.stringify(result.error)).not.toContain(PASSWORD);
	});

	it('an http Base URL on a public host is refused at login, naming Base URL, before the password is sent', async () => {
		store({ baseUrl: 'http://api.example.com' });
		const result = await listSenders();
		expect(result.error?.message).toBe(`The credential's Base URL ${RULE}: http://api.example.com`);
		expect(f.sim.requests).toEqual([]);
	});

	it('an http Base URL on a public host is refused with a stored token too, so the token goes nowhere', async () => {
		store({ baseUrl: 'http://api.example.com' }, 'stored-token-abc');
		const result = await listSenders();
		expect(result.error?.message).toBe(`The credential's Base URL ${RULE}: http://api.example.com`);
		expect(JSON.stringify(result.error)).not.toContain('stored-token-abc');
		expect(f.sim.requests).toEqual([]);
	});

	it('a campaign with an http Base URL on a public host is refused before any number or token is sent', async () => {
		store({ baseUrl: 'http://api.example.com' }, 'stored-token-abc');
		const result = await f.run({
			resource: 'campaign',
			operation: 'send',
			from: 'Acme',
			recipients: '0871234567',
			text: 'Hi',
		});
		expect(result.error?.message).toBe(`The credential's Base URL ${RULE}: http://api.example.com`);
		expect(f.sim.requests).toEqual([]);
	});

	it('the Sender dropdown in the editor shows the same refusal', async () => {
		store({ baseUrl: 'http://api.example.com' }, 'stored-token-abc');
		await expect(
			f.engine.loadOptions(f.node({ resource: 'campaign', operation: 'send' }), 'getSenders'),
		).rejects.toThrow(`The credential's Base URL ${RULE}: http://api.example.com`);
		expect(f.sim.requests).toEqual([]);
	});

	it('an http Legacy Base URL on a public host stops the legacy send, whose form carries the password', async () => {
		store({ legacyBaseUrl: 'http://legacy.example.com/api/v1' });
		const result = await f.run({
			resource: 'legacyMessage',
			operation: 'send',
			from: 'Acme',
			to: '0871234567',
			text: 'Hi',
		});
		expect(result.error?.message).toBe(
			`The credential's Legacy Base URL ${RULE}: http://legacy.example.com/api/v1`,
		);
		expect(JSON.stringify(result.error)).not.toContain(PASSWORD);
		expect(f.sim.requests).toEqual([]);
	});

	it('an unsafe Legacy Base URL fails the login too, though the sender list does not use it: a Test click shows it', async () => {
		store({ legacyBaseUrl: 'http://legacy.example.com/api/v1' });
		const result = await listSenders();
		expect(result.error?.message).toBe(
			`The credential's Legacy Base URL ${RULE}: http://legacy.example.com/api/v1`,
		);
		expect(f.sim.requests).toEqual([]);
	});

	it('Check Health with an http Base URL on a public host fails instead of reporting the service unhealthy', async () => {
		store({ baseUrl: 'http://api.example.com' });
		const result = await f.run({ resource: 'service', operation: 'checkHealth' });
		expect(result.error?.message).toBe(`The credential's Base URL ${RULE}: http://api.example.com`);
		expect(f.sim.requests).toEqual([]);
	});

	it.each([
		['Auth URL', 'ftp://auth.example.com', 'authUrl'],
		['Base URL', 'javascript:alert(1)', 'baseUrl'],
		['Auth URL', 'http://169.254.169.254', 'authUrl'],
	])('refuses the %s %s (not http(s), or link-local)', async (label, value, field) => {
		store({ [field]: value });
		const result = await listSenders();
		expect(result.error?.message).toBe(`The credential's ${label} ${RULE}: ${value}`);
		expect(f.sim.requests).toEqual([]);
	});

	it("the credential's Test button fails with the same message, before any request", async () => {
		const credential = new PhonovationApi();
		const engine = new Engine({
			nodeTypes: { credentialTest: new CredentialTestNode(credential) },
			credentialTypes: [credential],
		});
		engine.credentials.set('cred-test', {
			...simulatorCredentialData(f.sim),
			baseUrl: 'http://api.example.com',
			accessToken: '',
		});
		const result = await engine.runNode(
			{
				id: 'test',
				name: 'test',
				type: 'credentialTest',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
				credentials: { phonovationApi: { id: 'cred-test', name: 'Phonovation' } },
			},
			[{ json: {} }],
		);
		expect(result.error?.message).toBe(`The credential's Base URL ${RULE}: http://api.example.com`);
		expect(f.sim.requests).toEqual([]);
	});
});
