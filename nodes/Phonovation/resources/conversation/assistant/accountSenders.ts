// The account's senders as the assistant's guards read them: every name, and the longcodes.
import type { IExecuteFunctions } from 'n8n-workflow';

import { fetchSenders, type SenderRecord } from '../../sender/senders';
import type { AccountSenders } from './replyGuards';

/** Numeric senders are type 2 in the provider's sender list. */
const NUMERIC_SENDER = 2;

/** The account's senders, names and numeric ones (longcodes), as the provider's list gives them. */
export function accountSendersOf(senders: readonly SenderRecord[]): AccountSenders {
	return {
		names: new Set(senders.map((s) => s.name.replace(/^\+/, ''))),
		longcodes: new Set(
			senders.filter((s) => s.type === NUMERIC_SENDER).map((s) => s.name.replace(/^\+/, '')),
		),
	};
}

/** The account's senders, read from the provider. */
export async function accountSenders(ctx: IExecuteFunctions): Promise<AccountSenders> {
	return accountSendersOf(await fetchSenders(ctx));
}
