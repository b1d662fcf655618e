// The Relay Secret and URL Token from the credential, loaded once per request and only when needed.
/**
 * The Relay Secret and URL Token from the credential, loaded at most once per request and only
 * when a check needs them.
 */

import type { ICredentialDataDecryptedObject, IWebhookFunctions } from 'n8n-workflow';

import { requestCausedLog } from '../incoming/log';

/** The secrets relays are checked against; `undefined` when not set. */
export interface TriggerSecrets {
	relaySecret?: string;
	/** Required as `?token=` on processing results; without one they are refused. */
	urlToken?: string;
}

function nonEmpty(value: unknown): string | undefined {
	return typeof value === 'string' && value !== '' ? value : undefined;
}

async function credentialOf(
	context: IWebhookFunctions,
): Promise<ICredentialDataDecryptedObject | undefined> {
	try {
		return await context.getCredentials<ICredentialDataDecryptedObject>('phonovationApi');
	} catch (error) {
		// The message is n8n's (e.g. credential not found); it never holds the secrets.
		const line = `Phonovation Trigger: credential unavailable (${(error as Error).message})`;
		requestCausedLog((text) => context.logger.warn(text), line);
		return undefined;
	}
}

async function load(context: IWebhookFunctions, legacyToken: string): Promise<TriggerSecrets> {
	const credential = await credentialOf(context);
	const urlToken = nonEmpty(credential?.urlToken);
	if (urlToken === undefined && nonEmpty(legacyToken) !== undefined) {
		requestCausedLog(
			(text) => context.logger.warn(text),
			"Phonovation Trigger: the URL Token is set in the node, where it is stored in plain text with the workflow. Move it to the Phonovation credential's URL Token and clear the node option.",
		);
	}
	return {
		relaySecret: nonEmpty(credential?.relaySecret),
		urlToken: urlToken ?? nonEmpty(legacyToken),
	};
}

/**
 * The Relay Secret and URL Token from the credential, loaded at most once per request and only
 * when a check needs them. A URL token still set in the node's old option is used when the
 * credential has none.
 */
export function secretsLoader(
	context: IWebhookFunctions,
	legacyToken: string,
): () => Promise<TriggerSecrets> {
	let loaded: Promise<TriggerSecrets> | undefined;
	return async () => await (loaded ??= load(context, legacyToken));
}
