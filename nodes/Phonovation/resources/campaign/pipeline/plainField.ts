// A parameter that is only `{{ $json.field }}`, read straight from the item without n8n's engine.
/**
 * `={{ $json.phone }}`, `={{ $json["first name"] }}`, `={{ $json.contact.phone }}`: a parameter
 * that is only the item's own field. Reading the field directly gives what n8n's expression
 * engine gives, without the engine (about 90 % of a 100,000-item run). Anything else → null.
 */
const PLAIN_FIELD =
	/^=\{\{\s*\$json((?:\s*\.\s*[A-Za-z_$][\w$]*|\s*\[\s*(?:"[^"\\]*"|'[^'\\]*')\s*\])+)\s*\}\}$/;
const SEGMENT = /\.\s*([A-Za-z_$][\w$]*)|\[\s*(?:"([^"\\]*)"|'([^'\\]*)')\s*\]/g;

export function plainFieldPath(raw: unknown): string[] | null {
	if (typeof raw !== 'string') return null;
	const match = PLAIN_FIELD.exec(raw);
	if (!match) return null;
	const path: string[] = [];
	for (const [, dotted, doubleQuoted, singleQuoted] of match[1].matchAll(SEGMENT)) {
		path.push(dotted ?? doubleQuoted ?? singleQuoted);
	}
	// Names n8n's data proxy treats specially (or that reach the prototype) go through n8n.
	return path.some((key) => key === '__proto__' || key === 'constructor' || key === 'prototype')
		? null
		: path;
}

/** The field at `path` of an item's json, as n8n's engine reads it: undefined when any step is missing. */
export function readField(json: unknown, path: string[]): unknown {
	let value = json;
	for (const key of path) {
		if (value === null || value === undefined) return undefined;
		value = Object.prototype.hasOwnProperty.call(Object(value), key)
			? (value as Record<string, unknown>)[key]
			: undefined;
	}
	return value;
}
