/**
 * `npm start`: the one-command demo. Builds and packs the package, starts the provider
 * simulator on 127.0.0.1:8787 and a real n8n 2.41 on 127.0.0.1:5678 with the package installed
 * as a community package, a ready credential and the example workflows, then waits for Ctrl-C.
 * Everything lives in a temporary n8n user folder that is removed on exit.
 */
import { DEFAULT_CLI_PORT, DEFAULT_CONFIG, type Simulator, startSimulator } from '../simulator';
import {
	productionWebhookUrl,
	SIMULATOR_CREDENTIAL_NAME,
	simulatorCredentialData,
	TYPES,
	withCredential,
} from '../e2e/support/environment';
import { exampleNames, loadExample } from '../e2e/support/examples';
import { ensureN8nInstalled } from '../e2e/support/install';
import { N8nClient, OWNER } from '../e2e/support/n8n-client';
import { type N8nProcess, startN8n } from '../e2e/support/n8n-process';
import { packPackage } from '../e2e/support/pack';
import { freePort, isPortFree } from '../e2e/support/ports';

const PREFERRED_N8N_PORT = 5678;
/** The numeric longcode the demo's appointment confirmation asks from (one the simulator approves). */
const DEMO_LONGCODE = DEFAULT_CONFIG.senders.find((sender) => sender.type === 2)!.name;

/** The example (in examples/) the demo publishes, so the simulator's replies reach it. */
const AUTO_RESPONDER = { name: 'reply-auto-responder', trigger: 'On Reply or Opt-Out' };

const say = (line = '') => process.stdout.write(`${line}\n`);
const step = (line: string) => say(`▸ ${line}`);

async function choosePort(preferred: number, what: string): Promise<number> {
	if (await isPortFree(preferred)) return preferred;
	const port = await freePort();
	say(`! Port ${preferred} is already in use on 127.0.0.1, so ${what} uses port ${port} instead.`);
	return port;
}

function instructions(n8nUrl: string, sim: Simulator, relayUrl: string, logFile: string): string {
	const replyFlag = sim.url.endsWith(`:${DEFAULT_CLI_PORT}`) ? '' : ` --url ${sim.url}`;
	return `
────────────────────────────────────────────────────────────────────────────
 n8n with n8n-nodes-phonovation is running.

 Open        ${n8nUrl}
 Log in as   ${OWNER.email}  /  ${OWNER.password}

 Ready for you:
   • Credential "${SIMULATOR_CREDENTIAL_NAME}" (every URL points at the simulator)
   • Data table "opt-outs" (the suppression list)
   • Workflows (Overview):
       - Phonovation: reply auto-responder with keyword routing   (published)
       - Phonovation: campaign that skips opted-out numbers        (click "Execute workflow")
       - Phonovation: scheduled campaign from a list               (click "Execute workflow")

 Send a fake reply from a phone (in another terminal):
   npm run simulator:reply -- "YES please"${replyFlag}
   npm run simulator:reply -- "NO"${replyFlag}
 or an opt-out, then run the campaign workflow and see that number skipped:
   curl -s -X POST ${sim.url}/_sim/relay/optout -H 'content-type: application/json' -d '{"from":"353871111111"}'

 Look at what the "provider" received:  curl -s ${sim.url}/_sim/campaigns
 Deliver scheduled campaigns now:       curl -s -X POST ${sim.url}/_sim/deliver -d '{}'
 The simulator relays replies to:       ${relayUrl}
 n8n's log:                             ${logFile}

 Ctrl-C stops n8n and the simulator (nothing is kept).
────────────────────────────────────────────────────────────────────────────
`;
}

async function main(): Promise<void> {
	if (Number(process.versions.node.split('.')[0]) < 24) {
		throw new Error(`n8n 2.41 needs Node 24 or newer; this is Node ${process.versions.node}. See the README ("Node 24").`);
	}
	say('n8n-nodes-phonovation demo');
	const install = await ensureN8nInstalled({ log: step });
	step(`n8n ${install.version} ready (${install.dir})`);
	const tarball = await packPackage({ log: step });
	step(`Package packed: ${tarball}`);

	const n8nPort = await choosePort(PREFERRED_N8N_PORT, 'n8n');
	const simPort = await choosePort(DEFAULT_CLI_PORT, 'the simulator');
	const n8nUrl = `http://localhost:${n8nPort}`;
	const autoResponder = loadExample(AUTO_RESPONDER.name);
	const relayUrl = productionWebhookUrl(`http://127.0.0.1:${n8nPort}`, autoResponder, AUTO_RESPONDER.trigger);

	let sim: Simulator | undefined;
	let n8n: N8nProcess | undefined;
	let stopping = false;
	const stop = async (code: number) => {
		if (stopping) return;
		stopping = true;
		say('\nStopping n8n and the simulator…');
		await n8n?.stop();
		await sim?.stop();
		say('Stopped.');
		process.exit(code);
	};
	process.on('SIGINT', () => void stop(0));
	process.on('SIGTERM', () => void stop(0));

	try {
		sim = await startSimulator(
			{ port: simPort, relayUrl },
			{ log: (line) => say(`  [simulator] ${line}`) },
		);
		step(`Simulator listening on ${sim.url}`);
		step(`Starting n8n on ${n8nUrl} (about 15 seconds)…`);
		n8n = await startN8n({ install, packageTarball: tarball, port: n8nPort, publicHost: 'localhost' });
		const running = n8n;
		void running.exited.then(() => {
			if (stopping) return;
			say(`n8n stopped unexpectedly. Its last lines:\n${running.logTail(40)}`);
			void stop(1);
		});

		const client = await N8nClient.forOwner(running.url);
		const created = await client.createCredential(SIMULATOR_CREDENTIAL_NAME, TYPES.credential, simulatorCredentialData(sim));
		const credential = { id: String(created.id), name: created.name, type: TYPES.credential };
		await client.createDataTable('opt-outs', [
			{ name: 'phone', type: 'string' },
			{ name: 'optedOutAt', type: 'string' },
		]);
		await client.createDataTable('questions', ['reference', 'phone', 'resumeUrl', 'askedAt'].map((column) => ({ name: column, type: 'string' as const })));
		for (const name of exampleNames()) {
			const example =
				name === AUTO_RESPONDER.name ? autoResponder : loadExample(name, name === 'appointment-confirmation' ? { sender: DEMO_LONGCODE } : {});
			const workflow = await client.createWorkflow(withCredential(example, credential));
			if (name === AUTO_RESPONDER.name) {
				await client.publishWorkflow(String(workflow.id));
				await client.waitForWebhook(relayUrl);
			}
		}
		say(instructions(n8nUrl, sim, relayUrl, running.logFile));
	} catch (error) {
		say(`\nThe demo could not start: ${(error as Error).message}`);
		await stop(1);
	}
}

main().catch((error: unknown) => {
	process.stderr.write(`${(error as Error).message}\n`);
	process.exit(1);
});
