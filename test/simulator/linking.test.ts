import { createHash } from 'node:crypto';

import type { LoopbackServer } from '../harness/loopback';
import { type Simulator, startSimulator } from './index';
import { call, campaign, form, postCampaign, relayReceiver } from './test-helpers';

const SECRET = 'Linking-Relay-Key';
const LONGCODE = '353851234567';
const HANDSET = '353871234567';

/** The test's own MD5, independent of the simulator's signer. */
const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');

/**
 * Replies linked to what was sent (docs/provider-api.md#notify-id): without an explicit notifyId, a
 * reply carries the notifyId of the last message out to its sender. Everything over real HTTP on
 * 127.0.0.1, as a test running the simulator in another process would drive it.
 */
describe('simulator: replies linked to the last message sent to that number', () => {
	let sim: Simulator;
	let receiver: LoopbackServer;

	beforeEach(async () => {
		const started = await relayReceiver();
		receiver = started.server;
		sim = await startSimulator({ relaySecret: SECRET, relayUrl: started.url });
	});
	afterEach(async () => {
		await sim.stop();
		await receiver.stop();
	});

	const control = (path: string, json: unknown = {}) =>
		call(`${sim.url}/_sim${path}`, { method: 'POST', json });

	/** A campaign accepted for sending now, one recipient per [msisdn, notifyId]. */
	async function sendCampaign(recipients: Array<[string, string?]>, from = LONGCODE) {
		const recipientInfo = recipients.map(([msisdn, notifyId]) =>
			notifyId === undefined ? { msisdn } : { msisdn, notifyId },
		);
		const response = await postCampaign(sim, campaign({ from, recipientInfo }));
		expect(response.status).toBe(200);
	}

	/** Asks for a reply over /_sim/relay/inbound; returns the control answer and the fields the receiver got. */
	async function reply(body: Record<string, unknown>) {
		const before = receiver.requests.length;
		const answer = await control('/relay/inbound', { content: 'YES please', ...body });
		expect(answer.status).toBe(200);
		expect(receiver.requests).toHaveLength(before + 1);
		const fields = Object.fromEntries(new URLSearchParams(receiver.requests[before].body));
		return { answer: answer.json(), fields };
	}

	it('a reply carries the notifyId of the campaign message to that number, signed as before, SMS-To the longcode', async () => {
		await sendCampaign([
			['353861111111', 'other-1'],
			[HANDSET, 'q-1'],
		]);
		const { answer, fields } = await reply({ from: HANDSET });
		expect(fields).toMatchObject({
			'SMS-From': HANDSET,
			'SMS-To': LONGCODE,
			'SMS-NotifyId': 'q-1',
			'SMS-Content': 'YES please',
		});
		expect(fields['SMS-Verify']).toBe(md5(`${HANDSET}YES please${SECRET}`));
		expect(answer.notifyId).toBe('q-1');
		expect(answer.linkedTo).toEqual({
			outbound: 'campaign',
			id: 1,
			msisdn: HANDSET,
			sender: LONGCODE,
			notifyId: 'q-1',
		});
		expect(answer.sent.fields).toEqual(fields);
	});

	it('links the LAST message: a second campaign with q-2 makes the next reply carry q-2', async () => {
		await sendCampaign([[HANDSET, 'q-1']]);
		expect((await reply({ from: HANDSET })).fields['SMS-NotifyId']).toBe('q-1');
		await sendCampaign([
			[HANDSET, 'q-2'],
			['353861111111', 'other-2'],
		]);
		const { answer, fields } = await reply({ from: HANDSET });
		expect(fields['SMS-NotifyId']).toBe('q-2');
		expect(answer).toMatchObject({ notifyId: 'q-2', linkedTo: { outbound: 'campaign', id: 2 } });
	});

	it('linked: false sends no notifyId for that reply only', async () => {
		await sendCampaign([[HANDSET, 'q-1']]);
		const unlinked = await reply({ from: HANDSET, linked: false });
		expect(unlinked.fields['SMS-NotifyId']).toBe('');
		expect(unlinked.fields['SMS-To']).toBe(LONGCODE);
		expect(unlinked.fields['SMS-Verify']).toBe(md5(`${HANDSET}YES please${SECRET}`));
		expect(unlinked.answer).toMatchObject({ notifyId: null, linkedTo: null });
		// The same reply without the switch is linked: it was the switch, not the number.
		const linked = await reply({ from: HANDSET });
		expect(linked.fields['SMS-NotifyId']).toBe('q-1');
		expect((await control('/relay/inbound', { from: HANDSET, linked: 'no' })).status).toBe(400);
	});

	it('an explicit notifyId wins over the link, even an empty one', async () => {
		await sendCampaign([[HANDSET, 'q-1']]);
		const explicit = await reply({ from: HANDSET, notifyId: 'mine-7' });
		expect(explicit.fields['SMS-NotifyId']).toBe('mine-7');
		expect(explicit.answer).toMatchObject({ notifyId: 'mine-7', linkedTo: null });
		const empty = await reply({ from: HANDSET, notifyId: '' });
		expect(empty.fields['SMS-NotifyId']).toBe('');
		expect(empty.answer.notifyId).toBeNull();
		expect((await reply({ from: HANDSET })).fields['SMS-NotifyId']).toBe('q-1');
	});

	it('a number never texted gets no notifyId and the default SMS-To, while a texted one is linked', async () => {
		await sendCampaign([[HANDSET, 'q-1']]);
		const stranger = await reply({ from: '353879999999' });
		expect(stranger.fields).toMatchObject({ 'SMS-NotifyId': '', 'SMS-To': LONGCODE });
		expect(stranger.answer).toMatchObject({ notifyId: null, linkedTo: null });
		expect((await reply({ from: HANDSET })).fields['SMS-NotifyId']).toBe('q-1');
	});

	it('linkReplies: false in the config turns linking off for every reply until switched back on', async () => {
		await sendCampaign([[HANDSET, 'q-1']]);
		const off = await control('/config', { linkReplies: false });
		expect(off.json()).toMatchObject({ linkReplies: false });
		expect((await reply({ from: HANDSET })).fields['SMS-NotifyId']).toBe('');
		expect((await reply({ from: HANDSET, notifyId: 'mine-7' })).fields['SMS-NotifyId']).toBe(
			'mine-7',
		);
		expect((await control('/config', { linkReplies: 'off' })).status).toBe(400);
		await control('/config', { linkReplies: true });
		expect((await reply({ from: HANDSET })).fields['SMS-NotifyId']).toBe('q-1');

		const unlinkedSim = await startSimulator({ linkReplies: false, relayUrl: sim.config.relayUrl });
		try {
			await postCampaign(
				unlinkedSim,
				campaign({ recipientInfo: [{ msisdn: HANDSET, notifyId: 'q-1' }] }),
			);
			const answer = (
				await call(`${unlinkedSim.url}/_sim/relay/inbound`, { json: { from: HANDSET } })
			).json();
			expect(answer).toMatchObject({ notifyId: null, linkedTo: null });
			expect(answer.sent.fields['SMS-NotifyId']).toBe('');
		} finally {
			await unlinkedSim.stop();
		}
	});

	it('matches the number in either form and keeps the linked id under any field-name casing', async () => {
		await sendCampaign([['0871234567', 'q-1']]);
		expect((await reply({ from: HANDSET })).fields['SMS-NotifyId']).toBe('q-1');
		expect(
			(await reply({ from: '0871234567', fieldCasing: 'variant' })).fields['SMS-NotifyID'],
		).toBe('q-1');
	});

	it('a last message without a notifyId links an empty one; an alphanumeric sender leaves SMS-To to the account longcode', async () => {
		await sendCampaign([[HANDSET, 'q-1']]);
		await sendCampaign([[HANDSET]], 'Phonovation');
		const { answer, fields } = await reply({ from: HANDSET });
		expect(fields).toMatchObject({ 'SMS-NotifyId': '', 'SMS-To': LONGCODE });
		expect(answer).toMatchObject({
			notifyId: null,
			linkedTo: { id: 2, sender: 'Phonovation', notifyId: null },
		});
	});

	it('a scheduled campaign links only once delivered', async () => {
		await sendCampaign([[HANDSET, 'q-1']]);
		const scheduled = await postCampaign(
			sim,
			campaign({
				from: LONGCODE,
				sendAt: '2030-06-01T09:00Z',
				recipientInfo: [{ msisdn: HANDSET, notifyId: 'later-1' }],
			}),
		);
		expect(scheduled.status).toBe(200);
		expect((await reply({ from: HANDSET })).fields['SMS-NotifyId']).toBe('q-1');
		expect((await control('/deliver')).status).toBe(200);
		const { answer, fields } = await reply({ from: HANDSET });
		expect(fields['SMS-NotifyId']).toBe('later-1');
		expect(answer.linkedTo).toMatchObject({ outbound: 'campaign', id: 2 });
	});

	it('a legacy send links its NotifyID and sender; a later campaign takes over; a held one links nothing', async () => {
		const legacySend = async (fields: Record<string, string>) => {
			const response = await call(`${sim.url}/api/v1/sendmessage.aspx`, {
				headers: { 'content-type': 'application/x-www-form-urlencoded' },
				body: form({
					user: sim.config.username,
					password: sim.config.password,
					api_id: sim.config.apiId,
					to: `353861111111,${HANDSET}`,
					text: 'Hello',
					from: LONGCODE,
					...fields,
				}),
			});
			expect(response.text).toMatch(/^0\n/);
		};
		await legacySend({ NotifyID: 'legacy-1' });
		const { answer, fields } = await reply({ from: HANDSET });
		expect(fields).toMatchObject({ 'SMS-NotifyId': 'legacy-1', 'SMS-To': LONGCODE });
		expect(answer.linkedTo).toEqual({
			outbound: 'legacy',
			id: 1,
			msisdn: HANDSET,
			sender: LONGCODE,
			notifyId: 'legacy-1',
		});
		await sendCampaign([[HANDSET, 'q-1']]);
		expect((await reply({ from: HANDSET })).fields['SMS-NotifyId']).toBe('q-1');
		// Held by DeliveryTime: the simulator never sends it, so the campaign stays the last message.
		await legacySend({ notify_id: 'held-1', DeliveryTime: '5' });
		expect(sim.legacySends.at(-1)?.status).toBe('scheduled');
		expect((await reply({ from: HANDSET })).fields['SMS-NotifyId']).toBe('q-1');
	});

	it('reset forgets what was sent; opt-outs are never linked', async () => {
		await sendCampaign([[HANDSET, 'q-1']]);
		const optOut = (await control('/relay/optout', { from: HANDSET })).json();
		expect(optOut.sent.fields).toMatchObject({ 'SMS-NotifyId': '', 'SMS-To': '50123' });
		expect((await reply({ from: HANDSET })).fields['SMS-NotifyId']).toBe('q-1');
		await control('/reset');
		expect((await reply({ from: HANDSET })).fields['SMS-NotifyId']).toBe('');
	});
});
