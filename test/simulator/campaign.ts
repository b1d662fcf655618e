import { checkMsisdn } from './msisdn';
import type { Sender } from './config';

/** Limits of the campaign request (docs/provider-api.md#campaign-request, docs/provider-api.md#limits). */
export const LIMITS = {
	text: 2000,
	from: 20,
	campaignName: 30,
	notifyId: 30,
	recipients: 400_000,
} as const;

export interface AcceptedRecipient {
	/** International form: Irish national `08…` becomes `3538…`. */
	msisdn: string;
	notifyId?: string;
}

export type CampaignCheck =
	| { ok: true; accepted: AcceptedRecipient[]; errors: string[]; sendAt: string | null }
	| { ok: false; errors: string[] };

const SEND_AT_FORMAT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})Z$/;

/**
 * Validates a parsed `QueueCampaignRequest` the way the provider documents it: every problem
 * yields one string; invalid numbers alone only skip those recipients (partial acceptance).
 */
export function checkCampaign(body: unknown, senders: Sender[], nowMs: number): CampaignCheck {
	if (!body || typeof body !== 'object' || Array.isArray(body)) {
		return { ok: false, errors: ['The request body must be a JSON object'] };
	}
	const request = body as Record<string, unknown>;
	const problems = [
		...checkText(request.text),
		...checkFrom(request.from, senders),
		...checkCampaignName(request.campaignName),
		...checkSendAt(request.sendAt, nowMs),
	];
	const recipients = checkRecipients(request.recipientInfo);
	problems.push(...recipients.problems);

	const errors = [...problems, ...recipients.invalid];
	if (problems.length === 0 && recipients.accepted.length === 0 && recipients.invalid.length > 0) {
		errors.push('No valid recipient in recipientInfo');
	}
	if (problems.length > 0 || recipients.accepted.length === 0) return { ok: false, errors };
	const sendAt = typeof request.sendAt === 'string' ? request.sendAt : null;
	return { ok: true, accepted: recipients.accepted, errors: recipients.invalid, sendAt };
}

function isBlank(value: unknown): boolean {
	return value === undefined || value === null || value === '';
}

function checkText(text: unknown): string[] {
	if (isBlank(text)) return ['Message text cannot be empty'];
	if (typeof text !== 'string') return ['Message text (text) must be a string'];
	if (text.length > LIMITS.text) {
		return [`Message text cannot be longer than ${LIMITS.text} characters (got ${text.length})`];
	}
	return [];
}

function checkFrom(from: unknown, senders: Sender[]): string[] {
	if (isBlank(from)) return ['Sender (from) cannot be empty'];
	if (typeof from !== 'string') return ['Sender (from) must be a string'];
	if (from.length > LIMITS.from) {
		return [`Sender (from) cannot be longer than ${LIMITS.from} characters`];
	}
	return senders.some((s) => s.name === from) ? [] : ['Sender is not valid'];
}

function checkCampaignName(name: unknown): string[] {
	if (name === undefined || name === null) return [];
	if (typeof name !== 'string') return ['Campaign name (campaignName) must be a string'];
	if (name.length > LIMITS.campaignName) {
		return [`Campaign name cannot be longer than ${LIMITS.campaignName} characters`];
	}
	return [];
}

/** `yyyy-MM-ddTHH:mmZ`, a real calendar time, not before the current minute. */
function checkSendAt(sendAt: unknown, nowMs: number): string[] {
	if (sendAt === undefined || sendAt === null) return [];
	const match = typeof sendAt === 'string' ? SEND_AT_FORMAT.exec(sendAt) : null;
	if (!match) {
		return [
			`sendAt must be a UTC time formatted yyyy-MM-ddTHH:mmZ, e.g. 2030-06-01T09:00Z (got ${JSON.stringify(sendAt)})`,
		];
	}
	const [year, month, day, hour, minute] = match.slice(1).map(Number);
	const at = Date.UTC(year, month - 1, day, hour, minute);
	const d = new Date(at);
	const real =
		d.getUTCFullYear() === year &&
		d.getUTCMonth() === month - 1 &&
		d.getUTCDate() === day &&
		hour < 24 &&
		minute < 60;
	if (!real) return [`sendAt is not a valid date and time: ${sendAt}`];
	const currentMinute = Math.floor(nowMs / 60_000) * 60_000;
	if (at < currentMinute) {
		const now = new Date(currentMinute).toISOString().slice(0, 16) + 'Z';
		return [`sendAt is in the past: ${sendAt} (now ${now})`];
	}
	return [];
}

function checkRecipients(info: unknown): {
	problems: string[];
	invalid: string[];
	accepted: AcceptedRecipient[];
} {
	const result = {
		problems: [] as string[],
		invalid: [] as string[],
		accepted: [] as AcceptedRecipient[],
	};
	if (!Array.isArray(info) || info.length === 0) {
		result.problems.push('At least one recipient is required (recipientInfo)');
		return result;
	}
	if (info.length > LIMITS.recipients) {
		result.problems.push(
			`Too many recipients: ${info.length} (at most ${LIMITS.recipients} per request)`,
		);
		return result;
	}
	info.forEach((item, index) => {
		const where = `recipientInfo[${index}]`;
		if (!item || typeof item !== 'object' || Array.isArray(item)) {
			result.problems.push(`${where} must be an object with an msisdn`);
			return;
		}
		const { msisdn, notifyId } = item as Record<string, unknown>;
		let itemOk = true;
		if (msisdn !== undefined && msisdn !== null && typeof msisdn !== 'string') {
			result.problems.push(`${where}.msisdn must be a string`);
			itemOk = false;
		}
		if (notifyId !== undefined && notifyId !== null) {
			if (typeof notifyId !== 'string') {
				result.problems.push(`${where}.notifyId must be a string`);
				itemOk = false;
			} else if (notifyId.length > LIMITS.notifyId) {
				result.problems.push(
					`${where}.notifyId cannot be longer than ${LIMITS.notifyId} characters`,
				);
				itemOk = false;
			}
		}
		if (!itemOk) return;
		const sent = typeof msisdn === 'string' ? msisdn : '';
		const check = checkMsisdn(sent);
		if (!check.ok) {
			result.invalid.push(`Invalid MSISDN: ${sent}`);
			return;
		}
		result.accepted.push(
			typeof notifyId === 'string'
				? { msisdn: check.international, notifyId }
				: { msisdn: check.international },
		);
	});
	return result;
}
