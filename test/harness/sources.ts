// The TypeScript sources under a folder, for tests that read the code itself (imports, keys).
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export function sourcesUnder(folder: string): string[] {
	return readdirSync(folder).flatMap((name) => {
		const path = join(folder, name);
		if (statSync(path).isDirectory()) return sourcesUnder(path);
		return name.endsWith('.ts') ? [path] : [];
	});
}
