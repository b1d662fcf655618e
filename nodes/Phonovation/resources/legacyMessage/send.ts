import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { LIMITS } from '../../domain/campaignRules';
import { normaliseMsisdn, splitRecipients } from '../../domain/phoneNumbers';
import { CREDENTIAL, isFailure, plainRequest, providerError, trimSlash } from '../../transport';

const show = { show: { resource: ['legacyMessage'], operation: ['send'] } };

export const description: INodeProperties[] = [
	{
		displayName: 'From',
		name: 'from',
		type: 'string',
		required: true,
		default: '',
		displayOptions: show,
		description: 'Sender ID: up to 11 letters and digits without spaces, or a number',
	},
	{
		displayName: 'To',
		name: 'to',
		type: 'string',
		required: true,
		default: '',
		placeholder: '0871234567',
		displayOptions: show,
		description: 'One number per item (the legacy API takes a single recipient per request)',
	},
	{
		displayName: 'Text',
		name: 'text',
		type: 'string',
		typeOptions: { rows: 3 },
		required: true,
		default: '',
		displayOptions: show,
		description: 'Message text',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: show,
		options: [
			{
				displayName: 'Default Country Code',
				name: 'defaultCountryCode',
				type: 'string',
				default: '353',
				description: 'Country code given to a number written in national form with a leading 0',
			},
			{
				displayName: 'Notify ID',
				name: 'notifyId',
				type: 'string',
				default: '',
				description: `Your reference (max ${LIMITS.notifyId} characters), echoed in delivery receipts`,
			},
		],
	},
];

/** Legacy sender IDs: alphanumeric up to 11 characters, or a numeric long/short code. */
const LEGACY_SENDER = /^(?:[A-Za-z0-9]{1,11}|\d{1,16})$/;

function fail(ctx: IExecuteFunctions, message: string, itemIndex: number): never {
	throw new NodeOperationError(ctx.getNode(), `${message} (item ${itemIndex})`, { itemIndex });
}

/** `sendmessage.aspx`: form-encoded, always HTTP 200; the body's first line is the status code. */
export async function run(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const credentials = await this.getCredentials(CREDENTIAL);
	const apiId = String(credentials.apiId ?? '').trim();
	if (!apiId) fail(this, 'The credential has no API ID; the legacy API needs one', itemIndex);

	const from = String(this.getNodeParameter('from', itemIndex, '')).trim();
	const text = String(this.getNodeParameter('text', itemIndex, ''));
	const toList = splitRecipients(this.getNodeParameter('to', itemIndex, ''));
	const options = this.getNodeParameter('options', itemIndex, {}) as { notifyId?: string; defaultCountryCode?: string };
	const notifyId = String(options.notifyId ?? '').trim();

	if (!LEGACY_SENDER.test(from)) {
		fail(this, `From "${from}" is not a legacy sender ID: up to 11 letters and digits without spaces, or a number`, itemIndex);
	}
	if (text.trim() === '') fail(this, 'Text is empty', itemIndex);
	if (text.length > LIMITS.text) fail(this, `Text is too long: ${text.length} characters, the limit is ${LIMITS.text}`, itemIndex);
	if (notifyId.length > LIMITS.notifyId) {
		fail(this, `Notify ID is too long: ${notifyId.length} characters, the limit is ${LIMITS.notifyId}`, itemIndex);
	}
	if (toList.length !== 1) {
		fail(this, `To must hold exactly one number (got ${toList.length}); use the Campaign resource for many recipients`, itemIndex);
	}
	const to = normaliseMsisdn(toList[0], String(options.defaultCountryCode ?? '353').trim() || '353');
	if (!to.ok) fail(this, `To "${toList[0]}" is not a valid number: ${to.reason}`, itemIndex);

	const form = new URLSearchParams({
		user: String(credentials.username ?? ''),
		password: String(credentials.password ?? ''),
		api_id: apiId,
		to: to.msisdn,
		text,
		from,
	});
	if (notifyId) form.set('notify_id', notifyId);

	const response = await plainRequest(this, {
		method: 'POST',
		url: `${trimSlash(credentials.legacyBaseUrl)}/sendmessage.aspx`,
		headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/plain' },
		body: form.toString(),
		json: false,
	});
	if (isFailure(response)) throw providerError(this, 'the legacy send', response, itemIndex);

	const secret = String(credentials.password ?? '');
	const lines = String(response.body ?? '')
		.split(/\r?\n/)
		.map((line) => (secret ? line.split(secret).join('***') : line).trim());
	const code = lines[0] ?? '';
	const message = lines.slice(1).filter(Boolean).join(' ');
	if (response.status !== 200 || code !== '0') {
		throw new NodeApiError(
			this.getNode(),
			{ code, message },
			{
				message: `Phonovation's legacy API refused the message (status ${code || 'missing'}${response.status !== 200 ? `, HTTP ${response.status}` : ''}): ${message || 'no message'}`,
				itemIndex,
			},
		);
	}
	return [
		{
			json: { success: true, code, message, to: to.msisdn, from, notifyId: notifyId || null },
			pairedItem: { item: itemIndex },
		},
	];
}
