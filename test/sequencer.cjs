// Starts the slowest end-to-end files first, so two workers finish together instead of one
// waiting on a long file picked last. The order comes from the timing table `npm test` prints;
// files not listed follow in jest's own order (its cached durations, then file size).
const Sequencer = require('@jest/test-sequencer').default;

// The three files that run `npm start` (demo-stop, browser, demo) take the demo's lock, so they
// are spread out: two of them side by side would leave a worker waiting.
const SLOWEST_FIRST = [
	'queue-mode.test.ts',
	'conversations.test.ts',
	'examples-at-once.test.ts',
	'examples.test.ts',
	'demo-stop.test.ts',
	'crash.test.ts',
	'sms-assistant.test.ts',
	'delivery.test.ts',
	'browser.test.ts',
	'refusals.test.ts',
	'hostile-input.test.ts',
	'relay-load.test.ts',
	'demo.test.ts',
	'money-safety.test.ts',
	'secrets.test.ts',
];

class SlowestFirst extends Sequencer {
	sort(tests) {
		const sorted = super.sort(tests);
		const rank = (test) => {
			const index = SLOWEST_FIRST.findIndex((name) => test.path.endsWith(`/e2e/${name}`));
			return index === -1 ? SLOWEST_FIRST.length : index;
		};
		return [...sorted].sort((a, b) => rank(a) - rank(b));
	}
}

module.exports = SlowestFirst;
