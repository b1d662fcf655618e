// A signed message's item, as inbound messages and opt-outs share it; unsigned fields unverified.
/**
 * A signed message, what inbound messages and opt-outs both are: SMS-From + SMS-Content are
 * signed and decide the event and keyword; the other fields are delivered under `unverified`,
 * since anyone who replays a signed relay can change them.
 */

import type { IDataObject } from 'n8n-workflow';

import { OPT_OUT_SHORTCODE } from '../../shared/optOutWords';
import type { FormFields } from '../incoming/formBody';
import { badRequest } from '../incoming/rejection';

import type { ClassifySettings, RelayEventModule } from './event';
import { orNull, required } from './fields/formValues';
import { firstWord, NO_KEYWORD } from './fields/keywords';
import { networkOf } from './fields/network';
import { relayKeyOf } from './fields/relayKey';
import { gatewayTimestamp } from './fields/timestamps';

/** Whether the unsigned SMS-To names the shared opt-out shortcode. */
export function sentToShortcode(fields: FormFields): boolean {
	return fields.get('SMS-To')?.trim() === OPT_OUT_SHORTCODE;
}

function keyphraseOf(fields: FormFields): string | null {
	const keyphrase = fields.get('SMS-Keyphrase')?.trim();
	return keyphrase === NO_KEYWORD ? null : orNull(keyphrase);
}

/** What an event makes of a message beyond what every message item carries. */
interface MessageEventFields {
	event: string;
	/** After `keyword`. */
	own?: IDataObject;
	/** Last under `unverified`. */
	unverified?: IDataObject;
}

/**
 * A message's item (without `verified`): From must be there and not blank, Content must be
 * there. The keyword is the first word of the signed text, never the unsigned SMS-Keyphrase.
 */
export function signedMessageItem(
	fields: FormFields,
	{ event, own = {}, unverified = {} }: MessageEventFields,
): IDataObject {
	const from = required(fields, 'SMS-From');
	if (from.trim() === '') throw badRequest('Empty field SMS-From');
	const text = required(fields, 'SMS-Content');
	return {
		event,
		from,
		text,
		keyword: orNull(firstWord(text)),
		// One conversation per number, so an AI Agent's memory keys on it (Session ID = {{ $json.sessionId }}).
		sessionId: `sms:${from.trim()}`,
		...own,
		// The digest covers From + Content as one string; so does the key. It names the recipe, not the
		// event: the unsigned SMS-To can turn a stop word into an opt-out, which must not make a new key.
		relayKey: relayKeyOf('message', [from + text]),
		unverified: {
			to: orNull(fields.get('SMS-To')),
			notifyId: orNull(fields.get('SMS-NotifyId')),
			keyphrase: keyphraseOf(fields),
			type: orNull(fields.get('SMS-Type')),
			network: networkOf(fields.get('SMS-Network')) as IDataObject | null,
			receivedAt: gatewayTimestamp(fields.get('SMS-TimeStamp')),
			...unverified,
		},
	};
}

/** A keyword a whole message is (a stop or start word), and which way it came. */
interface KeywordFound {
	via: 'shortcode' | 'reply';
	keyword: string;
}

/**
 * The claim of an event that is a signed message whose whole text is one keyword (Opt-Out,
 * Opt-In): `find` reads the fields without refusing anything, `own` is what its item adds.
 */
export function keywordClaim(
	event: string,
	find: (fields: FormFields, settings: ClassifySettings) => KeywordFound | null,
	own: (keyword: string) => IDataObject,
): RelayEventModule['claim'] {
	return (relay, settings) => {
		if (relay.authenticatedBy !== 'message') return null;
		const { fields } = relay;
		const found = find(fields, settings);
		if (found === null) return null;
		return () =>
			signedMessageItem(fields, {
				event,
				own: own(found.keyword),
				unverified: { via: found.via },
			});
	};
}
