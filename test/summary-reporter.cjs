// Prints the plain closing line CI reads ("tests: N passed, N failed, N skipped").
class SummaryReporter {
	onRunComplete(_contexts, results) {
		const { numPassedTests, numFailedTests, numPendingTests, numTodoTests } = results;
		const failedSuites = results.numRuntimeErrorTestSuites; // suites that crashed before their tests ran
		process.stdout.write(
			`\ntests: ${numPassedTests} passed, ${numFailedTests + failedSuites} failed, ${numPendingTests + numTodoTests} skipped\n`,
		);
	}
}
module.exports = SummaryReporter;
