import type { CampaignSettings, PlannedRecipient } from './plan';

export const CAMPAIGN_PATH = '/api/v2/Campaign';

/** `" (batch 2 of 3)"` when a campaign has several batches, for messages about one of them. */
export function batchLabel(index: number, total: number): string {
	return total > 1 ? ` (batch ${index + 1} of ${total})` : '';
}

/** A byte buffer that grows by doubling, written to without a string per piece. */
class ByteWriter {
	private bytes: Buffer;

	private length = 0;

	constructor(expected: number) {
		this.bytes = Buffer.allocUnsafe(Math.max(expected, 256));
	}

	write(text: string): void {
		const size = Buffer.byteLength(text);
		if (this.length + size > this.bytes.length) {
			const grown = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.length + size));
			this.bytes.copy(grown, 0, 0, this.length);
			this.bytes = grown;
		}
		this.length += this.bytes.write(text, this.length);
	}

	/** The bytes written; copied to their exact size when the buffer grew well past them. */
	done(): Buffer {
		const written = this.bytes.subarray(0, this.length);
		return this.length < this.bytes.length * 0.75 ? Buffer.from(written) : written;
	}
}

/**
 * The campaign request as JSON bytes, written piece by piece into one buffer: at 400,000
 * recipients an object tree plus its serialisation, or a string per recipient, would hold
 * several copies of the body at once.
 */
export function requestBody(settings: CampaignSettings, batch: readonly PlannedRecipient[]): Buffer {
	const head: Record<string, string> = { text: settings.text, from: settings.from };
	if (settings.campaignName) head.campaignName = settings.campaignName;
	if (settings.sendAt) head.sendAt = settings.sendAt;
	const out = new ByteWriter(batch.length * 48 + 4096);
	out.write(`${JSON.stringify(head).slice(0, -1)},"recipientInfo":[`);
	// Recipients of one item share their Notify ID: its JSON is written once per distinct value.
	let notifyId: string | null = null;
	let notifyIdJson = '';
	for (let i = 0; i < batch.length; i++) {
		const recipient = batch[i];
		out.write(i ? ',{"msisdn":"' : '{"msisdn":"');
		out.write(recipient.msisdn!);
		if (recipient.notifyId) {
			if (recipient.notifyId !== notifyId) {
				notifyId = recipient.notifyId;
				notifyIdJson = `","notifyId":${JSON.stringify(notifyId)}}`;
			}
			out.write(notifyIdJson);
		} else {
			out.write('"}');
		}
	}
	out.write(']}');
	return out.done();
}
