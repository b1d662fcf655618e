// What the campaign pipeline takes: one input item's text as its operation read or built it.
import type { RuleViolation } from '../../../domain/rules';
import type { CampaignOptions } from '../options';

/**
 * One input item's text before any checking: who sends it, what it says, to which numbers, when
 * and with which options. Send and Schedule read it from the node's fields (readParameters.ts), Ask
 * from its own (sendOneText.ts), and Reply builds it from what it worked out (sendOneText.ts).
 */
export interface TextRequest {
	itemIndex: number;
	from: unknown;
	text: unknown;
	recipients: unknown;
	/** Only for Schedule. */
	sendAt: unknown;
	options: CampaignOptions;
	/** Fields whose expressions failed. */
	unreadable: RuleViolation[];
}
