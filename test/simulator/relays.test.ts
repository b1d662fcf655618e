import { createHash } from 'node:crypto';

import type { LoopbackServer } from '../harness/loopback';
import { receiptSignature, type Simulator, startSimulator } from './index';
import { accessToken, campaign, postCampaign, relayReceiver } from './test-helpers';

const SECRET = 'Relay-Secret-Under-Test';

/** The test's own MD5, independent of the simulator's signer. */
const md5 = (text: string) => createHash('md5').update(Buffer.from(text, 'utf8')).digest('hex');

/** The n-th received relay as decoded form fields. */
function formOf(receiver: LoopbackServer, index = 0): Record<string, string> {
	return Object.fromEntries(new URLSearchParams(receiver.requests[index].body));
}

describe('simulator: relays, receipts and processing results', () => {
	let sim: Simulator;
	let receiver: LoopbackServer;
	let relayUrl: string;

	beforeEach(async () => {
		({ server: receiver, url: relayUrl } = await relayReceiver());
		sim = await startSimulator({ relaySecret: SECRET, relayUrl });
	});
	afterEach(async () => {
		await sim.stop();
		await receiver.stop();
	});

	it('signs receipts like the provider\'s documented example: md5("321354"+"true"+"Password1")', async () => {
		expect(receiptSignature('321354', true, 'Password1')).toBe('9db038748b3088971d913616c13e769b');
		const documented = await startSimulator({ relaySecret: 'Password1', relayUrl });
		try {
			await documented.sendReceipt({ notifyId: '321354', success: true });
			expect(formOf(receiver)).toMatchObject({
				'SMS-NotifyId': '321354',
				'SMS-Success': 'True',
				'SMS-Verify': '9db038748b3088971d913616c13e769b',
			});
		} finally {
			await documented.stop();
		}
	});

	it('posts a form-encoded inbound relay with every documented field and a correct SMS-Verify', async () => {
		const result = await sim.sendInbound({
			from: '353871111111',
			content: 'Fáilte & fáilte = 100% +1',
			notifyId: 'order-001',
		});
		expect(result.status).toBe(200);
		expect(result.body).toBe('OK');
		const request = receiver.requests[0];
		expect(request.method).toBe('POST');
		expect(request.path).toBe('/webhook/phonovation');
		expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
		const fields = formOf(receiver);
		expect(Object.keys(fields)).toEqual([
			'SMS-Type',
			'SMS-Content',
			'SMS-Keyphrase',
			'SMS-Network',
			'SMS-From',
			'SMS-To',
			'SMS-NotifyId',
			'SMS-Verify',
			'SMS-TimeStamp',
			'SMS-AuthCode',
			'SMS-GroupCode',
		]);
		expect(fields).toMatchObject({
			'SMS-Type': 'AuthCode',
			'SMS-Content': 'Fáilte & fáilte = 100% +1',
			'SMS-Network': '272/1',
			'SMS-From': '353871111111',
			'SMS-NotifyId': 'order-001',
		});
		expect(fields['SMS-Verify']).toBe(md5(`353871111111Fáilte & fáilte = 100% +1${SECRET}`));
		expect(fields['SMS-TimeStamp']).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
		expect(result.sent).toMatchObject({
			url: relayUrl,
			contentType: 'application/x-www-form-urlencoded',
			body: request.body,
		});
	});

	it('stamps relays with the simulator clock in UTC', async () => {
		sim.clock.freeze();
		sim.clock.advance(3 * 86_400);
		await sim.sendInbound();
		const expected = new Date(sim.clock.now()).toISOString().replace('T', ' ').slice(0, 19);
		expect(formOf(receiver)['SMS-TimeStamp']).toBe(expected);
	});

	it('can send a wrong signature: well-formed hex that does not match the secret', async () => {
		await sim.sendInbound({ from: '353871111111', content: 'YES', wrongSignature: true });
		const verify = formOf(receiver)['SMS-Verify'];
		expect(verify).toMatch(/^[0-9a-f]{32}$/);
		expect(verify).not.toBe(md5(`353871111111YES${SECRET}`));
	});

	it.each(['STOP', 'OPTOUT'])(
		'posts a signed %s opt-out addressed to the shortcode 50123',
		async (keyword) => {
			await sim.sendOptOut({ from: '353861234567', content: keyword });
			const fields = formOf(receiver);
			expect(fields).toMatchObject({
				'SMS-To': '50123',
				'SMS-Content': keyword,
				'SMS-Keyphrase': keyword,
				'SMS-From': '353861234567',
			});
			expect(fields['SMS-Verify']).toBe(md5(`353861234567${keyword}${SECRET}`));
		},
	);

	it('posts a failed receipt as False with matching totals, signed over lower-case "false"', async () => {
		await sim.sendReceipt({
			notifyId: 'order-9',
			success: false,
			to: '353861234567',
			from: 'Phonovation',
		});
		const fields = formOf(receiver);
		expect(fields).toEqual({
			'SMS-Type': 'Notification',
			'SMS-NotifyId': 'order-9',
			'SMS-Success': 'False',
			'SMS-To': '353861234567',
			'SMS-From': 'Phonovation',
			'SMS-Verify': md5(`order-9false${SECRET}`),
			'SMS-TotalToSend': '1',
			'SMS-TotalSent': '0',
			'SMS-TotalFailed': '1',
			'SMS-TimeStamp': expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
		});
	});

	it('can hash the receipt\'s Success exactly as sent ("True") to test tolerant receivers', async () => {
		await sim.sendReceipt({ notifyId: '42', success: true, hashSuccessAs: 'sent' });
		expect(formOf(receiver)['SMS-Verify']).toBe(md5(`42True${SECRET}`));
	});

	it('can spell field names the knowledgebase way or in lower case', async () => {
		await sim.sendReceipt({ notifyId: '7', fieldCasing: 'variant' });
		await sim.sendInbound({ content: 'YES please', fieldCasing: 'variant' });
		await sim.sendInbound({ content: 'YES please', fieldCasing: 'lower' });
		expect(formOf(receiver, 0)).toHaveProperty('SMS-NotifyID', '7');
		expect(formOf(receiver, 1)).toHaveProperty('SMS-KeyPhrase');
		expect(Object.keys(formOf(receiver, 2))).toContain('sms-verify');
	});

	it.each([5, 6, 7] as const)(
		'posts a JSON processing result with %i fractional digits in FinishedAt',
		async (digits) => {
			sim.clock.freeze();
			await sim.sendProcessingResult({
				status: 'MESSAGE_SUCCESS',
				notifyId: 'order-001',
				fractionDigits: digits,
			});
			expect(receiver.requests[0].headers['content-type']).toBe('application/json');
			const body = JSON.parse(receiver.requests[0].body);
			expect(Object.keys(body)).toEqual(['Status', 'FinishedAt', 'Message', 'NotifyId']);
			expect(body).toMatchObject({
				Status: 'MESSAGE_SUCCESS',
				Message: 'Your message has been queued.',
				NotifyId: 'order-001',
			});
			expect(body.FinishedAt).toMatch(
				new RegExp(`^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{${digits}}Z$`),
			);
			// The first three digits are the simulator clock's milliseconds; the rest are made up.
			expect(Date.parse(body.FinishedAt)).toBe(sim.clock.now());
		},
	);

	it('omits the NotifyId key entirely on CAMPAIGN_ERROR, and keeps an empty one on MESSAGE_ERROR', async () => {
		await sim.sendProcessingResult({ status: 'CAMPAIGN_ERROR', notifyId: 'ignored' });
		await sim.sendProcessingResult({ status: 'MESSAGE_ERROR' });
		const campaignError = JSON.parse(receiver.requests[0].body);
		expect(campaignError).not.toHaveProperty('NotifyId');
		expect(campaignError.Message).toBe('Sender is not valid');
		expect(JSON.parse(receiver.requests[1].body)).toMatchObject({
			Status: 'MESSAGE_ERROR',
			NotifyId: '',
		});
	});

	it('appends ?token= to processing results when asked', async () => {
		await sim.sendProcessingResult({ token: 'hook-token-1' });
		expect(receiver.requests[0].path).toBe('/webhook/phonovation?token=hook-token-1');
	});

	it("reports the relay URL's own status and body", async () => {
		const { server: refusing, url } = await relayReceiver(401, 'Invalid signature');
		try {
			const result = await sim.sendInbound({ url, wrongSignature: true });
			expect(result.status).toBe(401);
			expect(result.body).toBe('Invalid signature');
		} finally {
			await refusing.stop();
		}
	});

	it('refuses to relay when no relay URL is known', async () => {
		const silent = await startSimulator();
		try {
			await expect(silent.sendInbound()).rejects.toThrow(/relay URL/i);
		} finally {
			await silent.stop();
		}
	});

	describe('deliverScheduled', () => {
		it('delivers scheduled campaigns: one MESSAGE_SUCCESS and one signed receipt per accepted recipient', async () => {
			const token = await accessToken(sim);
			await postCampaign(sim, campaign({ text: 'now' }), token);
			await postCampaign(
				sim,
				campaign({
					sendAt: '2030-06-01T09:00Z',
					recipientInfo: [
						{ msisdn: '353861234567', notifyId: 'a-1' },
						{ msisdn: '0871234567', notifyId: 'a-2' },
						{ msisdn: '35312345678', notifyId: 'landline' },
					],
				}),
				token,
			);
			const result = await sim.deliverScheduled();
			expect(result.delivered).toEqual([2]);
			expect(result.relays.map((r) => r.status)).toEqual([200, 200, 200, 200]);
			expect(sim.campaigns.map((c) => c.status)).toEqual(['sent', 'delivered']);

			const processing = receiver.requests.filter(
				(r) => r.headers['content-type'] === 'application/json',
			);
			expect(processing.map((r) => JSON.parse(r.body))).toEqual([
				expect.objectContaining({ Status: 'MESSAGE_SUCCESS', NotifyId: 'a-1' }),
				expect.objectContaining({ Status: 'MESSAGE_SUCCESS', NotifyId: 'a-2' }),
			]);
			const receipts = receiver.requests
				.filter((r) => r.headers['content-type'] === 'application/x-www-form-urlencoded')
				.map((r) => Object.fromEntries(new URLSearchParams(r.body)));
			expect(
				receipts.map((f) => [f['SMS-NotifyId'], f['SMS-To'], f['SMS-From'], f['SMS-Success']]),
			).toEqual([
				['a-1', '353861234567', 'Phonovation', 'True'],
				['a-2', '353871234567', 'Phonovation', 'True'],
			]);
			for (const f of receipts)
				expect(f['SMS-Verify']).toBe(md5(`${f['SMS-NotifyId']}true${SECRET}`));

			expect((await sim.deliverScheduled()).delivered).toEqual([]);
		});

		it('delivers a named immediate campaign; a type-1 sender fails on Irish numbers', async () => {
			await postCampaign(
				sim,
				campaign({
					from: 'FreeText',
					recipientInfo: [
						{ msisdn: '353861234567', notifyId: 'ie' },
						{ msisdn: '447911123456', notifyId: 'uk' },
					],
				}),
			);
			await sim.deliverScheduled(1);
			const receipts = receiver.requests
				.filter((r) => r.headers['content-type'] === 'application/x-www-form-urlencoded')
				.map((r) => Object.fromEntries(new URLSearchParams(r.body)));
			expect(receipts.map((f) => [f['SMS-NotifyId'], f['SMS-Success']])).toEqual([
				['ie', 'False'],
				['uk', 'True'],
			]);
			await expect(sim.deliverScheduled(1)).rejects.toThrow(/already delivered/);
			await expect(sim.deliverScheduled(99)).rejects.toThrow(/No campaign 99/);
		});

		it('without a relay URL it only marks campaigns delivered', async () => {
			const quiet = await startSimulator();
			try {
				await postCampaign(quiet, campaign({ sendAt: '2030-06-01T09:00Z' }));
				const result = await quiet.deliverScheduled();
				expect(result).toEqual({ delivered: [1], relays: [] });
				expect(quiet.campaigns[0].status).toBe('delivered');
				expect(receiver.requests).toEqual([]);
			} finally {
				await quiet.stop();
			}
		});
	});
});
