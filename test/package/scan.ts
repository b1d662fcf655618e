/**
 * `npm run scan`: n8n's community-package scanner (@n8n/scan-community-package, pinned in
 * package.json) on this package, offline, before it is published. Run it after `npm run build`.
 *
 * The scanner's CLI takes a package name and downloads everything: the version's npm provenance,
 * the GitHub commit that provenance names, and the tarball. It then lints, with its own ESLint
 * configuration (n8n's community-node rules), the commit's nodes/, credentials/ and package.json,
 * and the tarball's .js files and package.json. This script calls the same exported function,
 * `analyzePackage`, on:
 *   - the output of `npm pack`, extracted, with every .js, .ts and .json file (the function's
 *     default, a superset of the CLI's tarball patterns);
 *   - this checkout, with the scanner's SOURCE_FILE_PATTERNS (what the CLI lints in the commit).
 * Only the provenance check needs the published version; it is not run here (docs/dev/publishing.md).
 * Prints the findings and exits 1 on any.
 */
import { spawnSync } from 'node:child_process';
import {
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const REPO_ROOT = path.resolve(__dirname, '..', '..');

interface ScanResult {
	passed: boolean;
	message?: string;
	details?: string;
}

interface Scanner {
	analyzePackage(packageDir: string, filePatterns?: string[]): Promise<ScanResult>;
	SOURCE_FILE_PATTERNS: string[];
}

function run(command: string, args: string[], cwd: string): void {
	const result = spawnSync(command, args, { cwd, encoding: 'utf8' });
	if (result.status !== 0) {
		throw new Error(
			`${command} ${args.join(' ')} failed in ${cwd}:\n${result.stderr || result.error}`,
		);
	}
}

/** `npm pack` into `scratch`, extracted (like the scanner does) into `scratch/package`. */
function packAndExtract(scratch: string): string {
	run('npm', ['pack', '--pack-destination', scratch], REPO_ROOT);
	const tarball = readdirSync(scratch).find((name) => name.endsWith('.tgz'));
	if (!tarball) throw new Error(`npm pack wrote no tarball into ${scratch}`);
	const packageDir = path.join(scratch, 'package');
	mkdirSync(packageDir);
	run('tar', ['-xzf', tarball, '-C', packageDir, '--strip-components=1'], scratch);
	return packageDir;
}

/** The files package.json names for n8n must be in the package, or there is nothing to scan. */
function missingBuildOutput(packageDir: string): string[] {
	const manifest = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as {
		n8n?: { nodes?: string[]; credentials?: string[] };
	};
	const declared = [...(manifest.n8n?.nodes ?? []), ...(manifest.n8n?.credentials ?? [])];
	return declared.filter((file) => !existsSync(path.join(packageDir, file)));
}

/**
 * A package that must fail, so a pass below means the rules ran: one rule of each plugin the
 * scanner loads (eslint-plugin-n8n-nodes-base, @n8n/eslint-plugin-community-nodes).
 */
async function rulesRun(scanner: Scanner, scratch: string): Promise<boolean> {
	const fixture = path.join(scratch, 'canary');
	mkdirSync(path.join(fixture, 'credentials'), { recursive: true });
	writeFileSync(
		path.join(fixture, 'package.json'),
		JSON.stringify({ name: 'n8n-nodes-canary', version: '1.0.0', overrides: { a: '1.0.0' } }),
	);
	writeFileSync(
		path.join(fixture, 'credentials', 'Canary.ts'),
		"import type { ICredentialType, INodeProperties } from 'n8n-workflow';\n\n" +
			"export class CanaryApi implements ICredentialType {\n\tname = 'canaryApi';\n\tdocumentationUrl = 'https://example.com';\n" +
			"\tdisplayName = 'Canary API';\n\tproperties: INodeProperties[] = [];\n}\n",
	);
	const result = await scanner.analyzePackage(fixture);
	const details = result.details ?? '';
	return (
		!result.passed &&
		details.includes('n8n-nodes-base/cred-filename-against-convention') &&
		details.includes('@n8n/community-nodes/no-overrides-field')
	);
}

async function main(): Promise<number> {
	const scannerPath = require.resolve('@n8n/scan-community-package/scanner/scanner.mjs', {
		paths: [REPO_ROOT],
	});
	const scanner = (await import(pathToFileURL(scannerPath).href)) as Scanner;
	// The scanner makes a temporary directory when loaded (for the downloads its CLI does); remove it on exit.
	(
		require(require.resolve('tmp', { paths: [scannerPath] })) as { setGracefulCleanup(): void }
	).setGracefulCleanup();
	const { version } = JSON.parse(
		readFileSync(path.join(path.dirname(scannerPath), '..', 'package.json'), 'utf8'),
	) as { version: string };

	const scratch = mkdtempSync(path.join(tmpdir(), 'phonovation-scan-'));
	try {
		const packageDir = packAndExtract(scratch);
		const missing = missingBuildOutput(packageDir);
		if (missing.length > 0) {
			console.log(`❌ The packed package lacks ${missing.join(', ')}: run npm run build first.`);
			return 1;
		}
		if (!(await rulesRun(scanner, scratch))) {
			console.log(
				'❌ The scanner passed a package that breaks its rules: its ESLint rules did not run.',
			);
			return 1;
		}

		const legs: Array<[string, Promise<ScanResult>]> = [
			[
				'the packed package (npm pack), every .js, .ts and .json file',
				scanner.analyzePackage(packageDir),
			],
			[
				`the source (${scanner.SOURCE_FILE_PATTERNS.join(', ')})`,
				scanner.analyzePackage(REPO_ROOT, scanner.SOURCE_FILE_PATTERNS),
			],
		];
		let failed = false;
		for (const [what, pending] of legs) {
			const result = await pending;
			if (result.passed) {
				console.log(`✅ @n8n/scan-community-package@${version}: no findings in ${what}`);
			} else {
				failed = true;
				console.log(`❌ @n8n/scan-community-package@${version}: ${result.message} in ${what}`);
				if (result.details) console.log(result.details);
			}
		}
		console.log('Not checked here: npm provenance, which n8n checks on the published version.');
		return failed ? 1 : 0;
	} finally {
		rmSync(scratch, { recursive: true, force: true });
	}
}

main().then(
	(code) => process.exit(code),
	(error: unknown) => {
		console.error(error);
		process.exit(1);
	},
);
