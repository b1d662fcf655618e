import { existsSync, readdirSync, readFileSync, statSync } from 'fs';
import { join, relative } from 'path';

/** The documents a newcomer reads: a short README that links to the depth, a layout that matches the code. */
const ROOT = join(__dirname, '..', '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

function sourceFiles(dir: string): string[] {
	return readdirSync(join(ROOT, dir)).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(join(ROOT, path)).isDirectory()) return sourceFiles(path);
		return name.endsWith('.ts') ? [relative(ROOT, join(ROOT, path)).split('\\').join('/')] : [];
	});
}

/** The backticked paths that open the list lines of one `## ` section. */
function listedPaths(markdown: string, heading: string): string[] {
	const start = markdown.indexOf(`\n## ${heading}\n`);
	if (start < 0) throw new Error(`no "## ${heading}" section`);
	const end = markdown.indexOf('\n## ', start + 1);
	const section = markdown.slice(start, end < 0 ? undefined : end);
	return [...section.matchAll(/^- `([^`]+)`/gm)].map((m) => m[1]);
}

describe('CONTRIBUTING.md Layout', () => {
	const listed = listedPaths(read('CONTRIBUTING.md'), 'Layout');

	it('names only files that exist', () => {
		expect(listed.filter((path) => !existsSync(join(ROOT, path)))).toEqual([]);
	});

	it('names every source file under nodes/ and credentials/, once', () => {
		const actual = [...sourceFiles('nodes'), ...sourceFiles('credentials')].sort();
		expect(actual.filter((path) => !listed.includes(path))).toEqual([]);
		expect(listed.filter((path, i) => listed.indexOf(path) !== i)).toEqual([]);
	});
});

describe('README.md', () => {
	const readme = read('README.md');
	const headings = [...readme.matchAll(/^## (.+)$/gm)].map((m) => m[1].trim());

	it('is a five-minute read: at most 250 lines', () => {
		expect(readme.split('\n').length).toBeLessThanOrEqual(250);
	});

	it("follows n8n's starter template order, Compatibility and Version history included", () => {
		const template = [
			'Installation',
			'Operations',
			'Credentials',
			'Compatibility',
			'Usage',
			'Resources',
			'Version history',
		];
		expect(headings.filter((h) => template.includes(h))).toEqual(template);
	});

	it('links to every document in docs/, CONTRIBUTING.md and the examples', () => {
		const docs = readdirSync(join(ROOT, 'docs'))
			.filter((name) => name.endsWith('.md'))
			.map((name) => `docs/${name}`);
		for (const target of [...docs, 'CONTRIBUTING.md', 'CHANGELOG.md', 'examples/README.md']) {
			expect(readme).toContain(`](${target}`);
		}
	});

	it('has no relative link to a file that does not exist', () => {
		const targets = [...readme.matchAll(/\]\(((?!https?:|#|mailto:)[^)#\s]+)/g)].map((m) => m[1]);
		expect(targets.filter((target) => !existsSync(join(ROOT, target)))).toEqual([]);
	});
});
