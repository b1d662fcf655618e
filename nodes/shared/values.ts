// Reading n8n parameter values for both nodes: as text, as a count, whether one is an expression.
/** Reading n8n parameter values, for both nodes: pure, imports nothing from n8n. */

/** A parameter's value as text: '' for null or undefined, a number's usual written form. */
export function asText(value: unknown): string {
	if (value === null || value === undefined) return '';
	return typeof value === 'string' ? value : String(value);
}

/** Whether a stored parameter (or any value inside it) is an n8n expression (`={{ … }}`). */
export function hasExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (Array.isArray(value)) return value.some(hasExpression);
	if (value !== null && typeof value === 'object') return Object.values(value).some(hasExpression);
	return false;
}

/** A value as text, or null when there is none (null, undefined or ''). */
export const textOrNull = (value: unknown): string | null =>
	value === null || value === undefined || value === '' ? null : asText(value);

/** A count (a whole number from 0, exactly representable), or null for anything else. */
export const countOrNull = (value: unknown): number | null =>
	typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null;

/** A number parameter within its bounds whatever the parameter holds; the fallback when it is none. */
export function withinBounds(
	value: unknown,
	{ min, max, fallback }: { min: number; max: number; fallback: number },
): number {
	const number = Number(value ?? fallback);
	return Number.isFinite(number) ? Math.min(max, Math.max(min, number)) : fallback;
}
