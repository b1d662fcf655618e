// Form-encoded relay bodies decoded strictly: at most 64 fields, names looked up without case.
/**
 * Form-encoded relays (messages and receipts): decoded strictly in linear time, at most 64 fields,
 * names looked up case-insensitively, the fields as received kept for `raw`.
 */

import { badRequest } from './rejection';

type RawValue = string | string[];

/** Left out of `raw`: the signature is of no use downstream and should not sit in execution data. */
const NOT_RAW = 'sms-verify';

/**
 * A real relay has about 11 fields. Anything with many more is not from the provider, and
 * stopping early keeps the cost of refusing it independent of the body's size.
 */
export const MAX_FIELDS = 64;

function tooManyFields(): Error {
	return badRequest(`More than ${MAX_FIELDS} form fields`);
}

/**
 * The fields of a form-encoded relay, looked up case-insensitively: real traffic spells
 * `SMS-NotifyId`/`SMS-NotifyID` and `SMS-Keyphrase`/`SMS-KeyPhrase` both ways.
 */
export class FormFields {
	private readonly byName = new Map<string, string>();

	/**
	 * The fields with their names and values as received (after decoding), except SMS-Verify.
	 * No prototype: a field named `__proto__` or `constructor` is data like any other.
	 */
	readonly raw: Record<string, RawValue> = Object.create(null) as Record<string, RawValue>;

	constructor(entries: Array<[string, string]>) {
		if (entries.length > MAX_FIELDS) throw tooManyFields();
		for (const [name, value] of entries) {
			const key = name.toLowerCase();
			if (this.byName.has(key) && key.startsWith('sms-')) {
				// Two values for one field (in any spelling) leave the relay ambiguous.
				throw badRequest('A provider field (SMS-…) appears more than once');
			}
			if (!this.byName.has(key)) this.byName.set(key, value);
			if (key !== NOT_RAW) this.addRaw(name, value);
		}
	}

	/** Repeats of a name are collected in one array, appended in place (never copied per repeat). */
	private addRaw(name: string, value: string): void {
		const previous = this.raw[name];
		if (previous === undefined) this.raw[name] = value;
		else if (Array.isArray(previous)) previous.push(value);
		else this.raw[name] = [previous, value];
	}

	get(name: string): string | undefined {
		return this.byName.get(name.toLowerCase());
	}

	has(name: string): boolean {
		return this.byName.has(name.toLowerCase());
	}

	get size(): number {
		return this.byName.size;
	}
}

function decodeComponent(text: string): string | undefined {
	try {
		// `+` is a space in forms; decodeURIComponent then rejects bad %XX and invalid UTF-8.
		return decodeURIComponent(text.replace(/\+/g, ' '));
	} catch {
		return undefined;
	}
}

/** The `name=value` pieces of a form body, refused as soon as there are more than MAX_FIELDS. */
function pairsOf(text: string): string[] {
	const pairs: string[] = [];
	let start = 0;
	while (start <= text.length) {
		let end = text.indexOf('&', start);
		if (end === -1) end = text.length;
		if (end > start) {
			if (pairs.length === MAX_FIELDS) throw tooManyFields();
			pairs.push(text.slice(start, end));
		}
		start = end + 1;
	}
	return pairs;
}

/** Decodes `application/x-www-form-urlencoded` text strictly: UTF-8, `+` and `%20` are spaces. */
export function parseFormBody(text: string): FormFields {
	const entries: Array<[string, string]> = [];
	for (const pair of pairsOf(text)) {
		const equals = pair.indexOf('=');
		const name = decodeComponent(equals === -1 ? pair : pair.slice(0, equals));
		const value = decodeComponent(equals === -1 ? '' : pair.slice(equals + 1));
		if (name === undefined || value === undefined) {
			throw badRequest('Form body has invalid percent-encoding or invalid UTF-8');
		}
		entries.push([name, value]);
	}
	return new FormFields(entries);
}

/** Builds the fields from a body the host already parsed (used only when no raw body exists). */
export function formFieldsFromObject(body: Record<string, unknown>): FormFields {
	const entries: Array<[string, string]> = [];
	for (const [name, value] of Object.entries(body)) {
		for (const item of Array.isArray(value) ? value : [value]) {
			if (entries.length === MAX_FIELDS) throw tooManyFields();
			entries.push([name, typeof item === 'string' ? item : String(item ?? '')]);
		}
	}
	return new FormFields(entries);
}
