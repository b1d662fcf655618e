// The Phonovation Trigger node: its Events, options and notices, and the webhook answering relays.
/**
 * The trigger node: its description (the Events option comes from the event registry in events/),
 * options and notices, and the webhook that answers each relay or refuses it.
 */

import type {
	IDataObject,
	IHookFunctions,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { handleRelay } from './handler';
import { relayEventFields, relayOptionFields, relaySettingsOf } from './relayFields';
import { readTriggerParameters } from './parameters';
import { configurationLog, requestCausedLog } from './incoming/log';
import { REFUSAL_TEXT, RelayRejection } from './incoming/rejection';
import { secretsLoader } from './verification/secrets';
import { optionsCollection } from '../shared/optionsCollection';

/** The URL token's old place, kept working until the credential's URL Token replaces it. */
const URL_TOKEN_OPTION: INodeProperties = {
	displayName: 'URL Token (Deprecated)',
	name: 'token',
	type: 'string',
	typeOptions: { password: true },
	default: '',
	description:
		"Replaced by the credential's URL Token, which is stored encrypted. Used only when the credential has none.",
};

/** The refusal's fixed text as plain text, never sniffed as HTML whatever opens the URL. */
function refuse(
	context: IWebhookFunctions,
	status: RelayRejection['status'],
): IWebhookResponseData {
	const response = context.getResponseObject();
	response.setHeader('Content-Type', 'text/plain; charset=utf-8');
	response.setHeader('X-Content-Type-Options', 'nosniff');
	response.status(status).send(REFUSAL_TEXT[status]).end();
	return { noWebhookResponse: true };
}

function logRefusal(context: IWebhookFunctions, rejection: RelayRejection): void {
	const line = `Phonovation Trigger: refused a relay with ${rejection.status} (${rejection.detail})`;
	// Senders' mistakes (or attacks) stay at debug; what the owner must fix is a warning.
	if (rejection.source === 'configuration')
		configurationLog((text) => context.logger.warn(text), line);
	else requestCausedLog((text) => context.logger.debug(text), line);
}

export class PhonovationTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Phonovation Trigger',
		name: 'phonovationTrigger',
		icon: {
			light: 'file:../../icons/phonovation.svg',
			dark: 'file:../../icons/phonovation.dark.svg',
		},
		group: ['trigger'],
		// 1.1 behaves the same; on version 1 n8n 2.41 evaluates an extra expression per request.
		version: [1, 1.1],
		defaultVersion: 1.1,
		subtitle: '={{$parameter["events"].join(", ")}}',
		description:
			'Starts the workflow on verified Phonovation relays: inbound SMS, opt-outs, delivery receipts and processing results',
		defaults: { name: 'Phonovation Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'phonovationApi', required: true }],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				// Without this n8n 2.41 answers accepted relays with the literal text "firstEntryJson".
				responseData: 'noData',
				path: 'phonovation',
			},
		],
		properties: [
			{
				displayName:
					'Phonovation has no API for callback URLs. Copy the Production URL above and email it to support@phonovation.com, asking them to use it as your inbound relay URL (replies and STOP/OPTOUT opt-outs), your delivery receipt (DLR) URL and, if you send with the V2 API, your webhook URL for processing results.',
				name: 'notice',
				type: 'notice',
				default: '',
			},
			...relayEventFields('Which relays start the workflow; others are acknowledged and ignored'),
			{
				displayName:
					"The URL Token option is stored in plain text with the workflow. Move it to the Phonovation credential's URL Token (stored encrypted) and clear the option; until then it keeps working.",
				name: 'legacyTokenNotice',
				type: 'notice',
				default: '',
				displayOptions: { show: { 'options.token': [{ _cnd: { exists: true } }] } },
			},
			optionsCollection(
				[...relayOptionFields({ refused: 'refused with HTTP 401' }), URL_TOKEN_OPTION].sort(
					(a, b) => a.displayName.localeCompare(b.displayName),
				),
			),
		],
	};

	// Phonovation support registers callback URLs by hand; there is nothing to create or delete. n8n
	// treats these as optional, but the community-node scanner's lint rules require all three.
	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		// This n8n's clock, read before the body and the signature: in queue mode workers may run the
		// executions out of order, and Collect Burst puts a turn's texts in this order.
		const arrivedAt = new Date().toISOString();
		try {
			const { events, options } = readTriggerParameters(this);
			const outcome = await handleRelay(this.getRequestObject(), relaySettingsOf(events, options), {
				queryToken: (this.getQueryData() as IDataObject)?.token,
				secrets: secretsLoader(this, options.token ?? ''),
			});
			if ('ignored' in outcome) return {};
			const item = { ...outcome.item, arrivedAt };
			return { workflowData: [this.helpers.returnJsonArray([item])] };
		} catch (error) {
			if (error instanceof RelayRejection) {
				logRefusal(this, error);
				return refuse(this, error.status);
			}
			// Bad input must never surface as a 500.
			const line = `Phonovation Trigger: could not process a relay (${(error as Error).message})`;
			requestCausedLog((text) => this.logger.warn(text), line);
			return refuse(this, 400);
		}
	}
}
