// Mutation runs only (jest.mutation.config.js). For each mutant Stryker asks jest for the tests that
// cover it (a test-name pattern) in every test file that imports the mutated file, and jest loads each
// of those files, n8n and all, just to find no matching test in most. With the names recordTestNames.cjs
// noted during the first run, only the files holding a covering test are run; with `--testFiles`, only
// those files' tests count. Without the names, or outside a mutant run, every file runs as usual.
const { existsSync, readFileSync } = require('node:fs');
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

let namesByFile;

function recordedNames(rootDir) {
	if (namesByFile) return namesByFile;
	const list = path.join(rootDir, '.mutation-test-names.jsonl');
	if (!existsSync(list)) return undefined;
	const byFile = new Map();
	for (const line of readFileSync(list, 'utf8').split('\n')) {
		if (line === '') continue;
		const [file, name] = JSON.parse(line);
		if (!byFile.has(file)) byFile.set(file, []);
		byFile.get(file).push(name);
	}
	namesByFile = byFile;
	return byFile;
}

class MutationTestSequencer extends Sequencer {
	constructor(options) {
		super(options);
		this.globalConfig = options.globalConfig;
	}

	sort(tests) {
		const sorted = super.sort(tests);
		const { testNamePattern, rootDir } = this.globalConfig;
		if (!testNamePattern || process.env.__STRYKER_ACTIVE_MUTANT__ === undefined) return sorted;
		const byFile = recordedNames(rootDir);
		if (!byFile) return sorted;
		const pattern = new RegExp(testNamePattern, 'i');
		// A file with no test in the first run (or left out of it with --testFiles) covers nothing.
		const covering = sorted.filter((test) =>
			byFile.get(test.path)?.some((name) => pattern.test(name)),
		);
		return covering.length > 0 ? covering : sorted;
	}
}

module.exports = MutationTestSequencer;
