/** `base` (a credential URL field, with or without trailing slashes) joined with an absolute `path`. */
export function endpoint(base: unknown, path: string): string {
	return `${String(base ?? '').replace(/\/+$/, '')}${path}`;
}
