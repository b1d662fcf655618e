// Exclude Numbers read: a suppression list in any shape (text, arrays, items, rows) into numbers.
import { normaliseMsisdn, numberAsWritten, suppressionForms } from './phoneNumbers';

/**
 * Field names read as phone numbers when Exclude Numbers is given objects (rows, n8n items),
 * compared without case, spaces, `_` and `-` (so `Phone Number`, `phone_number` and `phoneNumber`
 * are one name). Besides these, any field whose name has a word saying phone (PHONE_WORD) is read.
 * Every one of them an object has is read: a contact's phone and mobile are both excluded. `from`
 * is who sent an inbound text or an opt-out (the Phonovation Trigger's items).
 */
export const PHONE_FIELDS = [
	'phone',
	'phoneNumber',
	'mobile',
	'mobileNumber',
	'mobilePhone',
	'msisdn',
	'number',
	'cell',
	'cellPhone',
	'tel',
	'telephone',
	'from',
	'to',
] as const;

const fieldKey = (name: string) => name.toLowerCase().replace(/[\s_-]/g, '');
const PHONE_KEYS = new Set(PHONE_FIELDS.map(fieldKey));

/**
 * A word of a field name that says phone: it holds `phone` or `msisdn` (`Telephone`, `HomePhone`,
 * `phonenumber`), or is mobile, cell, tel or a local spelling, alone or run into number, no or nr
 * (`Cell`, `mobilenumber`, `TelNo`, `Telefon`). Whole words only: `Hotel`, `Title`, `Telegram`
 * and `Cancellation` are no phone fields.
 */
const PHONE_WORD =
	/phone|msisdn|^(?:mobiles?|mobil|mobiel|movil|celular|cell|cell?ulare?|tel|telefon[eo]?)(?:no|nr|num|number|nummer|numero)?$/;

/**
 * `Mobile Phone Number`, `mobile_phone`, `MobilePhone`, `MSISDNNumber`, `phone2` → its lower-case words, accents
 * dropped.
 */
function wordsOf(name: string): string[] {
	const separated = name
		.normalize('NFD')
		.replace(/\p{M}/gu, '')
		.replace(/(\p{Ll}|\d)(\p{Lu})/gu, '$1 $2')
		.replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
		.replace(/(\p{L})(\d)/gu, '$1 $2');
	return separated.toLowerCase().split(/[^a-z0-9]+/);
}

const phoneFieldNames = new Map<string, boolean>();

/** Whether a field's name says phone; remembered by name, as 100,000 rows repeat the same few names. */
export function isPhoneField(name: string): boolean {
	let phone = phoneFieldNames.get(name);
	if (phone === undefined) {
		phone = PHONE_KEYS.has(fieldKey(name)) || wordsOf(name).some((word) => PHONE_WORD.test(word));
		if (phoneFieldNames.size < 10_000) phoneFieldNames.set(name, phone);
	}
	return phone;
}

/** An entry that excludes no one, shown without any value that is not a number someone wrote. */
interface UnreadableExclusion {
	/** Where it sits in the list: `[3]`, `[3].json.phone`, `json`; empty for a plain text list. */
	at: string;
	/** The entry as written, cut at SHOWN_LENGTH; absent where it could be any other data (a secret). */
	shown?: string;
	reason: string;
}

/** An Exclude Numbers list read: the msisdns it stands for, and the entries it could not read. */
export interface ExclusionList {
	numbers: Set<string>;
	unreadable: UnreadableExclusion[];
}

const SHOWN_LENGTH = 40;
const SHOWN_KEYS = 5;
/** Arrays within arrays and objects within fields: n8n data is JSON, so this is only a guard. */
const MAX_DEPTH = 10;

/** Hard separators: comma, semicolon, line breaks. */
const SEPARATORS = /[,;\r\n]+/;
const WHITESPACE = /\s+/;
const TEL_URI = /^tel:/i;
/** RFC 3966 parameters after a tel: URI (`;ext=12`, `;phone-context=…`): they are no separate entries. */
// No colon inside the number part: `tel:tel:tel:…` must not make each `tel:` rescan the rest (quadratic).
const TEL_PARAMETERS = /(tel:[^,;\s:]*)((?:;[^,;\s=]+=[^,;\s]*)+)/gi;

/** Text that starts the way a phone number is written: `+`, `00` or a trunk `0`, then digits. */
const WRITTEN_AS_PHONE = /^\s*(?:\+|0)[\d\s().-]*\d/;

/** `2030-01-01`, `2030-01-01T09:00:00Z`: a row's date, not a phone number. */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/;

const cut = (text: string) =>
	text.length > SHOWN_LENGTH ? `${text.slice(0, SHOWN_LENGTH)}…` : text;

class Reader {
	readonly list: ExclusionList = { numbers: new Set(), unreadable: [] };

	/** Entries read as numbers so far, repeats included. */
	private entriesRead = 0;

	constructor(private readonly countryCode: string) {}

	/** Any value: text, number, array, n8n item or plain object. `reveal`: its text may be shown. */
	value(value: unknown, at: string, reveal: boolean, depth = 0): void {
		if (value === null || value === undefined) return;
		if (depth > MAX_DEPTH) {
			this.list.unreadable.push({ at, reason: 'nested too deeply' });
			return;
		}
		if (Array.isArray(value)) {
			value.forEach((entry, i) => this.value(entry, `${at}[${i}]`, reveal, depth + 1));
			return;
		}
		if (typeof value === 'object') {
			this.object(value as Record<string, unknown>, at, depth);
			return;
		}
		this.text(typeof value === 'number' ? numberAsWritten(value) : String(value), at, reveal);
	}

	/**
	 * An n8n item (`{ json, pairedItem }`) is read by its json. An object's phone fields are read,
	 * all of them; without one, its only text or number value; anything else cannot be read.
	 */
	private object(object: Record<string, unknown>, at: string, depth: number): void {
		const json = object.json;
		if (json !== null && typeof json === 'object' && !Array.isArray(json)) {
			this.object(json as Record<string, unknown>, path(at, 'json'), depth + 1);
			return;
		}
		const keys = Object.keys(object);
		const phoneKeys = keys.filter(isPhoneField);
		if (phoneKeys.length > 0) {
			this.phoneFields(object, phoneKeys, at, depth);
			return;
		}
		const values = keys.filter((key) => isScalar(object[key]));
		if (values.length === 1) {
			// Not named as a phone number: it may be anything, so its value is not shown.
			this.value(object[values[0]], path(at, values[0]), false, depth + 1);
			return;
		}
		const listed =
			keys
				.slice(0, SHOWN_KEYS)
				.map((key) => cut(key))
				.join(', ') + (keys.length > SHOWN_KEYS ? ', …' : '');
		const others =
			values.length === 0
				? 'no text or number in it'
				: `${values.length} other values, so none is taken`;
		this.list.unreadable.push({
			at: at || 'object',
			reason: `no phone field (phone, mobile, msisdn, number, …) and ${others}${keys.length ? `; its fields: ${listed}` : ''}`,
		});
	}

	/**
	 * Every phone field of a row, the empty ones left out. A row whose phone fields are all empty
	 * stands for no number, like an empty line, unless another field holds one: then the number
	 * is in a field not named as a phone, and the row cannot be read (it may be an opt-out).
	 */
	private phoneFields(
		object: Record<string, unknown>,
		phoneKeys: string[],
		at: string,
		depth: number,
	): void {
		const before = { read: this.entriesRead, unreadable: this.list.unreadable.length };
		for (const key of phoneKeys) this.value(object[key], path(at, key), true, depth + 1);
		if (this.entriesRead > before.read || this.list.unreadable.length > before.unreadable) {
			// A number written as one (`+353…`, `0087…`, `087…`) in a field not named as a phone
			// (`Contact Number`, `WhatsApp`, `Handy`) may be the opt-out too: excluding it costs little.
			// Bare digits there are more likely an id than a phone.
			for (const key of Object.keys(object)) {
				const value = object[key];
				if (phoneKeys.includes(key) || typeof value !== 'string' || !WRITTEN_AS_PHONE.test(value))
					continue;
				this.add(this.forms(value.trim()));
			}
			return;
		}
		const holdingNumbers = Object.keys(object).filter(
			(key) => !phoneKeys.includes(key) && this.isNumber(object[key]),
		);
		if (holdingNumbers.length === 0) return;
		const named = (keys: string[]) =>
			keys
				.slice(0, SHOWN_KEYS)
				.map((key) => cut(key))
				.join(', ') + (keys.length > SHOWN_KEYS ? ', …' : '');
		this.list.unreadable.push({
			at: at || 'object',
			reason: `its phone fields (${named(phoneKeys)}) are empty, but ${named(holdingNumbers)} ${holdingNumbers.length === 1 ? 'holds a number' : 'hold numbers'}`,
		});
	}

	/** A text or number value read as at least one phone number (a date such as 2030-01-01 is none). */
	private isNumber(value: unknown): boolean {
		if (typeof value === 'number') return this.forms(numberAsWritten(value)).length > 0;
		return (
			typeof value === 'string' &&
			!ISO_DATE.test(value.trim()) &&
			this.forms(value.trim()).length > 0
		);
	}

	/** Text: split at commas, semicolons and line breaks, then at spaces where each part is a number. */
	private text(text: string, at: string, reveal: boolean): void {
		const withoutParameters = text.includes(':') ? text.replace(TEL_PARAMETERS, '$1') : text;
		for (const piece of withoutParameters.split(SEPARATORS)) {
			const entry = piece.trim();
			if (entry === '') continue;
			const parts = WHITESPACE.test(entry) ? this.wholeNumbers(entry.split(WHITESPACE)) : undefined;
			if (parts) {
				for (const found of parts) this.add(found);
				continue;
			}
			const found = this.forms(entry);
			if (found.length > 0) this.add(found);
			else this.unreadable(entry, at, reveal);
		}
	}

	/**
	 * Each part's numbers when every part is a whole number (`0871234567 0861234567`), else undefined (`087 123 4567`).
	 */
	private wholeNumbers(parts: string[]): string[][] | undefined {
		const found: string[][] = [];
		for (const part of parts) {
			const forms = this.forms(part);
			if (forms.length === 0) return undefined;
			found.push(forms);
		}
		return found;
	}

	private forms(entry: string): string[] {
		return suppressionForms(entry.replace(TEL_URI, ''), this.countryCode);
	}

	private add(forms: string[]): void {
		this.entriesRead++;
		for (const msisdn of forms) this.list.numbers.add(msisdn);
	}

	private unreadable(entry: string, at: string, reveal: boolean): void {
		const number = normaliseMsisdn(entry.replace(TEL_URI, ''), this.countryCode);
		const reason = number.ok ? 'not a number' : number.reason;
		this.list.unreadable.push(
			reveal ? { at, shown: cut(entry), reason } : { at: at || 'entry', reason },
		);
	}
}

const path = (at: string, key: string) => (at === '' ? key : `${at}.${key}`);

const isScalar = (value: unknown) =>
	typeof value === 'number' || (typeof value === 'string' && value.trim() !== '');

/**
 * What an Exclude Numbers value stands for. It takes text (entries separated by commas, semicolons,
 * line breaks, or whitespace when every whitespace-separated part is a number of its own), numbers,
 * `tel:` URIs, arrays (nested too), n8n items and plain objects (all their phone fields, see
 * isPhoneField, or their only text or number value). Each entry stands for every number it may be
 * (see suppressionForms: as written, and as a number of the Default Country Code's country or of
 * Ireland without its 0); anything else is listed as unreadable.
 */
export function readExclusions(value: unknown, countryCode: string): ExclusionList {
	const reader = new Reader(countryCode);
	reader.value(value, '', true);
	return reader.list;
}

/** `"unsubscribed": contains letters`, `[3].json.phone "call me": contains letters`, `[2].json: no phone field …`. */
export function describeUnreadable(entry: UnreadableExclusion): string {
	const shown = entry.shown === undefined ? '' : `"${entry.shown}"`;
	return `${[entry.at, shown].filter(Boolean).join(' ')}: ${entry.reason}`;
}
