// The lock files name each package's tarball, so a cold install fetches no metadata documents.
import { readFileSync } from 'node:fs';
import path from 'node:path';

const { LOCK_FILES, missing, tarballOf } = require('../../.ci/lock-resolved.cjs') as {
	LOCK_FILES: string[];
	missing: (lock: unknown) => Array<[string, unknown]>;
	tarballOf: (key: string, entry: { name?: string; version: string }) => string;
};

const lockOf = (file: string) =>
	JSON.parse(readFileSync(path.join(__dirname, '..', '..', file), 'utf8')) as {
		packages: Record<string, { name?: string; version?: string; resolved?: string }>;
	};

describe('the lock files (`npm ci` of the repository, and of n8n for the e2e tests and the demo)', () => {
	it.each(LOCK_FILES)(
		'%s gives every registry package its tarball address (else run node .ci/lock-resolved.cjs)',
		(file) => {
			// Without it npm ci downloads each package's whole metadata first: for n8n that doubled
			// a cold `npm start` (409 s against 194 s for its install).
			expect(missing(lockOf(file)).map(([key]) => key)).toEqual([]);
		},
	);

	it.each(LOCK_FILES)('%s: each address is the one its name and version give', (file) => {
		const wrong = Object.entries(lockOf(file).packages).filter(
			([key, entry]) =>
				key !== '' &&
				entry.resolved?.startsWith('https://registry.npmjs.org/') &&
				entry.resolved !== tarballOf(key, { name: entry.name, version: entry.version ?? '' }),
		);
		expect(wrong.map(([key]) => key)).toEqual([]);
	});

	it('an aliased and a scoped package get the real package’s tarball', () => {
		expect(
			tarballOf('node_modules/string-width-cjs', { name: 'string-width', version: '4.2.3' }),
		).toBe('https://registry.npmjs.org/string-width/-/string-width-4.2.3.tgz');
		expect(tarballOf('node_modules/a/node_modules/@scope/pkg', { version: '1.0.0' })).toBe(
			'https://registry.npmjs.org/@scope/pkg/-/pkg-1.0.0.tgz',
		);
	});
});
