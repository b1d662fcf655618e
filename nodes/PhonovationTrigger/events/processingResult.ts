// Processing Result: a V2 send's per-recipient status, a JSON body vouched for by its URL token.
/**
 * Processing Result: the per-recipient queue or rejection status of a V2 API send, a JSON body
 * that carries no signature; its URL token vouches for the whole request.
 */

import type { IDataObject } from 'n8n-workflow';

import { jsonField } from '../incoming/jsonBody';
import { badRequest } from '../incoming/rejection';

import type { RelayEventModule } from './event';
import { relayKeyOf } from './fields/relayKey';
import { finishedAtOf } from './fields/timestamps';

/** A processing result is a JSON object with a `Status`. */
export function assertProcessingResult(value: IDataObject): void {
	if (typeof jsonField(value, 'Status') !== 'string') {
		throw badRequest('Not a Phonovation processing result: expected a JSON object with a Status');
	}
}

function optionalText(value: IDataObject, name: string): string | null {
	const field = jsonField(value, name);
	if (field === undefined || field === null || field === '') return null;
	if (typeof field === 'number' && Number.isFinite(field)) return String(field);
	if (typeof field !== 'string') throw badRequest(`${name} is not a string`);
	return field;
}

/**
 * A V2 processing result (JSON) as an output item; `NotifyId` is absent on CAMPAIGN_ERROR. Its
 * URL token vouches for the whole request, so every field is as sent by the token's holder.
 */
export function processingResultItem(value: IDataObject): IDataObject {
	const status = optionalText(value, 'Status');
	const message = optionalText(value, 'Message');
	const notifyId = optionalText(value, 'NotifyId');
	const finishedAt = finishedAtOf(jsonField(value, 'FinishedAt'));
	return {
		event: 'processingResult',
		status,
		message,
		notifyId,
		finishedAt,
		relayKey: relayKeyOf('processingResult', [status, notifyId, message, finishedAt]),
	};
}

/** The item of a JSON body vouched for by the URL token, once it is known to be a processing result. */
function resultItem(value: IDataObject): IDataObject {
	assertProcessingResult(value);
	return processingResultItem(value);
}

export const processingResult: RelayEventModule<'processingResult'> = {
	value: 'processingResult',
	name: 'Processing Result',
	description:
		"Per-recipient queue or rejection status of a V2 API send; needs the credential's URL Token",
	notices: [
		{
			displayName:
				'Processing results carry no signature. Set a URL Token in the Phonovation credential and give Phonovation the Production URL with ?token=YOUR_TOKEN appended; without it they are refused with 401.',
			name: 'processingResultNotice',
			type: 'notice',
			default: '',
			displayOptions: { show: { events: ['processingResult'] } },
		},
	],
	selectedByDefault: false,
	claim: (relay) => (relay.authenticatedBy === 'token' ? () => resultItem(relay.value) : null),
};
