/**
 * Jest config that Stryker runs for `npm run test:mutation`: the `unit` project only, flat (Stryker's
 * jest runner does not take `projects`). The simulator's own tests and the bench cover test tooling,
 * not nodes/ or credentials/, so they are left out to keep the mutation run short. e2e never runs here.
 */
const { projects } = require('./jest.config');

const {
	displayName: _displayName,
	testPathIgnorePatterns,
	...unit
} = projects.find((project) => project.displayName === 'unit');

module.exports = {
	...unit,
	testPathIgnorePatterns: [
		...testPathIgnorePatterns,
		'<rootDir>/test/simulator/',
		'<rootDir>/test/bench/',
	],
	// Per mutant, run only the test files that hold a test covering it (see the two files).
	setupFilesAfterEnv: ['<rootDir>/test/mutation/recordTestNames.cjs'],
	testSequencer: '<rootDir>/test/mutation/testSequencer.cjs',
};
