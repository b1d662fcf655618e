// The account's approved sender IDs (`GET /api/v2/senderlist`), and what each sender type means.
import type { IExecuteFunctions, ILoadOptionsFunctions } from 'n8n-workflow';

import { apiRequest } from '../../transport/request';

export interface SenderRecord {
	name: string;
	type: number;
}

const TYPE_LABELS: Record<number, string> = {
	0: 'ComReg registered',
	1: 'international — not delivered to Irish numbers',
	2: 'numeric',
};

/** A sender a reply can come back to: a numeric longcode (an alphanumeric sender cannot be answered). */
const LONGCODE = /^\+?\d{5,16}$/;

export const canReceiveReplies = (name: string): boolean => LONGCODE.test(name.trim());

export function senderTypeLabel(type: number): string {
	return TYPE_LABELS[type] ?? `type ${type}`;
}

/** The account's approved sender IDs (`GET /api/v2/senderlist`, a bare array). */
export async function fetchSenders(
	ctx: IExecuteFunctions | ILoadOptionsFunctions,
): Promise<SenderRecord[]> {
	const list = await apiRequest<unknown>(
		ctx,
		{ method: 'GET', path: '/api/v2/senderlist' },
		'the sender list request',
	);
	const entries = Array.isArray(list) ? list : [];
	return entries
		.filter(
			(s): s is { name: unknown; type: unknown } =>
				typeof s === 'object' && s !== null && 'name' in s,
		)
		.map((s) => ({ name: String(s.name), type: Number(s.type) }));
}
