// Mutation testing (`npm run test:mutation`): StrykerJS mutates nodes/ and credentials/ and runs the
// unit tests (jest.mutation.config.js) against each mutant. `MUTATION_GROUP=<group>` narrows a run
// to one group of modules and the tests written for them (the groups below); `--mutate` on the
// command line narrows it further, e.g. `npm run test:mutation -- --mutate
// nodes/PhonovationTrigger/events/fields/keywords.ts`.
const PIPELINE = 'nodes/Phonovation/resources/campaign/pipeline';
const PURE_PIPELINE = [
	'plan',
	'recipients',
	'requestBody',
	'plainField',
	'suppression',
	'pacer',
	'ledger',
	'tooManyRequests',
];

const TRIGGER = 'nodes/PhonovationTrigger';
// The trigger's pure modules (request reading, signatures, event classifiers and item builders).
const PURE_TRIGGER = [
	'incoming/*.ts',
	'verification/signature.ts',
	'verification/recipe.ts',
	'events/**/*.ts',
];
const PURE_TRIGGER_TESTS = [
	'parsing.test.ts',
	'incoming/*.test.ts',
	'verification/*.test.ts',
	'events/**/*.test.ts',
];

const GROUPS = {
	domain: {
		mutate: ['nodes/Phonovation/domain/**/*.ts', 'nodes/shared/**/*.ts'],
		testFiles: ['test/nodes/Phonovation/domain/**/*.test.ts', 'test/nodes/shared/**/*.test.ts'],
	},
	pipeline: {
		mutate: PURE_PIPELINE.map((name) => `${PIPELINE}/${name}.ts`),
		testFiles: [
			'test/nodes/Phonovation/resources/campaign/pipeline/**/*.test.ts',
			'test/nodes/Phonovation/resources/campaign/compliance.test.ts',
		],
	},
	// The trigger's pure modules against their own tests (no n8n webhook context).
	trigger: {
		mutate: PURE_TRIGGER.map((path) => `${TRIGGER}/${path}`),
		testFiles: PURE_TRIGGER_TESTS.map((path) => `test/${TRIGGER}/${path}`),
	},
	// Its webhook handling, through n8n's webhook context: over an hour on 2 cores.
	'trigger-webhook': {
		mutate: [
			'PhonovationTrigger.node',
			'handler',
			'verification/verifyRelay',
			'verification/secrets',
			'parameters',
		].map((name) => `${TRIGGER}/${name}.ts`),
		testFiles: [`test/${TRIGGER}/**/*.test.ts`],
	},
	credentials: {
		mutate: ['credentials/**/*.ts'],
		testFiles: ['test/credentials/**/*.test.ts'],
	},
};

const group = process.env.MUTATION_GROUP;
if (group !== undefined && !(group in GROUPS)) {
	throw new Error(
		`MUTATION_GROUP must be one of ${Object.keys(GROUPS).join(', ')} (got "${group}")`,
	);
}
const report = group ? `reports/mutation/${group}` : 'reports/mutation/all';

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
	...(group ? GROUPS[group] : {}),
	// The engine tests post to a local simulator over real HTTP; give slow mutants room before a timeout.
	timeoutMS: 10000,
	timeoutFactor: 2,
	concurrency: 2,
	reporters: ['clear-text', 'progress', 'json', 'html'],
	jsonReporter: { fileName: `${report}.json` },
	htmlReporter: { fileName: `${report}.html` },
	tempDirName: '.stryker-tmp',
	cleanTempDir: 'always',
	ignorePatterns: ['dist', 'reports', 'coverage', '.e2e-cache', 'test/e2e/node_modules'],
	thresholds: { high: 85, low: 70, break: null },
};
