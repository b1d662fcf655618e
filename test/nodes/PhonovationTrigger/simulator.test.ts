import type { Simulator } from '../../simulator';
import { startSimulator } from '../../simulator';
import type { WebhookReceiver } from '../../harness/webhook';
import { startWebhookReceiver } from '../../harness/webhook';
import { triggerEngine, triggerNode } from './relays';

const SECRET = 'sim-relay-secret-Distinctive-8812';
const TOKEN = 'sim-url-token-3391';

/**
 * End to end: the simulator's relay sender POSTs over real HTTP to a local endpoint that runs
 * the trigger's webhook() through n8n-core's WebhookContext, and gets the node's answer back.
 */
describe('Phonovation Trigger ← simulator relays over HTTP', () => {
	let sim: Simulator;
	let receiver: WebhookReceiver;

	beforeAll(async () => {
		const engine = triggerEngine({ relaySecret: SECRET, urlToken: TOKEN });
		receiver = await startWebhookReceiver(
			engine,
			triggerNode({ events: ['deliveryReceipt', 'inbound', 'optOut', 'processingResult'] }),
		);
		sim = await startSimulator({ relaySecret: SECRET, relayUrl: receiver.url });
		sim.clock.freeze();
	});

	afterAll(async () => {
		await sim?.stop();
		await receiver?.stop();
	});

	const lastItem = () => receiver.outcomes.at(-1)!.items[0]?.json;
	const simNowIso = () => new Date(Math.floor(sim.clock.now() / 1000) * 1000).toISOString();

	it('delivers a signed inbound reply with fadas and emoji as a verified item', async () => {
		const content = 'Tá mé ag teacht 👍 + beidh mé ann ar 8';
		const result = await sim.sendInbound({ content, keyphrase: 'TA', notifyId: 'order-001' });
		expect(result.status).toBe(200);
		expect(result.body).toBe('');
		expect(lastItem()).toEqual({
			event: 'inbound',
			arrivedAt: expect.any(String),
			from: '353871111111',
			text: content,
			keyword: 'TÁ',
			sessionId: 'sms:353871111111',
			relayKey: expect.stringMatching(/^[0-9a-f]{32}$/),
			verified: true,
			unverified: {
				to: '353851234567',
				notifyId: 'order-001',
				keyphrase: 'TA',
				type: 'AuthCode',
				network: {
					mcc: '272',
					mnc: '1',
					country: 'Ireland',
					carrier: 'Vodafone Ireland',
					operatorNetwork: true,
				},
				receivedAt: simNowIso(),
			},
		});
	});

	it.each(['variant', 'lower'] as const)(
		'accepts the %s field-name spelling',
		async (fieldCasing) => {
			const result = await sim.sendInbound({
				fieldCasing,
				notifyId: 'n-7',
				keyphrase: 'HELLO',
				content: 'Hello',
			});
			expect(result.status).toBe(200);
			expect(lastItem()).toMatchObject({
				keyword: 'HELLO',
				verified: true,
				unverified: expect.objectContaining({ notifyId: 'n-7', keyphrase: 'HELLO' }),
			});
		},
	);

	it('refuses a relay signed with the wrong key: 401 as plain text, nothing started', async () => {
		const before = receiver.outcomes.length;
		const result = await sim.sendInbound({ wrongSignature: true });
		expect(result.status).toBe(401);
		expect(result.body).toBe('Unauthorized');
		expect(receiver.outcomes.slice(before).every((o) => !o.executed)).toBe(true);
	});

	it('delivers an opt-out with its keyword and suppression hint', async () => {
		const result = await sim.sendOptOut({ content: 'OPTOUT' });
		expect(result.status).toBe(200);
		expect(lastItem()).toMatchObject({
			event: 'optOut',
			optOutKeyword: 'OPTOUT',
			verified: true,
			unverified: expect.objectContaining({ to: '50123' }),
		});
		expect(String(lastItem()!.hint)).toMatch(/suppression list/);
	});

	it.each(['lower', 'sent'] as const)(
		'verifies receipts with Success hashed %s',
		async (hashSuccessAs) => {
			const result = await sim.sendReceipt({
				notifyId: 'order-002',
				success: false,
				totalToSend: 2,
				totalSent: 1,
				totalFailed: 1,
				hashSuccessAs,
			});
			expect(result.status).toBe(200);
			expect(lastItem()).toMatchObject({
				event: 'deliveryReceipt',
				notifyId: 'order-002',
				delivered: false,
				verified: true,
				unverified: expect.objectContaining({
					totalToSend: 2,
					totalSent: 1,
					totalFailed: 1,
					receivedAt: simNowIso(),
				}),
			});
		},
	);

	it('accepts processing results only with the URL token', async () => {
		const ok = await sim.sendProcessingResult({
			status: 'CAMPAIGN_ERROR',
			token: TOKEN,
			fractionDigits: 6,
		});
		expect(ok.status).toBe(200);
		expect(lastItem()).toMatchObject({
			event: 'processingResult',
			status: 'CAMPAIGN_ERROR',
			message: 'Sender is not valid',
			notifyId: null,
			finishedAt: new Date(sim.clock.now()).toISOString(),
		});

		const missing = await sim.sendProcessingResult({ notifyId: 'order-003' });
		expect(missing.status).toBe(401);
		const wrong = await sim.sendProcessingResult({ notifyId: 'order-003', token: 'guess' });
		expect(wrong.status).toBe(401);
	});
});
