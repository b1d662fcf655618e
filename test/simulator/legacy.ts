import { checkMsisdn } from './msisdn';
import type { SimulatorConfig } from './config';

/**
 * Status codes of the legacy `sendmessage.aspx` body (first line). Only `0` is documented by the
 * provider; the others are the simulator's own, one per kind of failure.
 */
export const LEGACY_CODES = {
	accepted: '0',
	authFailed: '1',
	invalidApiId: '2',
	missingParameter: '3',
	invalidNumber: '4',
	invalidSender: '5',
	invalidText: '6',
} as const;

/** Knowledgebase: `Text` is 0–160 characters, and a line break is sent as `¬`. */
const MAX_TEXT = 160;

function textProblem(text: string): string | undefined {
	const length = Array.from(text).length;
	if (length > MAX_TEXT) return `Text longer than ${MAX_TEXT} characters (got ${length})`;
	if (/[\r\n]/.test(text)) return 'Text contains a line break: send it as ¬';
	return undefined;
}

export interface LegacyOutcome {
	code: string;
	message: string;
	/** Set when accepted: `scheduled` when a non-zero deliverytime was given. */
	status?: 'sent' | 'scheduled';
}

/** Reads a parameter case-insensitively, under any of its documented spellings. */
function param(form: Record<string, string>, ...names: string[]): string {
	const wanted = names.map((n) => n.toLowerCase());
	for (const [key, value] of Object.entries(form)) {
		if (wanted.includes(key.toLowerCase())) return value;
	}
	return '';
}

/** Who an accepted legacy send went to, from whom, and its notify id (`notify_id` or `NotifyID`). */
export function legacyOutbound(form: Record<string, string>): {
	to: string[];
	from: string;
	notifyId: string | null;
} {
	const notifyId = param(form, 'notify_id', 'notifyid');
	return {
		to: param(form, 'to')
			.split(',')
			.map((n) => n.trim())
			.filter(Boolean),
		from: param(form, 'from'),
		notifyId: notifyId === '' ? null : notifyId,
	};
}

export function handleLegacySend(
	form: Record<string, string>,
	config: SimulatorConfig,
): LegacyOutcome {
	if (param(form, 'user') !== config.username || param(form, 'password') !== config.password) {
		return {
			code: LEGACY_CODES.authFailed,
			message: 'Authentication failed: unknown user or wrong password',
		};
	}
	if (param(form, 'api_id', 'apiid') !== config.apiId) {
		return { code: LEGACY_CODES.invalidApiId, message: 'Invalid api_id' };
	}
	const to = param(form, 'to');
	const text = param(form, 'text');
	const from = param(form, 'from');
	const missing = Object.entries({ to, text, from })
		.filter(([, value]) => value === '')
		.map(([name]) => name);
	if (missing.length > 0) {
		return {
			code: LEGACY_CODES.missingParameter,
			message: `Missing parameter: ${missing.join(', ')}`,
		};
	}
	// The knowledgebase allows a comma-separated list; the developer site shows one number.
	const invalid = to.split(',').find((n) => !checkMsisdn(n.trim()).ok);
	if (invalid !== undefined) {
		return {
			code: LEGACY_CODES.invalidNumber,
			message: `Invalid destination number: ${invalid.trim()}`,
		};
	}
	const badText = textProblem(text);
	if (badText) return { code: LEGACY_CODES.invalidText, message: badText };
	if (!config.senders.some((s) => s.name === from)) {
		return { code: LEGACY_CODES.invalidSender, message: `Sender not allowed: ${from}` };
	}
	const deliveryTime = param(form, 'deliverytime');
	return {
		code: LEGACY_CODES.accepted,
		message: 'Request deferred successfully',
		status: deliveryTime !== '' && deliveryTime !== '0' ? 'scheduled' : 'sent',
	};
}
