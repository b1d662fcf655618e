// Prints the plain closing line CI reads ("tests: N passed, N failed, N skipped"), and, when
// PHONOVATION_TIMINGS names a file, appends one JSON line per test file (its time and counts),
// one per test of 10 s or more, and one for the whole run: `npm test` (test/run-all.ts) prints
// the timing table from them.
const { appendFileSync } = require('node:fs');
const path = require('node:path');

function record(line) {
	const file = process.env.PHONOVATION_TIMINGS;
	if (file) appendFileSync(file, JSON.stringify(line) + '\n');
}

class SummaryReporter {
	constructor(globalConfig) {
		this.rootDir = globalConfig.rootDir;
	}

	onTestResult(test, result) {
		const config = test.context?.config ?? {};
		const displayName =
			typeof config.displayName === 'string' ? config.displayName : config.displayName?.name;
		const { start, end } = result.perfStats ?? {};
		record({
			kind: 'file',
			project: displayName ?? 'jest',
			file: path.relative(this.rootDir, result.testFilePath),
			seconds: start && end ? (end - start) / 1000 : 0,
			passed: result.numPassingTests,
			failed: result.numFailingTests + (result.testExecError ? 1 : 0),
			skipped: result.numPendingTests + result.numTodoTests,
		});
		// Single tests of 10 s or more, so the table can name the slow test, not only its file.
		for (const test of result.testResults ?? []) {
			if ((test.duration ?? 0) < 10_000) continue;
			record({
				kind: 'test',
				project: displayName ?? 'jest',
				file: path.relative(this.rootDir, result.testFilePath),
				title: test.title,
				seconds: test.duration / 1000,
			});
		}
	}

	onRunComplete(_contexts, results) {
		const { numPassedTests, numFailedTests, numPendingTests, numTodoTests } = results;
		// suites that crashed before their tests ran
		const failedSuites = results.numRuntimeErrorTestSuites;
		const failed = numFailedTests + failedSuites;
		const skipped = numPendingTests + numTodoTests;
		record({ kind: 'run', passed: numPassedTests, failed, skipped });
		process.stdout.write(
			`\ntests: ${numPassedTests} passed, ${failed} failed, ${skipped} skipped\n`,
		);
	}
}
module.exports = SummaryReporter;
