// Where a link to this repository leads in the checkout: its file and heading, as GitHub shows them.
import { existsSync, readFileSync } from 'fs';
import { join } from 'path';

const ROOT = join(__dirname, '..', '..');
export const REPOSITORY = 'https://github.com/n8n-nodes-phonovation/n8n-nodes-phonovation';

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

/** What is wrong with a link: not this repository, no such file, or no such heading. */
export function docsLinkProblem(url: string): string | undefined {
	if (!url.startsWith(REPOSITORY)) return `${url}: not this repository`;
	const [where, anchor] = url.slice(REPOSITORY.length).split('#');
	const path = where.split('?')[0];
	const file = path === '' || path === '/' ? 'README.md' : path.replace(/^\/blob\/main\//, '');
	if (!existsSync(join(ROOT, file))) return `${url}: no ${file}`;
	if (anchor && !anchorsIn(readFileSync(join(ROOT, file), 'utf8')).has(decodeURIComponent(anchor)))
		return `${url}: no heading #${anchor} in ${file}`;
	return undefined;
}
