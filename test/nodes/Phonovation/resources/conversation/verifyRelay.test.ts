import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';

import { PhonovationApi } from '../../../../../credentials/PhonovationApi.credentials';
import { Phonovation } from '../../../../../nodes/Phonovation/Phonovation.node';
import { Engine } from '../../../../harness/engine';
import { runWebhook, type WebhookRequest } from '../../../../harness/webhook';
import {
	encodeForm,
	type Fields,
	inboundFields,
	RELAY_SECRET,
	receiptFields,
	triggerEngine,
	triggerNode,
	withField,
} from '../../../PhonovationTrigger/relays';
import { NODE_TYPE } from '../../fixture';

const URL_TOKEN = 'Url-Token-Distinctive-7781';
const ALL_EVENTS = ['inbound', 'optOut', 'optIn', 'deliveryReceipt', 'processingResult'];

/** What n8n's Webhook node (POST, Raw Body on) puts out for one request: headers, query, body and the exact bytes. */
function webhookItem(
	request: { body: string; contentType?: string; query?: IDataObject },
	{ rawBody = true }: { rawBody?: boolean } = {},
): INodeExecutionData {
	const contentType = request.contentType ?? 'application/x-www-form-urlencoded';
	const bytes = Buffer.from(request.body, 'utf8');
	const parsed =
		contentType === 'application/json'
			? (JSON.parse(request.body) as IDataObject)
			: Object.fromEntries(new URLSearchParams(request.body));
	return {
		json: {
			headers: { 'content-type': contentType, 'content-length': String(bytes.length) },
			params: {},
			query: request.query ?? {},
			body: parsed,
		},
		...(rawBody
			? { binary: { data: { data: bytes.toString('base64'), mimeType: contentType } } }
			: {}),
	};
}

const form = (fields: Fields) => ({ body: encodeForm(fields) });

const processingResult = (token?: string) => ({
	body: JSON.stringify({
		Id: 'b3c1d7e0-1111-4222-8333-444455556666',
		Status: 'MESSAGE_ERROR',
		Message: 'Number barred',
		Mobile: '353871111111',
		NotifyId: 'order-001',
		FinishedAt: '2026-04-09T16:03:20Z',
	}),
	contentType: 'application/json',
	query: token === undefined ? {} : { token },
});

function verifyEngine(credential: Record<string, string> | null) {
	const engine = new Engine({
		nodeTypes: { [NODE_TYPE]: new Phonovation() },
		credentialTypes: [new PhonovationApi()],
	});
	if (credential)
		engine.credentials.set('cred-1', { username: 'acme', password: 'pw-Secret-99', ...credential });
	const node = (parameters: IDataObject): INode => ({
		id: 'verify',
		name: 'Verify Relay',
		type: NODE_TYPE,
		typeVersion: 2,
		position: [0, 0],
		parameters: { resource: 'conversation', operation: 'verifyRelay', ...parameters } as never,
		credentials: { phonovationApi: { id: 'cred-1', name: 'Phonovation' } },
	});
	return async (items: INodeExecutionData[], parameters: IDataObject = { events: ALL_EVENTS }) =>
		await engine.runNode(node(parameters), items);
}

const credential = { relaySecret: RELAY_SECRET, urlToken: URL_TOKEN };
const withoutArrival = ({ arrivedAt: _arrivedAt, ...rest }: IDataObject) => rest;

describe('Verify Relay: a relay from n8n’s Webhook node, read as the Phonovation Trigger reads it', () => {
	const verify = verifyEngine(credential);

	const relays: Array<[string, { body: string; contentType?: string; query?: IDataObject }]> = [
		['a signed reply', form(inboundFields({ content: 'Can I move my booking to Friday?' }))],
		['a STOP', form(inboundFields({ content: 'STOP' }))],
		['a START', form(inboundFields({ content: 'START' }))],
		['a delivery receipt', form(receiptFields())],
		['a failed delivery receipt', form(receiptFields({ success: 'False' }))],
		['a processing result with the URL token', processingResult(URL_TOKEN)],
	];

	it.each(relays)(
		'puts out %s exactly as the trigger does, with when it read it',
		async (_, relay) => {
			const viaTrigger = await runWebhook(
				triggerEngine(credential),
				triggerNode({ events: ALL_EVENTS }),
				relay as WebhookRequest,
			);
			expect(viaTrigger.items).toHaveLength(1);
			const before = Date.now();
			const { outputs } = await verify([webhookItem(relay)]);
			expect(outputs[1]).toEqual([]);
			expect(outputs[0]).toHaveLength(1);
			const item = outputs[0][0].json;
			expect(withoutArrival(item)).toEqual(withoutArrival(viaTrigger.items[0].json));
			expect(Date.parse(String(item.arrivedAt))).toBeGreaterThanOrEqual(before - 1);
		},
	);

	it('reads the parsed body when the Webhook node’s Raw Body option is off', async () => {
		const { outputs } = await verify([webhookItem(form(inboundFields()), { rawBody: false })]);
		expect(outputs[0].map(({ json }) => [json.event, json.verified])).toEqual([['inbound', true]]);
	});

	it('puts a forged, unsigned or oversized relay out on Not Taken with the status the trigger answers, never with what it held', async () => {
		const secret = 'Gossip-Only-In-The-Body-9931';
		const requests = [
			form(withField(inboundFields({ content: secret }), 'SMS-Verify', '0'.repeat(32))),
			form(inboundFields({ content: secret, secret: 'another-secret' })),
			processingResult(),
			processingResult('wrong-token'),
			{ body: `SMS-Content=${'x'.repeat(70 * 1024)}` },
			{ body: 'not a form at all', contentType: 'text/plain' },
		];
		const { outputs } = await verify(requests.map((request) => webhookItem(request)));
		expect(outputs[0]).toEqual([]);
		expect(outputs[1].map(({ json }) => json.refused)).toEqual([401, 401, 401, 401, 413, 400]);
		expect(outputs[1].map(({ pairedItem }) => pairedItem)).toEqual(
			requests.map((_, item) => ({ item })),
		);
		expect(JSON.stringify(outputs[1])).not.toContain(secret);
		expect(JSON.stringify(outputs[1])).not.toContain(URL_TOKEN);
	});

	it('puts an event not selected out on Not Taken, and a taken one on Relay, item by item', async () => {
		const { outputs } = await verify(
			[webhookItem(form(receiptFields())), webhookItem(form(inboundFields()))],
			{ events: ['inbound'] },
		);
		expect(outputs[0].map(({ json, pairedItem }) => [json.event, pairedItem])).toEqual([
			['inbound', { item: 1 }],
		]);
		expect(outputs[1]).toEqual([
			{ json: { ignored: 'event not selected' }, pairedItem: { item: 0 } },
		]);
	});

	it("refuses a stranger's JSON on Not Taken when no URL Token is set up, without failing the run", async () => {
		const noToken = verifyEngine({ relaySecret: RELAY_SECRET });
		const { outputs, error } = await noToken([webhookItem(processingResult())]);
		expect(error).toBeUndefined();
		expect(outputs[0]).toEqual([]);
		expect(outputs[1].map(({ json }) => json.refused)).toEqual([401]);
	});

	it('fails saying so when the credential cannot be read, instead of refusing every relay', async () => {
		const { error } = await verifyEngine(null)([webhookItem(form(inboundFields()))]);
		expect(error?.message).toMatch(/^Verify Relay: the Phonovation credential could not be read/);
	});

	it('fails with what to set up when the credential has no Relay Secret, and says which item is no webhook request', async () => {
		const unset = await verifyEngine({ urlToken: URL_TOKEN })([webhookItem(form(inboundFields()))]);
		expect(unset.error?.message).toMatch(/Relay Secret/);
		const notWebhook = await verify([webhookItem(form(inboundFields())), { json: { text: 'hi' } }]);
		expect(notWebhook.error?.message).toMatch(/item 1 is not what n8n's Webhook node puts out/);
	});
});
