/**
 * `npm start`: the one-command demo. Builds and packs the package, starts the provider
 * simulator on 127.0.0.1:8787 and a real n8n 2.41 on 127.0.0.1:5678 with the package installed
 * as a community package, a ready credential and the example workflows, then waits for Ctrl-C.
 * Everything lives in a temporary n8n user folder that is removed on exit.
 *
 * Nothing outlives it (see lifeline.ts): Ctrl-C, SIGTERM or SIGHUP stop n8n and the simulator
 * (a second one kills n8n at once); so does the death of npm or of any process between npm and
 * this one; and n8n stops itself if this process dies without stopping it (SIGKILL).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import {
	DEFAULT_CLI_PORT,
	DEFAULT_CONFIG,
	DEFAULT_REPLY_FROM,
	type Simulator,
	startSimulator,
} from '../simulator';
import {
	productionWebhookUrl,
	SIMULATOR_CREDENTIAL_NAME,
	simulatorCredentialData,
	TYPES,
	withCredential,
} from '../e2e/support/environment';
import {
	createSimulatorOpenAi,
	exampleNames,
	loadExample,
	withOpenAi,
	withStaffLogin,
	withAssistant,
} from '../e2e/support/examples';
import { ensureN8nInstalled } from '../e2e/support/install';
import { N8nClient, OWNER, type WorkflowJson } from '../e2e/support/n8n-client';
import { type N8nProcess, startN8n } from '../e2e/support/n8n-process';
import { packPackage } from '../e2e/support/pack';
import { freePort, isPortFree } from '../e2e/support/ports';
import {
	MAIL_CREDENTIAL_NAME,
	type SmtpSink,
	smtpCredentialData,
	startSmtpSink,
	subjectOf,
	withSmtpCredential,
} from '../e2e/support/smtp-sink';
import { n8nWatchdogEnv, readPid, signalGroup, watchLifeline } from './lifeline';

const PREFERRED_N8N_PORT = 5678;
/** The numeric longcode the demo's appointment confirmation asks from (one the simulator approves). */
const DEMO_LONGCODE = DEFAULT_CONFIG.senders.find((sender) => sender.type === 2)!.name;

/** The example (in examples/) the demo publishes, so the simulator's replies reach it. */
const INBOX = { name: 'inbox', trigger: 'On Reply or Opt-Out' };
/** The example the inbox hands inbound texts to; its chat model is the simulator's. */
const ASSISTANT = { name: 'sms-assistant', model: 'OpenAI Chat Model' };
/** The demo's login to the assistant's Staff Reply Form: this user and the owner's password. */
const STAFF_USER = 'staff';
const STAFF_FORM_CREDENTIAL_NAME = 'Staff form login (demo)';
/** Where staff reply to a person handed over to them (the assistant's form); set once it is created. */
let staffForm = '';
const staffFormPath = (workflow: WorkflowJson) =>
	(
		workflow.nodes.find((node) => node.name === 'Staff Reply Form')?.parameters as
			{ options?: { path?: string } } | undefined
	)?.options?.path;
const OPENAI_CREDENTIAL_NAME = 'OpenAI (local simulator)';

/** The examples that ask a question and wait for the reply. */
const ASKING = ['appointment-confirmation', 'ai-human-review'];
/** The appointment example's number, and the one the demo asks: where `simulator:reply` texts from. */
const EXAMPLE_PHONE = '353871234567';

const sleep = (ms: number) =>
	new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), ms));
const say = (line = '') => process.stdout.write(`${line}\n`);
const step = (line: string) => say(`▸ ${line}`);

async function choosePort(preferred: number, what: string): Promise<number> {
	if (await isPortFree(preferred)) return preferred;
	const port = await freePort();
	say(`! Port ${preferred} is already in use on 127.0.0.1, so ${what} uses port ${port} instead.`);
	return port;
}

/** The demo's wait for a delivery receipt: No Receipt shows within a minute, not after the example's hour. */
const DEMO_WAIT_MINUTES = 1;

/** The example with every Send and Wait for Delivery waiting DEMO_WAIT_MINUTES for its receipt. */
function withDemoWait(workflow: WorkflowJson): WorkflowJson {
	for (const node of workflow.nodes) {
		const parameters = node.parameters as Record<string, unknown> | undefined;
		const options = parameters?.options as Record<string, unknown> | undefined;
		if (parameters?.operation === 'sendAndWaitForDelivery' && options)
			options.limitWaitTime = DEMO_WAIT_MINUTES;
	}
	return workflow;
}
function instructions(
	n8nUrl: string,
	sim: Simulator,
	relayUrl: string,
	logFile: string,
	n8nPid: number | undefined,
): string {
	const replyFlag = `${sim.url.endsWith(`:${DEFAULT_CLI_PORT}`) ? '' : ` --url ${sim.url}`} --n8n ${n8nUrl}`;
	return `
────────────────────────────────────────────────────────────────────────────
 n8n with n8n-nodes-phonovation is running.

 Open        ${n8nUrl}
 Log in as   ${OWNER.email}  /  ${OWNER.password}

 Ready for you:
   • Credential "${SIMULATOR_CREDENTIAL_NAME}" (every URL points at the simulator)
   • Credential "${MAIL_CREDENTIAL_NAME}" (SMTP to a local mail catcher: nothing is delivered)
   • Credential "${STAFF_FORM_CREDENTIAL_NAME}" (the SMS assistant's Staff Reply Form login)
   • Workflows (Overview):
       - Phonovation: inbox and question log                       (published: the relay URL;
         it creates the Data Tables "opt-outs", "questions" and "messages" on first use, and
         hands texts no question waits for to the SMS assistant)
       - Phonovation: SMS assistant                                (published: an AI agent on the
         simulator's stand-in chat model answers each burst of texts once)
       - Phonovation: appointment confirmation (ask and wait)      (click "Execute workflow")
       - Phonovation: reminder with e-mail fallback (wait for delivery) (click "Execute workflow")
       - Phonovation: campaign that skips opted-out numbers        (click "Execute workflow")
       - Phonovation: scheduled campaign from a list               (click "Execute workflow")
       - Phonovation: AI agent with human review by SMS            (choose an OpenAI credential, "Open chat")

 Send a fake reply from a phone (in another terminal):
   npm run simulator:reply -- "Hi" "move me to Friday"${replyFlag}
     (two texts in a row: the assistant answers them as one turn, once)
 Ask the assistant for a person: it stays quiet and e-mails staff (printed here as [mail]):
   npm run simulator:reply -- "can I talk to a person"${replyFlag}
   then reply as staff at ${staffForm}
     (log in as ${STAFF_USER} / ${OWNER.password}; "Hand Back" gives the person back to the assistant)
 Answer the appointment question (after "Execute workflow", the run waits for it):
   npm run simulator:reply -- YES${replyFlag}
 or an opt-out, then run the campaign workflow and see that number skipped:
   curl -s -X POST ${sim.url}/_sim/relay/optout -H 'content-type: application/json' -d '{"from":"353871111111"}'
 Send the reminder's delivery receipt (after "Execute workflow", the run waits for it; Failed
 e-mails the reminder, printed here as [mail]; sending none e-mails it after about
 ${DEMO_WAIT_MINUTES} minute, the demo's Limit Wait Time — the example's own is 60):
   npm run simulator:receipt -- delivered${replyFlag}
   npm run simulator:receipt -- failed${replyFlag}

 Look at what the "provider" received:  curl -s ${sim.url}/_sim/campaigns
 Deliver scheduled campaigns now:       curl -s -X POST ${sim.url}/_sim/deliver -d '{}'
 The simulator relays replies to:       ${relayUrl}
 n8n's log:                             ${logFile}
 n8n's process id:                      ${n8nPid ?? 'unknown'}

 Ctrl-C stops n8n and the simulator (nothing is kept).
────────────────────────────────────────────────────────────────────────────
`;
}

/**
 * A repeat of the stop signal within this window is the same request (tsx passes a signal on again when the demo is
 * slow to acknowledge it), not a second Ctrl-C.
 */
const REPEAT_WINDOW_MS = 100;

async function main(): Promise<void> {
	if (Number(process.versions.node.split('.')[0]) < 24) {
		throw new Error(
			`n8n 2.41 needs Node 24 or newer; this is Node ${process.versions.node}. See the README ("Node 24").`,
		);
	}

	// Set up before anything starts, so that every way of stopping finds it.
	let folder: string | undefined;
	let pidFile: string | undefined;
	let sim: Simulator | undefined;
	let mail: SmtpSink | undefined;
	let n8n: N8nProcess | undefined;
	let starting: Promise<N8nProcess> | undefined;
	let stoppingSince: number | undefined;
	const n8nPid = () => (pidFile ? readPid(pidFile) : undefined);
	const keep = process.env.PHONOVATION_E2E_KEEP === '1';
	/** Once n8n's group is gone (a process still shutting down may still write into the folder). */
	const removeFolder = async () => {
		const pid = n8nPid();
		for (
			const deadline = Date.now() + 5_000;
			pid !== undefined && signalGroup(pid, 0) && Date.now() < deadline;
		)
			await sleep(100);
		try {
			// Not rmSync: tsx SIGKILLs a child that leaves a signal unacknowledged for 60 ms (a second Ctrl-C).
			if (folder && !keep) await rm(folder, { recursive: true, force: true, maxRetries: 3 });
		} catch (error) {
			say(`Could not remove ${folder}: ${(error as Error).message}`);
		}
	};
	/**
	 * n8n.stop() once n8n is up. While it is starting, npm first installs the package into the
	 * folder (a child process out of our reach: removing the folder under it would not stop it), so
	 * wait for n8n to spawn and write its pid, then SIGTERM its group, which makes the start fail.
	 */
	const stopN8n = async () => {
		if (n8n) return await n8n.stop();
		if (!starting) return;
		let settled = false;
		const started = starting.catch(() => undefined);
		void started.finally(() => (settled = true));
		let pid = n8nPid();
		for (
			const deadline = Date.now() + 60_000;
			!settled && pid === undefined && Date.now() < deadline;
			pid = n8nPid()
		)
			await sleep(100);
		if (pid !== undefined) signalGroup(pid, 'SIGTERM');
		const up = await Promise.race([started, sleep(25_000)]);
		if (up) await up.stop();
		else if (pid !== undefined) signalGroup(pid, 'SIGKILL');
	};
	const stop = async (code: number, why = '') => {
		if (stoppingSince !== undefined) return;
		stoppingSince = Date.now();
		say(`\nStopping n8n and the simulator${why}…`);
		await stopN8n();
		await sim?.stop();
		await mail?.stop();
		await removeFolder();
		say('Stopped.');
		process.exit(code);
	};
	let forcing = false;
	// SIGHUP: the terminal was closed. A second signal while stopping does not wait for n8n.
	const onSignal = async (signal: NodeJS.Signals) => {
		if (stoppingSince === undefined) return void stop(0);
		if (forcing || Date.now() - stoppingSince < REPEAT_WINDOW_MS) return;
		forcing = true;
		say(`${signal} again: killing n8n now.`);
		const pid = n8nPid();
		if (pid !== undefined) signalGroup(pid, 'SIGKILL');
		await removeFolder();
		say('Stopped.');
		process.exit(1);
	};
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
		process.on(signal, (name) => void onSignal(name));
	// npm does not pass every stop on to us (see lifeline.ts): its death, or tsx's, is a stop too.
	watchLifeline((why) => void stop(0, ` (${why})`));
	// Once the terminal is gone, writing to it fails; stopping must go on regardless.
	process.stdout.on('error', () => undefined);
	process.stderr.on('error', () => undefined);

	say('n8n-nodes-phonovation demo');
	// Side by side: the package builds while n8n installs (minutes, on a first start).
	const [install, tarball] = await Promise.all([
		ensureN8nInstalled({ log: step }),
		packPackage({ log: step }),
	]);
	step(`n8n ${install.version} ready (${install.dir})`);
	step(`Package packed: ${tarball}`);

	const n8nPort = await choosePort(PREFERRED_N8N_PORT, 'n8n');
	const simPort = await choosePort(DEFAULT_CLI_PORT, 'the simulator');
	const n8nUrl = `http://localhost:${n8nPort}`;
	const relayUrl = productionWebhookUrl(
		`http://127.0.0.1:${n8nPort}`,
		loadExample(INBOX.name),
		INBOX.trigger,
	);

	try {
		// The demo's own folder (not startN8n's), so that it is known, and removed, from the moment n8n starts.
		folder = await mkdtemp(path.join(tmpdir(), 'n8n-phonovation-demo-'));
		pidFile = path.join(folder, 'n8n.pid');
		sim = await startSimulator(
			{ port: simPort, relayUrl },
			{ log: (line) => say(`  [simulator] ${line}`) },
		);
		step(`Simulator listening on ${sim.url}`);
		step(`Starting n8n on ${n8nUrl} (about 15 seconds)…`);
		starting = startN8n({
			install,
			packageTarball: tarball,
			port: n8nPort,
			publicHost: 'localhost',
			userFolder: folder,
			// n8n runs in its own process group, out of reach of signals to ours: it watches this process itself.
			env: n8nWatchdogEnv(pidFile, keep ? undefined : folder),
		});
		const running = await starting;
		// Stopped while it started: stop() has it.
		if (stoppingSince !== undefined) return;
		n8n = running;
		void running.exited.then(() => {
			if (stoppingSince !== undefined) return;
			say(`n8n stopped unexpectedly. Its last lines:\n${running.logTail(40)}`);
			void stop(1);
		});

		const client = await N8nClient.forOwner(running.url);
		const created = await client.createCredential(
			SIMULATOR_CREDENTIAL_NAME,
			TYPES.credential,
			simulatorCredentialData(sim),
		);
		const credential = { id: String(created.id), name: created.name, type: TYPES.credential };
		// The e-mail fallback's Send Email node sends to a local mail catcher, which prints each message.
		mail = await startSmtpSink(0, (caught) =>
			say(`  [mail] to ${caught.to.join(', ')}: ${subjectOf(caught)}`),
		);
		const smtp = await client.createCredential(
			MAIL_CREDENTIAL_NAME,
			'smtp',
			smtpCredentialData(mail),
		);
		// The simulator's stand-in chat model, for the assistant's agent (any key works).
		const openAi = await createSimulatorOpenAi(client, sim.url, OPENAI_CREDENTIAL_NAME);
		// The assistant's Staff Reply Form is behind Basic Auth, as its README asks.
		const staffLogin = await client.createCredential(STAFF_FORM_CREDENTIAL_NAME, 'httpBasicAuth', {
			user: STAFF_USER,
			password: OWNER.password,
		});
		// The inbox first: it is the Question Log the asking examples choose.
		let questionLog = '';
		for (const name of [
			INBOX.name,
			...exampleNames().filter((example) => example !== INBOX.name),
		]) {
			// The examples that ask need a sender replies can come back to.
			const sender = ASKING.includes(name) ? DEMO_LONGCODE : undefined;
			const loaded = loadExample(name, { sender, questionLog });
			// The demo asks the simulator's phone, so that `simulator:reply -- YES` answers it.
			const example = withDemoWait(
				JSON.parse(
					JSON.stringify(loaded).split(EXAMPLE_PHONE).join(DEFAULT_REPLY_FROM),
				) as typeof loaded,
			);
			const ready = withSmtpCredential(withCredential(example, credential), smtp);
			const workflow = await client.createWorkflow(
				name === ASSISTANT.name
					? withStaffLogin(withOpenAi(ready, openAi, ASSISTANT.model), {
							id: String(staffLogin.id),
							name: staffLogin.name,
						})
					: ready,
			);
			if (name === INBOX.name) questionLog = String(workflow.id);
			if (name === ASSISTANT.name) {
				staffForm = `${n8nUrl}/form/${String(staffFormPath(workflow))}`;
				await client.publishWorkflow(String(workflow.id));
				// The inbox hands the texts no question takes to the assistant, then goes live.
				const inbox = await client.getWorkflow(questionLog);
				await client.updateWorkflow(questionLog, withAssistant(inbox, String(workflow.id)).nodes);
			}
		}
		await client.publishWorkflow(questionLog);
		await client.waitForWebhook(relayUrl);
		say(instructions(n8nUrl, sim, relayUrl, running.logFile, n8nPid()));
	} catch (error) {
		// Stopping while n8n starts makes the start fail: stop() is already on it.
		if (stoppingSince !== undefined) return;
		say(`\nThe demo could not start: ${(error as Error).message}`);
		await stop(1);
	}
}

main().catch((error: unknown) => {
	process.stderr.write(`${(error as Error).message}\n`);
	process.exit(1);
});
