// One item's legacy message read and checked: sender, text, one number, and whether it is excluded.
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { normaliseMsisdn, splitRecipients } from '../../domain/phoneNumbers';
import { legacySettingsSchema, parseCountryCode, violationsOf } from '../../domain/rules';
import { type ExcludeNumbers, unreadableExclusions } from './excludeNumbers';

/** One item's message, checked: `to` normalised, `excluded` when Exclude Numbers lists it. */
export interface LegacyMessage {
	from: string;
	to: string;
	text: string;
	notifyId: string;
	excluded: boolean;
}

export function fail(ctx: IExecuteFunctions, message: string, itemIndex: number): never {
	throw new NodeOperationError(ctx.getNode(), `${message} (item ${itemIndex})`, { itemIndex });
}

/**
 * The legacy gateway takes a line break as `¬` (Latin-1 172): CRLF, LF and CR each become one
 * (docs/provider-api.md#legacy-api).
 */
function withLegacyLineBreaks(text: string): string {
	return text.replace(/\r\n|\r|\n/g, '¬');
}

/**
 * Reads and checks one item's parameters; any problem is an error before anything is sent. The
 * options are read one by one: reading the whole collection would evaluate Exclude Numbers for
 * every item.
 */
export function readMessage(
	ctx: IExecuteFunctions,
	itemIndex: number,
	excludeNumbers: ExcludeNumbers,
): LegacyMessage {
	const from = String(ctx.getNodeParameter('from', itemIndex, '')).trim();
	const text = withLegacyLineBreaks(String(ctx.getNodeParameter('text', itemIndex, '')));
	const toList = splitRecipients(ctx.getNodeParameter('to', itemIndex, ''));
	const notifyId = String(ctx.getNodeParameter('options.notifyId', itemIndex, '') ?? '').trim();
	const countryCode = ctx.getNodeParameter('options.defaultCountryCode', itemIndex, '');

	const [violation] = violationsOf(legacySettingsSchema, { from, text, notifyId });
	if (violation?.field === 'from') fail(ctx, `From "${from}" ${violation.message}`, itemIndex);
	// The schema's messages start with the field's name: "Text is too long: 161 characters, the limit is 160".
	if (violation) fail(ctx, violation.message, itemIndex);
	const country = parseCountryCode(countryCode);
	if (!country.ok) fail(ctx, `Default Country Code ${country.problem}`, itemIndex);
	if (toList.length !== 1) {
		fail(
			ctx,
			`To must hold exactly one number (got ${toList.length}); use the Campaign resource for many recipients`,
			itemIndex,
		);
	}
	const to = normaliseMsisdn(toList[0], country.code);
	if (!to.ok) fail(ctx, `To "${toList[0]}" is not a valid number: ${to.reason}`, itemIndex);
	const suppression = excludeNumbers.forItem(itemIndex, country.code);
	const unreadable = unreadableExclusions(suppression);
	if (unreadable) fail(ctx, unreadable, itemIndex);
	return { from, to: to.msisdn, text, notifyId, excluded: suppression.numbers.has(to.msisdn) };
}
