// The campaign request's JSON body, written as bytes piece by piece, for up to 400,000 recipients.
import { BODY_OPTIONS } from '../options';
import type { CampaignSettings } from './plan';
import type { CampaignRecipients } from './recipients';

/** The recipients of one request: entries of a campaign's columns, in send order. */
interface BatchRecipients {
	readonly columns: CampaignRecipients;
	readonly entries: Int32Array;
}

export const CAMPAIGN_PATH = '/api/v2/Campaign';

/** `" (batch 2 of 3)"` when a campaign has several batches, for messages about one of them. */
export function batchLabel(index: number, total: number): string {
	return total > 1 ? ` (batch ${index + 1} of ${total})` : '';
}

/**
 * Whether JSON.stringify would escape anything in the text: quotes, backslashes, control characters, (lone)
 * surrogates.
 */
function needsEscaping(text: string): boolean {
	for (let i = 0; i < text.length; i++) {
		const code = text.charCodeAt(i);
		if (code < 0x20 || code === 0x22 || code === 0x5c || (code >= 0xd800 && code <= 0xdfff))
			return true;
	}
	return false;
}

/** A byte buffer that grows by doubling, written to without a string per piece. */
export class ByteWriter {
	private bytes: Buffer;

	private length = 0;

	constructor(expected: number) {
		this.bytes = Buffer.allocUnsafe(Math.max(expected, 256));
	}

	write(text: string): void {
		this.reserve(Buffer.byteLength(text));
		this.length += this.bytes.write(text, this.length);
	}

	/** Text known to be ASCII (a number's digits), copied character by character: no call into C++ per piece. */
	ascii(text: string): void {
		this.reserve(text.length);
		for (let i = 0; i < text.length; i++) this.bytes[this.length++] = text.charCodeAt(i);
	}

	/** A whole number ≥ 0 in decimal, without making its string. */
	decimal(value: number): void {
		let digits = 1;
		for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) digits++;
		this.reserve(digits);
		for (
			let at = this.length + digits - 1, rest = value;
			at >= this.length;
			at--, rest = Math.floor(rest / 10)
		)
			this.bytes[at] = 48 + (rest % 10);
		this.length += digits;
	}

	private reserve(size: number): void {
		if (this.length + size <= this.bytes.length) return;
		const grown = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.length + size));
		this.bytes.copy(grown, 0, 0, this.length);
		this.bytes = grown;
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
export function requestBody(settings: CampaignSettings, batch: BatchRecipients): Buffer {
	const head: Record<string, unknown> = { text: settings.text, from: settings.from };
	for (const name of BODY_OPTIONS) {
		const value = settings.options[name];
		if (value !== '' && value !== null && value !== undefined) head[name] = value;
	}
	if (settings.sendAt) head.sendAt = settings.sendAt;
	const { columns, entries } = batch;
	const out = new ByteWriter(entries.length * 48 + 4096);
	out.write(`${JSON.stringify(head).slice(0, -1)},"recipientInfo":[`);
	// Recipients of one item share their Notify ID: its JSON is written once per distinct value.
	let notifyId: string | null = null;
	let notifyIdJson = '';
	for (let i = 0; i < entries.length; i++) {
		out.ascii(i ? ',{"msisdn":"' : '{"msisdn":"');
		// Normalised numbers are digits only.
		out.ascii(columns.msisdn(entries[i])!);
		const own = columns.notifyId(entries[i]);
		if (own && own === notifyId) {
			out.write(notifyIdJson);
		} else if (own && !needsEscaping(own)) {
			// One Notify ID per row (100,000 rows): written as it is, no JSON string made for each.
			out.ascii('","notifyId":"');
			out.write(own);
			out.ascii('"}');
		} else if (own) {
			notifyId = own;
			notifyIdJson = `","notifyId":${JSON.stringify(notifyId)}}`;
			out.write(notifyIdJson);
		} else {
			out.ascii('"}');
		}
	}
	out.write(']}');
	return out.done();
}
