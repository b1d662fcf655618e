import { existsSync, readdirSync, readFileSync, statSync } from 'fs';
import { dirname, join, posix } from 'path';

/** The documents a newcomer reads: short, linked, and naming only what exists. */
const ROOT = join(__dirname, '..', '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** Lines as `wc -l` counts them. */
const lineCount = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

/** The folders under `dir` that hold a .ts file, as `dir/…/` paths. */
function foldersWithSource(dir: string): string[] {
	const names = readdirSync(join(ROOT, dir));
	const here = names.some((name) => name.endsWith('.ts')) ? [`${dir}/`] : [];
	const below = names
		.filter((name) => statSync(join(ROOT, dir, name)).isDirectory())
		.flatMap((name) => foldersWithSource(`${dir}/${name}`));
	return [...here, ...below];
}

/** The body of one `## ` section. */
function section(markdown: string, heading: string): string {
	const start = markdown.indexOf(`\n## ${heading}\n`);
	if (start < 0) throw new Error(`no "## ${heading}" section`);
	const end = markdown.indexOf('\n## ', start + 1);
	return markdown.slice(start, end < 0 ? undefined : end);
}

/** The folders a fenced block of a section names: the first word of each line. */
function folderTree(markdown: string, heading: string): string[] {
	const block = /```text\n([\s\S]*?)```/.exec(section(markdown, heading));
	if (!block) throw new Error(`no folder tree under "## ${heading}"`);
	return block[1]
		.split('\n')
		.filter((line) => line.trim() !== '')
		.map((line) => line.split(/\s+/)[0]);
}

/** Relative link targets of a Markdown file, resolved from the repository's root. */
function brokenLinks(file: string): string[] {
	const targets = [...read(file).matchAll(/\]\(((?!https?:|#|mailto:)[^)#\s]+)/g)].map((m) => m[1]);
	return targets.filter((target) => !existsSync(join(ROOT, dirname(file), target)));
}

const DEV_PAGES = readdirSync(join(ROOT, 'docs', 'dev')).filter((name) => name.endsWith('.md'));
/** The maintainers' documents whose links are checked here (the README's are below). */
const LINKED = [
	'CONTRIBUTING.md',
	'test/README.md',
	...DEV_PAGES.map((name) => `docs/dev/${name}`),
];

describe('source files', () => {
	const sources = [...foldersWithSource('nodes'), ...foldersWithSource('credentials')].flatMap(
		(folder) =>
			readdirSync(join(ROOT, folder))
				.filter((name) => name.endsWith('.ts'))
				.map((name) => `${folder}${name}`),
	);

	it('are found (the check can fail)', () => {
		expect(sources).toContain('nodes/Phonovation/router.ts');
	});

	it('each open with a line saying what the file holds, instead of a catalogue in CONTRIBUTING', () => {
		const bare = sources.filter((path) => !/^\/\/ \S.{9,}/.test(read(path)));
		expect(bare).toEqual([]);
	});
});

describe('CONTRIBUTING.md', () => {
	const contributing = read('CONTRIBUTING.md');
	const tree = folderTree(contributing, 'Folders');

	it('is under 150 lines', () => {
		expect(lineCount(contributing)).toBeLessThan(150);
	});

	it('names every folder of nodes/ and credentials/ in its folder tree, once', () => {
		const actual = [...foldersWithSource('nodes'), ...foldersWithSource('credentials')];
		expect(actual.filter((folder) => !tree.includes(folder))).toEqual([]);
		expect(tree.filter((folder, i) => tree.indexOf(folder) !== i)).toEqual([]);
	});

	it('names only folders that exist', () => {
		expect(tree.length).toBeGreaterThan(0);
		const missing = tree.filter((folder) => {
			const path = join(ROOT, folder);
			return !folder.endsWith('/') || !existsSync(path) || !statSync(path).isDirectory();
		});
		expect(missing).toEqual([]);
	});

	it('has the three walk-throughs (code comments cite the campaign option one)', () => {
		expect(contributing).toMatch(/^## Add a campaign option$/m);
		expect(contributing).toMatch(/^## Add an operation$/m);
		expect(contributing).toMatch(/^## Add a trigger event$/m);
	});
});

describe('maintainer pages', () => {
	it('docs/dev/ holds the simulator, performance and publishing pages', () => {
		const pages = ['performance.md', 'publishing.md', 'simulator.md'];
		expect(pages.filter((name) => !DEV_PAGES.includes(name))).toEqual([]);
	});

	it.each(DEV_PAGES)('docs/dev/%s is linked from CONTRIBUTING.md or test/README.md', (name) => {
		const fromContributing = read('CONTRIBUTING.md').includes(`](docs/dev/${name}`);
		const fromTests = read('test/README.md').includes(`](../docs/dev/${name}`);
		expect(fromContributing || fromTests).toBe(true);
	});

	it.each(LINKED)('%s has no relative link to a file that does not exist', (file) => {
		expect(brokenLinks(file)).toEqual([]);
	});
});

describe('CHANGELOG.md', () => {
	const changelog = read('CHANGELOG.md');
	const headings = [...changelog.matchAll(/^(#{1,6}) (.+)$/gm)].map((m) => ({
		level: m[1].length,
		text: m[2].trim(),
	}));

	it('starts with "# Changelog"', () => {
		expect(changelog.startsWith('# Changelog\n')).toBe(true);
	});

	it('has the Keep a Changelog kinds of change only, no deeper headings', () => {
		const kinds = ['Added', 'Changed', 'Deprecated', 'Removed', 'Fixed', 'Security'];
		const changes = headings.filter((h) => h.level >= 3);
		expect(changes.filter((h) => h.level !== 3 || !kinds.includes(h.text))).toEqual([]);
	});

	it('has [Unreleased] first, then versions with dates, each with its link', () => {
		const versions = headings.filter((h) => h.level === 2).map((h) => h.text);
		expect(versions[0]).toBe('[Unreleased]');
		const released = versions.slice(1);
		expect(released.filter((v) => !/^\[\d+\.\d+\.\d+\] - \d{4}-\d{2}-\d{2}$/.test(v))).toEqual([]);
		for (const version of versions.map((v) => v.replace(/ - .*$/, ''))) {
			expect(changelog).toContain(`\n${version}: https://`);
		}
	});
});

describe('README.md', () => {
	const readme = read('README.md');
	const headings = [...readme.matchAll(/^## (.+)$/gm)].map((m) => m[1].trim());

	it('installs by hand as the end-to-end tests install the package: this package only, no peer', () => {
		const manual = /^npm install n8n-nodes-phonovation.*$/m.exec(readme)?.[0] ?? '';
		expect(manual).toContain('--legacy-peer-deps');
		expect(read('test/e2e/support/n8n-process.ts')).toContain("'--legacy-peer-deps'");
	});

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

	it('links to every user guide in docs/, CONTRIBUTING.md, CHANGELOG.md and the examples', () => {
		const docs = readdirSync(join(ROOT, 'docs'))
			.filter((name) => name.endsWith('.md'))
			.map((name) => posix.join('docs', name));
		expect(docs.length).toBeGreaterThan(0);
		for (const target of [...docs, 'CONTRIBUTING.md', 'CHANGELOG.md', 'examples/README.md']) {
			expect(readme).toContain(`](${target}`);
		}
	});

	it('has no relative link to a file that does not exist', () => {
		expect(brokenLinks('README.md')).toEqual([]);
	});
});
