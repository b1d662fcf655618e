import { existsSync, readdirSync, readFileSync, statSync } from 'fs';
import { join } from 'path';

const ROOT = join(__dirname, '..', '..');
const REPOSITORY = 'https://github.com/n8n-nodes-phonovation/n8n-nodes-phonovation';

function files(dir: string): string[] {
	return readdirSync(join(ROOT, dir)).flatMap((name) => {
		const path = `${dir}/${name}`;
		return statSync(join(ROOT, path)).isDirectory() ? files(path) : [path];
	});
}

/** GitHub's anchor for a Markdown heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string) =>
	heading
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{N} _-]/gu, '')
		.replace(/ /g, '-');

function anchorsIn(markdown: string): Set<string> {
	const headings = markdown.match(/^#{1,6} .*$/gm) ?? [];
	return new Set(headings.map((line) => anchorOf(line.replace(/^#+ /, ''))));
}

/** Where a link to this repository leads in the checkout, or what is missing. */
function missing(url: string): string | undefined {
	const [where, anchor] = url.slice(REPOSITORY.length).split('#');
	const file = where === '' ? 'README.md' : where.replace(/^\/blob\/main\//, '');
	if (!existsSync(join(ROOT, file))) return `${url}: no ${file}`;
	if (anchor && !anchorsIn(readFileSync(join(ROOT, file), 'utf8')).has(anchor))
		return `${url}: no heading #${anchor} in ${file}`;
	return undefined;
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
		expect(missing(url)).toBeUndefined();
	});

	it('a link to a heading that is not there is caught (the check can fail)', () => {
		expect(missing(`${REPOSITORY}#action-node-phonovation`)).toMatch(/no heading/);
		expect(missing(`${REPOSITORY}#credentials`)).toBeUndefined();
	});
});
