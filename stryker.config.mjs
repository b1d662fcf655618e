// Mutation testing (`npm run test:mutation`): StrykerJS mutates nodes/ and credentials/ and runs the
// unit tests (jest.mutation.config.js) against each mutant. Narrow a run with
// `npm run test:mutation -- --mutate 'nodes/Phonovation/domain/**/*.ts'`.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
	testRunner: 'jest',
	jest: {
		projectType: 'custom',
		configFile: 'jest.mutation.config.js',
		// Only the tests that import the mutated files run (jest --findRelatedTests).
		enableFindRelatedTests: true,
	},
	coverageAnalysis: 'perTest',
	// A mutant in a module-level constant (a limits table, the GSM alphabet, a zod schema) is "static":
	// it would rerun every test once per mutant, most of the run's time on 2 cores. They are left out
	// and reported as ignored; set this to false to include them.
	ignoreStatic: true,
	mutate: ['nodes/**/*.ts', 'credentials/**/*.ts'],
	// The engine tests post to a local simulator over real HTTP; give slow mutants room before a timeout.
	timeoutMS: 10000,
	timeoutFactor: 2,
	concurrency: 2,
	reporters: ['clear-text', 'progress', 'json', 'html'],
	jsonReporter: { fileName: 'reports/mutation/mutation.json' },
	htmlReporter: { fileName: 'reports/mutation/mutation.html' },
	tempDirName: '.stryker-tmp',
	cleanTempDir: 'always',
	ignorePatterns: ['dist', 'reports', 'coverage', '.e2e-cache', 'test/e2e/node_modules'],
	thresholds: { high: 85, low: 70, break: null },
};
