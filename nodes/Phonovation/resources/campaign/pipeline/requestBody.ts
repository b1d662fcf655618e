import type { CampaignSettings, PlannedRecipient } from './plan';

export const CAMPAIGN_PATH = '/api/v2/Campaign';

/** `" (batch 2 of 3)"` when a campaign has several batches, for messages about one of them. */
export function batchLabel(index: number, total: number): string {
	return total > 1 ? ` (batch ${index + 1} of ${total})` : '';
}

/**
 * The campaign request as JSON bytes, written in chunks: at 400,000 recipients an object tree
 * plus its serialisation would hold several copies of the body at once.
 */
export function requestBody(settings: CampaignSettings, batch: readonly PlannedRecipient[]): Buffer {
	const head: Record<string, string> = { text: settings.text, from: settings.from };
	if (settings.campaignName) head.campaignName = settings.campaignName;
	if (settings.sendAt) head.sendAt = settings.sendAt;
	const chunks = [Buffer.from(`${JSON.stringify(head).slice(0, -1)},"recipientInfo":[`)];
	let part = '';
	for (let i = 0; i < batch.length; i++) {
		const { msisdn, notifyId } = batch[i];
		part += `${i ? ',' : ''}{"msisdn":"${msisdn}"${notifyId ? `,"notifyId":${JSON.stringify(notifyId)}` : ''}}`;
		if (part.length > 65_536) {
			chunks.push(Buffer.from(part));
			part = '';
		}
	}
	chunks.push(Buffer.from(`${part}]}`));
	return Buffer.concat(chunks);
}
