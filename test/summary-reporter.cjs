// Prints the plain closing line CI reads ("tests: N passed, N failed, N skipped").
class SummaryReporter {
	onRunComplete(_contexts, results) {
		const { numPassedTests, numFailedTests, numPendingTests, numTodoTests } = results;
		// suites that crashed before their tests ran
		const failedSuites = results.numRuntimeErrorTestSuites;
		process.stdout.write(
			`\ntests: ${numPassedTests} passed, ${numFailedTests + failedSuites} failed, ${numPendingTests + numTodoTests} skipped\n`,
		);
	}
}
module.exports = SummaryReporter;
