/** lint/checks.ts: require-mit-license, require-community-node-keyword, no-monorepo (cases after upstream tests). */
import * as path from 'node:path';

import { checkPackageFile, checkPackageJson } from '../../lint/checks';

const base = {
	name: 'n8n-nodes-example',
	license: 'MIT',
	keywords: ['n8n-community-node-package'],
};
const rules = (pkg: unknown) => checkPackageJson(pkg).map((problem) => problem.rule);

describe('lint/checks.ts', () => {
	it('passes a conforming package.json, nested "license" fields included', () => {
		expect(rules(base)).toEqual([]);
		expect(rules({ ...base, config: { license: 'Apache-2.0' } })).toEqual([]);
		expect(
			rules({ ...base, repository: { type: 'git', url: 'git+https://example.com/x.git' } }),
		).toEqual([]);
	});

	it('require-mit-license: missing, wrong and case-mismatched licenses', () => {
		const { license: _license, ...withoutLicense } = base;
		expect(rules(withoutLicense)).toEqual(['require-mit-license']);
		expect(rules({ ...base, license: 'Apache-2.0' })).toEqual(['require-mit-license']);
		expect(rules({ ...base, license: 'mit' })).toEqual(['require-mit-license']);
		expect(rules({})).toEqual(['require-mit-license', 'require-community-node-keyword']);
	});

	it('require-community-node-keyword: missing array or keyword', () => {
		expect(rules({ ...base, keywords: ['n8n'] })).toEqual(['require-community-node-keyword']);
		const { keywords: _keywords, ...withoutKeywords } = base;
		expect(rules(withoutKeywords)).toEqual(['require-community-node-keyword']);
	});

	it('no-monorepo: repository.directory', () => {
		expect(
			rules({ ...base, repository: { type: 'git', url: 'x', directory: 'packages/nodes' } }),
		).toEqual(['no-monorepo']);
	});

	it("passes this repository's package.json", () => {
		expect(checkPackageFile(path.join(__dirname, '..', '..', 'package.json'))).toEqual([]);
	});
});
