// The credential's Relay Secret, read in this one place by every operation and the resume webhook.
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { asText } from '../../../../shared/values';

/** What can read the node's credential: an operation's run or its resume webhook. */
interface ReadsCredentials {
	getCredentials(type: string): Promise<ICredentialDataDecryptedObject>;
}

/** The Relay Secret, '' when the credential has none: it keys every proof, Notify ID and seal. */
export async function relaySecretOf(ctx: ReadsCredentials): Promise<string> {
	return asText((await ctx.getCredentials('phonovationApi')).relaySecret);
}
