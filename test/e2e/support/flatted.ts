/**
 * Reads n8n's stored execution data. n8n keeps it in the "flatted" format: a JSON array whose
 * first entry is the root; inside objects and arrays every string is the index of another
 * entry (which may be a plain string, or an object shared or cyclic).
 */
export function parseFlatted(text: string): unknown {
	const input = JSON.parse(text) as unknown[];
	const resolved = new Map<number, unknown>();
	const resolve = (index: number): unknown => {
		if (resolved.has(index)) return resolved.get(index);
		const raw = input[index];
		if (raw === null || typeof raw !== 'object') {
			resolved.set(index, raw);
			return raw;
		}
		const out: Record<string, unknown> | unknown[] = Array.isArray(raw) ? [] : {};
		resolved.set(index, out);
		for (const [key, value] of Object.entries(raw)) {
			(out as Record<string, unknown>)[key] =
				typeof value === 'string' ? resolve(Number(value)) : value;
		}
		return out;
	};
	return resolve(0);
}
