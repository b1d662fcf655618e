// An opt-in honoured once: a signed START re-subscribes its number the first time only.
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { START_WORDS_TEXT } from '../../../shared/optInWords';
import { asText } from '../../../shared/values';
import { logOnce, runOf } from './assistant/messageLog';
import { firstOfKey, messageId, seenRow } from './assistant/messages';

const refused = (reason: string): IDataObject => ({ optIn: { honoured: false, reason } });

/**
 * Whether a verified opt-in (START, UNSTOP, SUBSCRIBE) takes the number off the suppression list.
 * The provider signs only the number and the text, so a copy of a START posted again (a fresh time
 * stamp, or the From/Content boundary moved) cannot be told from the person texting it again; and
 * a wrong "yes" texts a person who said STOP. So the relay is logged as seen (inserted, one row a
 * call) and honoured only when it is the first row ever logged with its signed text: a person's
 * second START after a second STOP changes nothing either, and the item says to text another start
 * word. Logged once per node, run and item (logOnce), so a retry finds its own row and says the same.
 */
export async function honourOptIn(
	ctx: IExecuteFunctions,
	itemIndex: number,
	item: IDataObject,
	phone: string,
): Promise<IDataObject> {
	const key = asText(item.relayKey);
	if (key === '') return refused('the relay has no relayKey (a trigger of an earlier version)');
	const at = new Date().toISOString();
	const id = messageId('seen', runOf(ctx), itemIndex);
	const { rows, logged } = await logOnce(
		ctx,
		itemIndex,
		seenRow({ phone, key, at, id }),
		'optInLogged',
	);
	const first = firstOfKey(rows, key) ?? logged;
	if (first.id === logged.id) return { optIn: { honoured: true, at: logged.at } };
	if (first.phone !== phone)
		return refused(
			"the same signed text was logged first for another number: a relay with its From/Content boundary moved changes nobody's opt-out",
		);
	return refused(
		`this signed text came from this number before (${first.at}): a copy of a START posted again cannot be told from a new one, so it changes nothing. To be texted again, the person texts another start word (${START_WORDS_TEXT}, in other capitals)`,
	);
}
