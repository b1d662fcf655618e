// An opt-in honoured once: a signed START re-subscribes its number the first time only.
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { START_WORDS_TEXT } from '../../../shared/optInWords';
import { logOnce } from './assistant/messageLog';
import { firstOfKey, type LoggedMessage } from './assistant/messages';

const refused = (reason: string): IDataObject => ({ optIn: { honoured: false, reason } });

/**
 * Whether a verified opt-in (START, UNSTOP, SUBSCRIBE) takes the number off the suppression list.
 * The provider signs only the number and the text, so a copy of a START posted again (a fresh time
 * stamp, or the From/Content boundary moved) cannot be told from the person texting it again; and
 * a wrong "yes" texts a person who said STOP. So the relay is logged as seen (inserted, one row a
 * call) and honoured only when it is the first row ever logged with its signed text: a person's
 * second START after a second STOP changes nothing either, and the item says to text another start
 * word. Logged once per node, run and item (logOnce), so a retry finds its own row and says the same.
 * `seen`: the relay's seen row (seenRowOf); null without a relayKey.
 */
export async function honourOptIn(
	ctx: IExecuteFunctions,
	itemIndex: number,
	seen: LoggedMessage | null,
): Promise<IDataObject> {
	if (seen === null) return refused('the relay has no relayKey (a trigger of an earlier version)');
	const { rows, logged } = await logOnce(ctx, itemIndex, seen, 'optInLogged');
	const first = firstOfKey(rows, seen.key) ?? logged;
	if (first.id === logged.id) return { optIn: { honoured: true, at: logged.at } };
	if (first.phone !== seen.phone)
		return refused(
			"the same signed text was logged first for another number: a relay with its From/Content boundary moved changes nobody's opt-out",
		);
	return refused(
		`this signed text came from this number before (${first.at}): a copy of a START posted again cannot be told from a new one, so it changes nothing. To be texted again, the person texts another start word (${START_WORDS_TEXT}, in other capitals)`,
	);
}
