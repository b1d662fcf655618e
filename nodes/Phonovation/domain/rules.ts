// The provider's limits, the node's defaults, and the checks of sender, text and country code.
import { z } from 'zod';

import { COUNTRY_CALLING_CODES } from './countryCodes';

/**
 * Provider limits (docs/provider-api.md#limits; recipient ceiling from the provider's sending guide).
 * The UI descriptions, the campaign path and the legacy send all read them from here.
 */
export const LIMITS = {
	text: 2000,
	/** The legacy API's Text: 0–160 characters (provider knowledge base, docs/provider-api.md#legacy-api). */
	legacyText: 160,
	from: 20,
	campaignName: 30,
	msisdn: 20,
	notifyId: 30,
	recipientsPerRequest: 400_000,
} as const;

export const IRISH_COUNTRY_CODE = '353';

/** National numbers written with a leading 0 get this country code unless told otherwise. */
export const DEFAULT_COUNTRY_CODE = IRISH_COUNTRY_CODE;

/** Default time a provider request may take before it fails; a 400,000-recipient body is large. */
export const DEFAULT_TIMEOUT_MS = 120_000;

/**
 * Campaign requests in flight at once, at most. n8n's HTTP Request node sends every item's request
 * at once; the provider publishes no rate limit, so the node starts modestly and finds the
 * provider's pace below this ceiling (pacer.ts); a user can pin a fixed number instead.
 */
export const DEFAULT_PARALLEL_REQUESTS = 256;
export const MAX_PARALLEL_REQUESTS = 1000;

/** A problem found before anything is sent: which parameter, and what is wrong with it. */
export interface RuleViolation {
	field: string;
	message: string;
}

/** A country calling code as written: its digits, with `+` or `00` in front or not (`353`, `+353`, `00353`). */
const COUNTRY_CODE = /^(?:\+|00)?(\d+)$/;

/**
 * The Default Country Code option as digits, or a violation naming the option. Only a country's
 * calling code will do (ITU-T E.164): `35` would send every 087… number to +358 87… in Finland.
 */
export function parseCountryCode(
	value: unknown,
): { ok: true; code: string } | { ok: false; problem: string } {
	const text = String(value ?? '').trim();
	if (text === '') return { ok: true, code: DEFAULT_COUNTRY_CODE };
	const match = COUNTRY_CODE.exec(text);
	if (match && COUNTRY_CALLING_CODES.has(match[1])) return { ok: true, code: match[1] };
	return {
		ok: false,
		problem: `"${shownCode(text)}" is not a country calling code (ITU-T E.164), e.g. 353 for Ireland or 44 for the UK`,
	};
}

/** What the user typed, cut short: the option is read per item and may hold anything. */
const shownCode = (text: string) => (text.length > 20 ? `${text.slice(0, 20)}…` : text);

function limited(what: string, limit: number) {
	return z.string().superRefine((value, ctx) => {
		if (value.length > limit) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				message: `${what} is too long: ${value.length} characters, the limit is ${limit}`,
			});
		}
	});
}

const notBlank = (what: string) => (value: string) => value.trim() !== '' || `${what} is empty`;

function required(what: string, limit: number) {
	return limited(what, limit).superRefine((value, ctx) => {
		const result = notBlank(what)(value);
		if (result !== true) ctx.addIssue({ code: z.ZodIssueCode.custom, message: result });
	});
}

/** What one campaign request carries apart from its recipients and options (options/ reads those). */
export const campaignSettingsSchema = z.object({
	from: required('Sender ID', LIMITS.from),
	text: required('Text', LIMITS.text),
});

/** Legacy sender IDs: alphanumeric up to 11 characters, or a numeric long/short code. */
const LEGACY_SENDER = /^(?:[A-Za-z0-9]{1,11}|\d{1,16})$/;

/** What one legacy send carries apart from its recipient. */
export const legacySettingsSchema = z.object({
	from: z
		.string()
		.regex(
			LEGACY_SENDER,
			'is not a legacy sender ID: up to 11 letters and digits without spaces, or a number',
		),
	/** Checked as sent: each line break already turned into one `¬` (docs/provider-api.md#legacy-api). */
	text: required('Text', LIMITS.legacyText),
	notifyId: limited('Notify ID', LIMITS.notifyId),
});

/** Runs a schema and turns its issues into field-named violations (empty when valid). */
export function violationsOf(schema: z.ZodTypeAny, value: unknown): RuleViolation[] {
	const result = schema.safeParse(value);
	if (result.success) return [];
	return result.error.issues.map((issue) => ({
		field: issue.path.length ? String(issue.path[0]) : '',
		message: issue.message,
	}));
}

const YES = new Set(['true', '1', 'yes', 'y', 'on']);
const NO = new Set(['false', '0', 'no', 'n', 'off', '']);

/** A yes/no value as a spreadsheet may write it ("TRUE", "1", "yes", "off"); undefined when it is neither. */
export function readYesNo(value: unknown): boolean | undefined {
	if (typeof value === 'boolean') return value;
	const word = String(value ?? '')
		.trim()
		.toLowerCase();
	if (YES.has(word)) return true;
	if (NO.has(word)) return false;
	return undefined;
}
