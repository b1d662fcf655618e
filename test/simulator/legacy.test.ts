import { type Simulator, startSimulator } from './index';
import { call, form } from './test-helpers';

const PASSWORD = 'Legacy-Pass-5521';
const valid = {
	user: 'acme',
	password: PASSWORD,
	api_id: '9876',
	to: '353879999999',
	text: 'Hello World',
	from: 'Phonovation',
};

describe('simulator: legacy sendmessage.aspx', () => {
	let sim: Simulator;

	beforeEach(async () => {
		sim = await startSimulator({ username: 'acme', password: PASSWORD, apiId: '9876' });
	});
	afterEach(async () => sim.stop());

	const post = (fields: Record<string, string>, path = '/api/v1/sendmessage.aspx') =>
		call(`${sim.url}${path}`, {
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: form(fields),
		});

	it('accepts a form POST with HTTP 200 and "0 Request deferred successfully", and records it without the password', async () => {
		const response = await post({ ...valid, notify_id: 'n-1' });
		expect(response.status).toBe(200);
		expect(response.headers['content-type']).toMatch(/^text\/plain/);
		expect(response.text).toBe('0\nRequest deferred successfully\n');
		expect(sim.legacySends).toEqual([
			{
				id: 1,
				receivedAt: expect.any(String),
				form: { ...valid, password: '***', notify_id: 'n-1' },
				status: 'sent',
			},
		]);
		expect(JSON.stringify(sim.legacySends)).not.toContain(PASSWORD);
	});

	it('accepts GET with a query string, and the short /sendmessage.aspx path', async () => {
		const viaGet = await call(`${sim.url}/api/v1/sendmessage.aspx?${form(valid)}`);
		expect(viaGet.text).toBe('0\nRequest deferred successfully\n');
		expect((await post(valid, '/sendmessage.aspx')).text).toBe(
			'0\nRequest deferred successfully\n',
		);
		expect(sim.legacySends.map((s) => s.id)).toEqual([1, 2]);
		expect(sim.requests.map((r) => r.path)).toEqual([
			'/api/v1/sendmessage.aspx',
			'/sendmessage.aspx',
		]);
	});

	it("accepts the knowledgebase's spelling (User, Api_id, NotifyID, DeliveryTime) and records a hold as scheduled", async () => {
		const response = await post({
			User: 'acme',
			Password: PASSWORD,
			Api_id: '9876',
			To: '353879999999',
			Text: 'HelloWorld',
			From: 'Phonovation',
			DeliveryTime: '5',
			NotifyID: '321354',
		});
		expect(response.text).toBe('0\nRequest deferred successfully\n');
		expect(sim.legacySends[0].status).toBe('scheduled');
		expect(sim.legacySends[0].form.NotifyID).toBe('321354');
	});

	it.each([
		['a wrong password', { password: 'nope' }, '1', /authentication failed/i],
		['an unknown user', { user: 'someone' }, '1', /authentication failed/i],
		['no credentials', { user: '', password: '' }, '1', /authentication failed/i],
		['a wrong api_id', { api_id: '1111' }, '2', /api_id/],
		['no to', { to: '' }, '3', /Missing parameter: to$/],
		['no text and no from', { text: '', from: '' }, '3', /Missing parameter: text, from$/],
		['a landline number', { to: '35312345678' }, '4', /Invalid destination number: 35312345678/],
		['a malformed number', { to: '+353879999999' }, '4', /Invalid destination number/],
		['an unknown sender', { from: 'Stranger' }, '5', /Sender not allowed: Stranger/],
		[
			'a text of 161 characters',
			{ text: 'x'.repeat(161) },
			'6',
			/^Text longer than 160 characters \(got 161\)$/,
		],
		[
			'a raw line break in the text',
			{ text: 'Line 1\nLine 2' },
			'6',
			/^Text contains a line break: send it as ¬$/,
		],
	])(
		'answers %s with HTTP 200, code %s and a message, recording nothing',
		async (_name, change, code, message) => {
			const response = await post({ ...valid, ...change });
			expect(response.status).toBe(200);
			const [first, second, rest] = response.text.split('\n');
			expect(first).toBe(code);
			expect(second).toMatch(message);
			expect(rest).toBe('');
			expect(response.text).not.toContain(PASSWORD);
			expect(sim.legacySends).toEqual([]);
		},
	);

	it('accepts 160 characters, and line breaks sent as ¬', async () => {
		expect((await post({ ...valid, text: 'x'.repeat(160) })).text).toMatch(/^0\n/);
		expect((await post({ ...valid, text: 'Line 1¬Line 2' })).text).toMatch(/^0\n/);
		expect(sim.legacySends.map((s) => s.form.text)).toEqual(['x'.repeat(160), 'Line 1¬Line 2']);
	});

	it('accepts a comma-separated list of numbers but refuses it when one is invalid', async () => {
		expect((await post({ ...valid, to: '353879999999,447911123456' })).text).toMatch(/^0\n/);
		expect((await post({ ...valid, to: '353879999999,0112345678' })).text).toBe(
			'4\nInvalid destination number: 0112345678\n',
		);
	});
});
