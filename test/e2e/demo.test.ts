import { existsSync } from 'node:fs';
import path from 'node:path';

import { fetch } from 'undici';

import { DEFAULT_CONFIG } from '../simulator';
import { SIMULATOR_CREDENTIAL_NAME, TYPES } from './support/environment';
import { MAIL_CREDENTIAL_NAME } from './support/smtp-sink';
import { oneDemoAtATime, type RunningDemo, startDemo } from './support/demo-process';
import { ensureN8nInstalled } from './support/install';
import { N8nClient, nodeOutput } from './support/n8n-client';
import { packPackage } from './support/pack';
import { REPO_ROOT } from './support/paths';
import { isPortFree } from './support/ports';
import { groupMembers } from './support/processes';
import { runCommand } from './support/run-command';

/** The account's numeric longcode: the number the demo's phone texts, and the assistant answers from. */
const DEMO_LONGCODE = DEFAULT_CONFIG.senders.find((sender) => sender.type === 2)!.name;

const TSX = path.join(REPO_ROOT, 'node_modules', '.bin', 'tsx');

// Outside the describe: the lock is taken before its hooks and let go after them.
oneDemoAtATime();

/** `npm start`, as a person runs it: start, follow the printed instructions, Ctrl-C. */
describe('the npm start demo', () => {
	let demo: RunningDemo | undefined;

	beforeAll(async () => {
		// The install and the build are shared with the other e2e files; the demo reuses them.
		await ensureN8nInstalled();
		await packPackage();
	}, 20 * 60_000);

	afterAll(() => demo?.kill());

	it('brings up n8n with the credential and examples, relays a fake reply, and stops on Ctrl-C', async () => {
		demo = await startDemo();
		const n8nUrl = demo.n8nUrl.replace('localhost', '127.0.0.1');
		const { simUrl, logFile } = demo;

		const client = await N8nClient.forOwner(n8nUrl);
		const credentials = await client.credentials();
		expect(credentials.map((c) => [c.name, c.type]).sort()).toEqual([
			[MAIL_CREDENTIAL_NAME, 'smtp'],
			['OpenAI (local simulator)', 'openAiApi'],
			[SIMULATOR_CREDENTIAL_NAME, TYPES.credential],
			['Staff form login (demo)', 'httpBasicAuth'],
		]);
		const workflows = await client.workflows();
		expect(workflows.map((w) => [w.name, w.active]).sort()).toEqual([
			['Phonovation: AI agent with human review by SMS', false],
			['Phonovation: SMS assistant', true],
			['Phonovation: appointment confirmation (ask and wait)', false],
			['Phonovation: campaign that skips opted-out numbers', false],
			['Phonovation: inbox and question log', true],
			['Phonovation: reminder with e-mail fallback (wait for delivery)', false],
			['Phonovation: scheduled campaign from a list', false],
		]);

		// The printed command, pointed at this simulator: two texts in a row, one turn, one answer.
		const reply = await runCommand(
			TSX,
			['test/simulator/reply.ts', 'Hi', 'move me to Friday', '--url', simUrl, '--n8n', n8nUrl],
			{ cwd: REPO_ROOT },
		);
		expect(reply).toContain('"Hi": Relay URL answered HTTP 200');
		expect(reply).toContain('"move me to Friday": Relay URL answered HTTP 200');
		expect(reply).toMatch(
			/handed it to the assistant\. One turn of 2 text\(s\) "Hi\\nmove me to Friday" → replied ".+" \(accepted\) \(1 run\(s\) merged/,
		);
		const auto = workflows.find((w) => w.name.startsWith('Phonovation: inbox'))!;
		// The relay's run, not the Question Log calls the inbox makes to itself.
		const executions = await client.waitForExecutions(auto.id, 2, 60_000, { mode: 'webhook' });
		expect(executions.map((execution) => execution.status)).toEqual(['success', 'success']);
		const campaigns = (await (await fetch(`${simUrl}/_sim/campaigns`)).json()) as Array<{
			body: { text: string; from: string };
		}>;
		expect(campaigns).toHaveLength(1);
		expect(campaigns[0].body.from).toBe(DEMO_LONGCODE);

		// "Execute workflow" on the appointment example, then the printed reply command answers it.
		expect(demo.output()).toContain('npm run simulator:reply -- YES');
		expect(demo.output()).toContain(`--n8n ${demo.n8nUrl}`);
		const asking = workflows.find((w) => w.name.includes('appointment confirmation'))!;
		const asked = await client.runManually(asking.id, 'Start');
		for (let tries = 0; (await client.execution(asked)).status !== 'waiting'; tries++) {
			if (tries > 120) throw new Error('the demo question never started waiting');
			await new Promise((resolve) => setTimeout(resolve, 250));
		}
		// With --n8n (as the demo prints it), the command says which run the reply resumed and how it ended.
		const answer = await runCommand(
			TSX,
			['test/simulator/reply.ts', 'YES', '--url', simUrl, '--n8n', n8nUrl],
			{ cwd: REPO_ROOT },
		);
		expect(answer).toContain('Relay URL answered HTTP 200');
		expect(answer).toContain(`Resumed execution ${asked} (answer yes); it ended: success`);
		const answered = await client.waitForExecution(asked, 60_000);
		expect(answered.status).toBe('success');
		expect(nodeOutput(answered, 'Ask to Confirm')).toEqual([
			expect.objectContaining({ answer: 'yes', approved: true }),
		]);

		// "Execute workflow" on the reminder, then the printed receipt command fails it: the fallback e-mail is printed.
		expect(demo.output()).toContain('npm run simulator:receipt -- failed');
		const reminding = workflows.find((w) => w.name.includes('e-mail fallback'))!;
		const reminded = await client.runManually(reminding.id, 'Start');
		for (let tries = 0; (await client.execution(reminded)).status !== 'waiting'; tries++) {
			if (tries > 120) throw new Error('the demo reminder never started waiting');
			await new Promise((resolve) => setTimeout(resolve, 250));
		}
		const receipt = await runCommand(
			TSX,
			['test/simulator/receipt.ts', 'failed', '--url', simUrl, '--n8n', n8nUrl],
			{
				cwd: REPO_ROOT,
			},
		);
		expect(receipt).toContain('Relay URL answered HTTP 200');
		expect(receipt).toContain(`Resumed execution ${reminded} (delivery failed); it ended: success`);
		const failed = await client.waitForExecution(reminded, 60_000);
		expect(failed.status).toBe('success');
		expect(nodeOutput(failed, 'Text Reminder', 2)).toEqual([
			expect.objectContaining({ delivery: 'failed', email: 'aoife@example.com' }),
		]);
		for (let tries = 0; !demo.output().includes('[mail] to aoife@example.com'); tries++) {
			if (tries > 120) throw new Error('the fallback e-mail was never printed');
			await new Promise((resolve) => setTimeout(resolve, 250));
		}

		// The reminder again, and no receipt at all: the demo's one-minute wait runs No Receipt, which e-mails.
		const unanswered = await client.runManually(reminding.id, 'Start');
		const noReceipt = await client.waitForExecution(unanswered, 150_000);
		expect(noReceipt.status).toBe('success');
		expect(nodeOutput(noReceipt, 'Text Reminder', 0)).toEqual([
			expect.objectContaining({ delivery: 'noReceipt', email: 'aoife@example.com' }),
		]);
		const mails = () => demo!.output().split('[mail] to aoife@example.com').length - 1;
		for (let tries = 0; mails() < 2; tries++) {
			if (tries > 120) throw new Error('the No Receipt e-mail was never printed');
			await new Promise((resolve) => setTimeout(resolve, 250));
		}

		await demo.interrupt();
		expect(demo.output()).toContain('Stopped.');
		expect(existsSync(path.dirname(logFile))).toBe(false);
		await expect(fetch(`${n8nUrl}/healthz`)).rejects.toThrow();
		// n8n's whole process group (it and its task runner) and the simulator went with it.
		expect(groupMembers(demo.n8nPid)).toEqual([]);
		expect(await isPortFree(Number(new URL(simUrl).port))).toBe(true);
	}, 420_000);
});
