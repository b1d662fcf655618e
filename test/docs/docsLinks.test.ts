import { existsSync, readdirSync, readFileSync, statSync } from 'fs';
import { join } from 'path';

import { docsLinkProblem, REPOSITORY } from './repositoryLinks';

const ROOT = join(__dirname, '..', '..');

function files(dir: string): string[] {
	return readdirSync(join(ROOT, dir)).flatMap((name) => {
		const path = `${dir}/${name}`;
		return statSync(join(ROOT, path)).isDirectory() ? files(path) : [path];
	});
}

/** Every link the nodes' panels and the credential show: Docs, credential help, field hints. */
const LINKS = [...files('nodes'), ...files('credentials')]
	.filter((path) => /\.(ts|json)$/.test(path))
	.flatMap(
		(path) =>
			readFileSync(join(ROOT, path), 'utf8').match(
				/https:\/\/github\.com\/n8n-nodes-phonovation\/n8n-nodes-phonovation[^'"`\s)<]*/g,
			) ?? [],
	);

describe("the nodes' Docs links", () => {
	it('are found: the action node, the trigger and the credential each link to their docs', () => {
		expect(new Set(LINKS).size).toBeGreaterThanOrEqual(3);
	});

	it.each([...new Set(LINKS)])('%s leads to a page and heading that exist', (url) => {
		expect(docsLinkProblem(url)).toBeUndefined();
	});

	it('a link to a heading that is not there is caught (the check can fail)', () => {
		expect(docsLinkProblem(`${REPOSITORY}#action-node-phonovation`)).toMatch(/no heading/);
		expect(docsLinkProblem(`${REPOSITORY}#credentials`)).toBeUndefined();
	});
});

const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
	name: string;
	version: string;
	files: string[];
};
const CDN = /https:\/\/cdn\.jsdelivr\.net\/npm\/([^@/\s]+)@([^/\s]+)\/([^'"`\s)<]+)/g;

/** What is wrong with a link into the npm package: another package or version, or a file it does not ship. */
function notShipped(url: string): string | undefined {
	const [, name, version, file] = new RegExp(CDN.source).exec(url) ?? [];
	// The latest release: a version pinned before its release would not be there yet.
	if (name !== PACKAGE.name || version !== 'latest') return `${url}: not ${PACKAGE.name}@latest`;
	const shipped = PACKAGE.files.some((glob) =>
		new RegExp(`^${glob.replace(/\./g, '\\.').replace(/\*/g, '[^/]+')}(/|$)`).test(file),
	);
	if (!shipped || !existsSync(join(ROOT, file))) return `${url}: the package has no ${file}`;
	return undefined;
}

/** Links to the inbox a user imports from n8n: the panels, the README and the docs. */
const IMPORT_LINKS = [
	...files('nodes'),
	...files('docs'),
	...files('examples'),
	'README.md',
	'CHANGELOG.md',
]
	.filter((path) => /\.(ts|json|md)$/.test(path))
	.flatMap((path) => readFileSync(join(ROOT, path), 'utf8').match(CDN) ?? []);

/** Paths into the installed package (`…/node_modules/n8n-nodes-phonovation/<file>`), for Import ▸ From File. */
const INSTALLED = new RegExp(`node_modules/${PACKAGE.name}/([^'"\`\\s)<]+)`, 'g');
const INSTALLED_FILES = [...files('nodes'), ...files('docs'), ...files('examples')]
	.filter((path) => /\.(ts|md)$/.test(path))
	.flatMap((path) =>
		[...readFileSync(join(ROOT, path), 'utf8').matchAll(INSTALLED)].map((m) => m[1]),
	)
	.filter((file) => file.endsWith('.json'));

describe('files a user imports a workflow from, in the installed package', () => {
	it('are named in the Question Log field and the docs', () => {
		expect(INSTALLED_FILES.length).toBeGreaterThanOrEqual(2);
	});

	it.each([...new Set(INSTALLED_FILES)])('%s is a file the package ships', (file) => {
		expect(notShipped(`https://cdn.jsdelivr.net/npm/${PACKAGE.name}@latest/${file}`)).toBe(
			undefined,
		);
	});
});

describe('links a user imports a workflow from', () => {
	it('are found in the Question Log field and the docs', () => {
		expect(IMPORT_LINKS.length).toBeGreaterThanOrEqual(2);
	});

	it.each([...new Set(IMPORT_LINKS)])('%s is a file the package ships', (url) => {
		expect(notShipped(url)).toBeUndefined();
	});

	it('a link to another version or an unshipped file is caught (the check can fail)', () => {
		const base = `https://cdn.jsdelivr.net/npm/${PACKAGE.name}`;
		expect(notShipped(`${base}@0.1.0/examples/inbox/workflow.json`)).toMatch(/not /);
		expect(notShipped(`${base}@latest/test/run-all.ts`)).toMatch(/has no/);
		expect(notShipped(`${base}@latest/examples/inbox/workflow.json`)).toBeUndefined();
	});
});
