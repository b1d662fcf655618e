// Mutation runs only (jest.mutation.config.js): during Stryker's first, unmutated run, note which
// file each test lives in, so testSequencer.cjs can skip files without a test that covers a mutant.
const { appendFileSync } = require('node:fs');
const path = require('node:path');

const LIST = path.resolve(__dirname, '../../.mutation-test-names.jsonl');

if (
	process.env.STRYKER_MUTATOR_WORKER !== undefined &&
	process.env.__STRYKER_ACTIVE_MUTANT__ === undefined
) {
	afterEach(() => {
		const { currentTestName, testPath } = expect.getState();
		appendFileSync(LIST, `${JSON.stringify([testPath, currentTestName])}\n`);
	});
}
