// Refused relays: the HTTP status (400, 401, 413), its fixed text, and the reason only logs see.
/**
 * Refusals: the HTTP status a refused relay gets, the fixed text for each, and the reason that
 * goes only to n8n's log. Pure: every layer of the trigger throws these.
 */

type RejectionStatus = 400 | 401 | 413;

/**
 * The only texts a refused sender ever gets: one per status, never a request value or field
 * name (a refusal is rendered by whatever opens the URL, so echoing input would be an injection).
 */
export const REFUSAL_TEXT: Record<RejectionStatus, string> = {
	400: 'Bad request',
	401: 'Unauthorized',
	413: 'Payload too large',
};

/** Whether the sender got something wrong, or the trigger's owner has something to set up. */
type RejectionSource = 'request' | 'configuration';

/**
 * Why a relay is refused: the HTTP status the sender gets and, for n8n's log only, a fixed
 * description of the problem (it names our own fields, never what the request contained).
 */
export class RelayRejection extends Error {
	constructor(
		readonly status: RejectionStatus,
		readonly detail: string,
		readonly source: RejectionSource = 'request',
	) {
		super(detail);
		this.name = 'RelayRejection';
	}
}

export function badRequest(detail: string): RelayRejection {
	return new RelayRejection(400, detail);
}

export function unauthorized(detail: string): RelayRejection {
	return new RelayRejection(401, detail);
}

/** Refused because a secret the check needs is not set up: the same 401 a sender gets otherwise. */
export function notConfigured(detail: string): RelayRejection {
	return new RelayRejection(401, detail, 'configuration');
}
