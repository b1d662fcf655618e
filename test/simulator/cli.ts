/**
 * `npm run simulator -- --port 8787`: runs the provider simulator until SIGINT/SIGTERM. Prints one
 * line with the base URL once it listens; logs one line per request to stderr (no secrets).
 */
import { parseCliArgs, USAGE } from './args';
import { startSimulator } from './simulator';

async function main(): Promise<void> {
	let parsed;
	try {
		parsed = parseCliArgs(process.argv.slice(2));
	} catch (error) {
		process.stderr.write(`${(error as Error).message}\n\n${USAGE}\n`);
		process.exit(2);
	}
	if (parsed.help) {
		process.stdout.write(`${USAGE}\n`);
		return;
	}
	const simulator = await startSimulator(parsed.config, {
		log: (line) => process.stderr.write(`[simulator] ${line}\n`),
	});
	process.stdout.write(`Phonovation simulator listening on ${simulator.url}\n`);

	let stopping = false;
	const stop = () => {
		if (stopping) return;
		stopping = true;
		simulator.stop().then(
			() => process.exit(0),
			() => process.exit(1),
		);
	};
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

main().catch((error) => {
	process.stderr.write(`Simulator failed to start: ${(error as Error).message}\n`);
	process.exit(1);
});
