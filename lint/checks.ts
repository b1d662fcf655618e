/**
 * Scripted package checks (npm run lint:package, also run by npm run lint): the rules of the newest
 * @n8n/eslint-plugin-community-nodes that are about package.json rather than node code and that the
 * pinned release lacks, ported under the upstream names:
 *
 * - require-mit-license: "license" is exactly "MIT".
 * - require-community-node-keyword: "keywords" includes "n8n-community-node-package".
 * - no-monorepo: "repository" has no "directory" (n8n wants single-package repositories).
 *
 * (no-dead-files, also about package files, is already in the pinned plugin and runs through ESLint
 * on package.json.) Usage: tsx lint/checks.ts [path/to/package.json]
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

export interface PackageProblem {
	rule: 'require-mit-license' | 'require-community-node-keyword' | 'no-monorepo';
	message: string;
}

const REQUIRED_LICENSE = 'MIT';
const REQUIRED_KEYWORD = 'n8n-community-node-package';

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function checkPackageJson(pkg: unknown): PackageProblem[] {
	if (!isObject(pkg))
		return [{ rule: 'require-mit-license', message: 'package.json must be a JSON object.' }];
	const problems: PackageProblem[] = [];

	if (!('license' in pkg)) {
		problems.push({
			rule: 'require-mit-license',
			message: `The package.json must have a "license" field set to "${REQUIRED_LICENSE}".`,
		});
	} else if (pkg.license !== REQUIRED_LICENSE) {
		problems.push({
			rule: 'require-mit-license',
			message: `The "license" field must be "${REQUIRED_LICENSE}".`,
		});
	}

	if (!('keywords' in pkg)) {
		problems.push({
			rule: 'require-community-node-keyword',
			message: `The package.json must have a "keywords" array containing "${REQUIRED_KEYWORD}".`,
		});
	} else if (Array.isArray(pkg.keywords) && !pkg.keywords.includes(REQUIRED_KEYWORD)) {
		// Upstream leaves a non-array "keywords" alone (n8n-object-validation and npm catch that).
		problems.push({
			rule: 'require-community-node-keyword',
			message: `The "keywords" array must include "${REQUIRED_KEYWORD}". This keyword is required for n8n to discover community node packages.`,
		});
	}

	if (isObject(pkg.repository) && 'directory' in pkg.repository) {
		problems.push({
			rule: 'no-monorepo',
			message:
				'Community nodes must use a single-package repository. Monorepo packages are not supported.',
		});
	}
	return problems;
}

export function checkPackageFile(file: string): PackageProblem[] {
	return checkPackageJson(JSON.parse(readFileSync(file, 'utf8')));
}

if (require.main === module) {
	const file = path.resolve(process.argv[2] ?? path.join(__dirname, '..', 'package.json'));
	const problems = checkPackageFile(file);
	for (const { rule, message } of problems)
		console.error(`${path.relative(process.cwd(), file)}: ${rule}: ${message}`);
	if (problems.length > 0) process.exitCode = 1;
	else
		console.log(
			`lint:package: ${path.relative(process.cwd(), file)} passes require-mit-license, require-community-node-keyword, no-monorepo`,
		);
}
