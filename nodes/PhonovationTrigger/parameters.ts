// The trigger's Events and options, read once per relay; n8n's engine only for an expression.
/** The trigger's parameters, read once per relay without the expression engine unless one is an expression. */

import type { IWebhookFunctions } from 'n8n-workflow';

import { hasExpression } from '../shared/values';

import type { RelayEvent } from './events';

export interface TriggerOptions {
	acceptUnlinkedReceipts?: boolean;
	includeRaw?: boolean;
	keywords?: string;
	stopReplies?: boolean;
	/** The URL token's old place; the credential's URL Token replaces it. */
	token?: string;
	verifySignature?: boolean;
}

interface TriggerParameters {
	events: RelayEvent[];
	options: TriggerOptions;
}

/**
 * The node's parameters, read once per relay. Typed-in values (the usual case) are taken as
 * stored, with n8n's defaults already filled in; only when one is an expression does n8n
 * evaluate them, which costs an expression-engine round trip per parameter.
 */
export function readTriggerParameters(context: IWebhookFunctions): TriggerParameters {
	const { events, options } = context.getNode().parameters;
	if (!hasExpression(events) && !hasExpression(options)) {
		return { events: (events ?? []) as RelayEvent[], options: (options ?? {}) as TriggerOptions };
	}
	return {
		events: context.getNodeParameter('events', []) as RelayEvent[],
		options: context.getNodeParameter('options', {}) as TriggerOptions,
	};
}
