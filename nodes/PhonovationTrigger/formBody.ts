import { badRequest } from './rejection';

export type RawValue = string | string[];

/** Left out of `raw`: the signature is of no use downstream and should not sit in execution data. */
const NOT_RAW = 'sms-verify';

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
		for (const [name, value] of entries) {
			const key = name.toLowerCase();
			if (this.byName.has(key) && key.startsWith('sms-')) {
				// Two values for one field (in any spelling) leave the relay ambiguous.
				throw badRequest('A provider field (SMS-…) appears more than once');
			}
			if (!this.byName.has(key)) this.byName.set(key, value);
			if (key === NOT_RAW) continue;
			const previous = this.raw[name];
			this.raw[name] =
				previous === undefined ? value : ([] as string[]).concat(previous, value);
		}
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

/** Decodes `application/x-www-form-urlencoded` text strictly: UTF-8, `+` and `%20` are spaces. */
export function parseFormBody(text: string): FormFields {
	const entries: Array<[string, string]> = [];
	for (const pair of text.split('&')) {
		if (pair === '') continue;
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
			entries.push([name, typeof item === 'string' ? item : String(item ?? '')]);
		}
	}
	return new FormFields(entries);
}
