import type { RuleViolation } from '../../domain/campaignRules';
import { campaignSettingsSchema, violationsOf } from '../../domain/campaignRules';

export type RecipientStatus =
	| 'pending'
	| 'accepted'
	| 'rejected by provider'
	| 'invalid'
	| 'duplicate'
	| 'excluded'
	| 'not sent'
	| 'dry run';

/** One number of one input item and what became of it. */
export interface Recipient {
	input: string;
	msisdn: string | null;
	notifyId: string | null;
	status: RecipientStatus;
	reason: string | null;
}

/** What a campaign request carries besides its recipients (the first item's values win). */
export interface CampaignSettings {
	from: string;
	text: string;
	campaignName: string;
	sendAt: string | null;
	dryRun: boolean;
	batchSize: number;
	timeoutMs: number;
}

/** What one input item asks for, after reading and normalising its parameters. */
export interface ItemRequest extends CampaignSettings {
	itemIndex: number;
	recipients: Recipient[];
	violations: RuleViolation[];
}

export interface Campaign extends CampaignSettings {
	items: ItemRequest[];
	/** Recipients to send, in order, each exactly once. */
	toSend: Recipient[];
	/** Violations with the item they came from; any of them stops the whole campaign. */
	violations: Array<RuleViolation & { itemIndex: number }>;
	warnings: string[];
}

/** Items whose sender, text, send time, campaign name and dry-run flag agree form one campaign. */
export function groupIntoCampaigns(items: ItemRequest[]): Campaign[] {
	const byKey = new Map<string, Campaign>();
	for (const item of items) {
		const key = JSON.stringify([item.from, item.text, item.sendAt, item.campaignName, item.dryRun]);
		let campaign = byKey.get(key);
		if (!campaign) {
			const { from, text, campaignName, sendAt, dryRun, batchSize, timeoutMs } = item;
			campaign = {
				...{ from, text, campaignName, sendAt, dryRun, batchSize, timeoutMs },
				items: [],
				toSend: [],
				violations: [],
				warnings: [],
			};
			byKey.set(key, campaign);
		}
		campaign.items.push(item);
	}
	for (const campaign of byKey.values()) settle(campaign);
	return [...byKey.values()];
}

/** Dedupes recipients across the campaign's items and collects every rule it breaks. */
function settle(campaign: Campaign): void {
	const first = campaign.items[0];
	for (const v of violationsOf(campaignSettingsSchema, {
		from: campaign.from,
		text: campaign.text,
		campaignName: campaign.campaignName || undefined,
		batchSize: campaign.batchSize,
	})) {
		campaign.violations.push({ ...v, itemIndex: first.itemIndex });
	}

	const seen = new Map<string, number>();
	for (const item of campaign.items) {
		for (const v of item.violations) campaign.violations.push({ ...v, itemIndex: item.itemIndex });
		for (const recipient of item.recipients) {
			if (recipient.status !== 'pending' || recipient.msisdn === null) continue;
			const earlier = seen.get(recipient.msisdn);
			if (earlier !== undefined) {
				recipient.status = 'duplicate';
				recipient.reason =
					earlier === item.itemIndex
						? 'listed more than once in this item; sent once'
						: `already in this campaign from item ${earlier}; sent once`;
				continue;
			}
			seen.set(recipient.msisdn, item.itemIndex);
			campaign.toSend.push(recipient);
		}
	}
	if (campaign.toSend.length === 0 && campaign.violations.length === 0) {
		campaign.violations.push({
			field: 'recipients',
			message: 'No valid recipient left to send to (all were invalid, excluded or duplicates)',
			itemIndex: first.itemIndex,
		});
	}
}

export function batchesOf<T>(list: T[], size: number): T[][] {
	if (list.length <= size) return [list];
	const batches: T[][] = [];
	for (let start = 0; start < list.length; start += size) batches.push(list.slice(start, start + size));
	return batches;
}

/** Numbers (6+ digits) an error string names, e.g. `Invalid MSISDN: 35312345678`. */
export function numbersNamedIn(message: string): string[] {
	return message.match(/\d{6,20}/g) ?? [];
}
