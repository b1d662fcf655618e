import type { IExecuteFunctions, INodeParameters } from 'n8n-workflow';

import type { RuleViolation } from '../../domain/campaignRules';
import { LIMITS, notifyIdSchema, violationsOf } from '../../domain/campaignRules';
import { normaliseMsisdn, splitRecipients } from '../../domain/phoneNumbers';
import { toSendAt } from '../../domain/sendAt';
import { DEFAULT_TIMEOUT_MS } from '../../transport';
import type { ItemRequest, Recipient } from './plan';

interface CampaignOptions {
	batchSize?: number;
	campaignName?: string;
	defaultCountryCode?: string;
	dryRun?: boolean;
	excludeNumbers?: unknown;
	invalidNumbers?: 'skip' | 'fail';
	notifyId?: string;
	timeout?: number;
}

function hasExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (Array.isArray(value)) return value.some(hasExpression);
	if (value && typeof value === 'object') return Object.values(value).some(hasExpression);
	return false;
}

/**
 * Reads parameters per item. One without expressions is the same for every item, so it is read
 * once: at 100,000 items n8n's per-read work adds up.
 */
export class ParameterReader {
	private readonly constant = new Map<string, unknown>();

	/** Raw parameters, taken once: getNode() deep-copies the node on every call. */
	private readonly raw: INodeParameters;

	constructor(private readonly ctx: IExecuteFunctions) {
		this.raw = ctx.getNode().parameters;
	}

	/** An expression that fails becomes a violation instead of a crash. */
	read<T>(name: string, itemIndex: number, fallback: T, violations: RuleViolation[]): T {
		if (this.constant.has(name)) return this.constant.get(name) as T;
		try {
			const value = this.ctx.getNodeParameter(name, itemIndex, fallback) as T;
			if (!hasExpression(this.raw[name])) this.constant.set(name, value);
			return value;
		} catch (error) {
			violations.push({ field: name, message: `Could not read ${name}: ${(error as Error).message}` });
			return fallback;
		}
	}
}

function asText(value: unknown): string {
	if (value === null || value === undefined) return '';
	return typeof value === 'string' ? value : String(value);
}

/** Reads one input item's campaign parameters and normalises its recipients. */
export function collectItem(
	ctx: IExecuteFunctions,
	reader: ParameterReader,
	itemIndex: number,
	scheduled: boolean,
	now: Date,
): ItemRequest {
	const violations: RuleViolation[] = [];
	const read = <T>(name: string, fallback: T) => reader.read<T>(name, itemIndex, fallback, violations);
	const from = asText(read('from', '')).trim();
	const text = asText(read('text', ''));
	const listed = read<unknown>('recipients', '');
	const options = read<CampaignOptions>('options', {});

	const countryCode = asText(options.defaultCountryCode ?? '353').trim().replace(/^\+/, '') || '353';
	if (!/^\d{1,4}$/.test(countryCode)) {
		violations.push({
			field: 'defaultCountryCode',
			message: `Default Country Code "${countryCode}" must be 1 to 4 digits, e.g. 353`,
		});
	}

	const notifyId = asText(options.notifyId).trim();
	// The schema only runs when the cheap check fails: it is read for every one of 100,000 items.
	if (notifyId.length > LIMITS.notifyId) {
		for (const v of violationsOf(notifyIdSchema, notifyId)) violations.push({ field: 'notifyId', message: v.message });
	}

	let sendAt: string | null = null;
	if (scheduled) {
		const result = toSendAt(read<unknown>('sendAt', ''), ctx.getTimezone(), now);
		if (result.ok) sendAt = result.sendAt;
		else violations.push({ field: 'sendAt', message: result.message });
	}

	const excluded = new Set<string>();
	for (const entry of splitRecipients(options.excludeNumbers)) {
		const n = normaliseMsisdn(entry, countryCode);
		if (n.ok) excluded.add(n.msisdn);
	}

	const failOnInvalid = options.invalidNumbers === 'fail';
	const inputs = splitRecipients(listed);
	if (inputs.length === 0) inputs.push('');
	const recipients: Recipient[] = inputs.map((input) => {
		const recipient: Recipient = { input, msisdn: null, notifyId: notifyId || null, status: 'pending', reason: null };
		const n = input === '' ? { ok: false as const, reason: 'no number given' } : normaliseMsisdn(input, countryCode);
		if (!n.ok) {
			recipient.status = 'invalid';
			recipient.reason = n.reason;
			if (failOnInvalid) {
				violations.push({ field: 'recipients', message: `Invalid number "${input}": ${n.reason}` });
			}
		} else if (excluded.has(n.msisdn)) {
			recipient.msisdn = n.msisdn;
			recipient.status = 'excluded';
			recipient.reason = 'on the Exclude Numbers list';
		} else {
			recipient.msisdn = n.msisdn;
		}
		return recipient;
	});

	return {
		itemIndex,
		from,
		text,
		campaignName: asText(options.campaignName).trim(),
		sendAt,
		dryRun: options.dryRun === true,
		batchSize: Number(options.batchSize ?? LIMITS.recipientsPerRequest),
		timeoutMs: Number(options.timeout ?? DEFAULT_TIMEOUT_MS),
		recipients,
		violations,
	};
}
