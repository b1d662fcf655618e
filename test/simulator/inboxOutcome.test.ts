import { LoopbackServer } from '../harness/loopback';
import { inboxOutcome } from './inboxOutcome';

/** `simulator:reply --n8n <url>` pointed at a user's own n8n, which refuses the demo owner's login. */
describe('simulator: --n8n on an n8n other than the demo', () => {
	let n8n: LoopbackServer;
	let url: string;
	beforeAll(async () => {
		n8n = new LoopbackServer((request, response) => {
			response.statusCode = 401;
			response.setHeader('content-type', 'application/json');
			response.end(JSON.stringify({ code: 401, message: 'Wrong username or password' }));
		});
		url = await n8n.start();
	});
	afterAll(async () => {
		await n8n.stop();
	});

	it('says the relay went through and where to look, instead of failing', async () => {
		const line = await inboxOutcome(url, Date.now(), 'Deliver to Waiting Question');
		expect(line).toContain('The relay went through');
		expect(line).toContain("inbox workflow's Executions");
		expect(n8n.requests.map((r) => r.path)).toEqual(['/rest/login']);
	});
});
