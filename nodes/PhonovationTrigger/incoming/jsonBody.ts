// Processing results' JSON bodies: parsed strictly into one object, keys looked up without case.
/**
 * JSON bodies (processing results): parsed strictly into one object, and its fields looked up
 * case-insensitively.
 */

import type { IDataObject } from 'n8n-workflow';

import { badRequest } from './rejection';

export function jsonObject(value: unknown): IDataObject {
	if (value === null || typeof value !== 'object' || Array.isArray(value)) {
		throw badRequest('JSON body is not an object');
	}
	return value as IDataObject;
}

function parseJson(text: string): unknown {
	try {
		return JSON.parse(text) as unknown;
	} catch {
		throw badRequest('Body is not valid JSON');
	}
}

export function parseJsonObject(text: string): IDataObject {
	if (text.trim() === '') throw badRequest('Empty body');
	return jsonObject(parseJson(text));
}

/** Looks a JSON key up case-insensitively (the provider sends PascalCase: `Status`, `NotifyId`). */
export function jsonField(value: IDataObject, name: string): unknown {
	if (Object.hasOwn(value, name)) return value[name];
	const key = Object.keys(value).find((k) => k.toLowerCase() === name.toLowerCase());
	return key === undefined ? undefined : value[key];
}
