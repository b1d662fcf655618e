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
