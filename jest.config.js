/** Two projects: `unit` (pure modules, engine and simulator tests) and `e2e` (real n8n process). */
const shared = {
	preset: 'ts-jest',
	testEnvironment: 'node',
	setupFiles: ['<rootDir>/test/setup.cjs'],
	// Stryker's sandbox copies of the project (stryker.config.mjs) and its reports are not the project.
	modulePathIgnorePatterns: ['<rootDir>/.stryker-tmp/', '<rootDir>/reports/'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.test.json', diagnostics: false }],
	},
};

module.exports = {
	// Tests assert counts, not durations: on a busy machine a test may take longer than jest's 5 s.
	// Global: set in a project, jest ignores it and a test gets 5 s.
	testTimeout: 30_000,
	reporters: ['default', '<rootDir>/test/summary-reporter.cjs'],
	testSequencer: '<rootDir>/test/sequencer.cjs',
	projects: [
		{
			...shared,
			displayName: 'unit',
			testMatch: ['<rootDir>/test/**/*.test.ts'],
			testPathIgnorePatterns: ['/node_modules/', '<rootDir>/.stryker-tmp/', '<rootDir>/test/e2e/'],
		},
		{
			...shared,
			displayName: 'e2e',
			testMatch: ['<rootDir>/test/e2e/**/*.test.ts'],
			// n8n installed, the package packed, n8n's user folder migrated; the shared n8ns stopped.
			globalSetup: '<rootDir>/test/e2e/support/global-setup.ts',
			globalTeardown: '<rootDir>/test/e2e/support/global-teardown.ts',
			testPathIgnorePatterns: ['/node_modules/', '<rootDir>/.stryker-tmp/'],
		},
	],
};
