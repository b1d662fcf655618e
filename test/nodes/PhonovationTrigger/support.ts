import type { IDataObject } from 'n8n-workflow';

import { classify } from '../../../nodes/PhonovationTrigger/events';
import type { FormFields } from '../../../nodes/PhonovationTrigger/incoming/formBody';
import { RelayRejection } from '../../../nodes/PhonovationTrigger/incoming/rejection';

/** The RelayRejection `run` throws, or undefined when it throws none. */
export function rejectionOf(run: () => unknown): RelayRejection | undefined {
	try {
		run();
	} catch (error) {
		if (error instanceof RelayRejection) return error;
		throw error;
	}
	return undefined;
}

/**
 * What a signed message's fields become, an inbound message or an opt-out, as the event registry
 * classifies and builds it (before the handler adds what verification proved).
 */
export function messageItem(
	fields: FormFields,
	settings: { stopReplies: boolean; optIns?: boolean },
): IDataObject {
	return classify(
		{ authenticatedBy: 'message', fields, verification: {} },
		{ optIns: true, ...settings },
	).build();
}
