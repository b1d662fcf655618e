/// <reference lib="dom" />
import path from 'node:path';

import type { Browser, HTTPRequest, Page } from 'puppeteer-core';
import { fetch } from 'undici';

import { DEFAULT_CONFIG, simulatorCredentialData } from '../simulator';
import { launchChromium, screenshotFolder, signIn } from './support/browser';
import {
	closeNode,
	dropdownOptions,
	nodePanelIcons,
	openNode,
	openWorkflow,
	pageText,
	panelDocsLink,
	shownText,
	testId,
	waitForText,
} from './support/browser-editor';
import { oneDemoAtATime, type RunningDemo, startDemo } from './support/demo-process';
import { TYPES, withCredential } from './support/environment';
import { exampleNames, readExample } from './support/examples';
import { chain, phonovationTrigger } from './support/workflow-builder';
import { ensureN8nInstalled } from './support/install';
import { N8nClient } from './support/n8n-client';
import { packPackage } from './support/pack';
import { docsLinkProblem, REPOSITORY } from '../docs/repositoryLinks';

const CAMPAIGN = {
	name: 'Phonovation: campaign that skips opted-out numbers',
	sendNode: 'Send Offer',
};
const AUTO_RESPONDER = {
	name: 'Phonovation: inbox and question log',
	/** n8n's Webhook node the provider relays to, and Verify Relay after it. */
	relayUrl: 'Relay URL',
	verify: 'On Reply or Opt-Out',
};
/** The example's customers as the provider receives them (international format). */
const CUSTOMER_NUMBERS = ['353871234501', '353871234502', '353861234567', '447911123456'];
const WRONG_PASSWORD = 'Wrong-Password-5521';
/** The demo account's senders as the Sender dropdown lists them. */
const SENDERS = [
	'353851234567 (numeric)',
	'FreeText (international — not delivered to Irish numbers)',
	'Phonovation (ComReg registered)',
];

// Outside the describe: the lock is taken before its hooks and let go after them.
oneDemoAtATime();

/**
 * The package as a person meets it: `npm start`, then n8n's editor in a real Chromium. Each step
 * leaves a screenshot (PHONOVATION_SCREENSHOTS_DIR, or a temp folder named in the log).
 */
describe('the editor in a real browser, against the npm start demo', () => {
	let demo: RunningDemo;
	let browser: Browser | undefined;
	let page: Page;
	let client: N8nClient;
	let shots: string;
	let n8nUrl: string;

	const screenshot = (name: string) => page.screenshot({ path: path.join(shots, `${name}.png`) });
	const workflowId = async (name: string) =>
		(await client.workflows()).find((w) => w.name === name)!.id;
	const simCount = async (method: string, route: string) => {
		const response = await fetch(
			`${demo.simUrl}/_sim/count?method=${method}&path=${encodeURIComponent(route)}`,
		);
		return ((await response.json()) as { count: number }).count;
	};

	beforeAll(async () => {
		await ensureN8nInstalled();
		await packPackage();
		browser = await launchChromium((line) => process.stdout.write(`${line}\n`));
		demo = await startDemo();
		n8nUrl = demo.n8nUrl;
		client = await N8nClient.forOwner(n8nUrl.replace('localhost', '127.0.0.1'));
		shots = await screenshotFolder();
		process.stdout.write(`Browser test screenshots: ${shots}\n`);
		page = await browser.newPage();
	}, 20 * 60_000);

	afterAll(async () => {
		await browser?.close();
		await demo?.interrupt();
	}, 60_000);

	it('signs in with the printed login and lists the example workflows', async () => {
		await signIn(page, n8nUrl);
		for (const name of [CAMPAIGN.name, AUTO_RESPONDER.name])
			await waitForText(page, testId('workflow-card-name'), name);
		const listed = await page.$$eval(testId('workflow-card-name'), (names) =>
			names.map((name) => (name as HTMLElement).innerText),
		);
		expect(listed).toHaveLength(exampleNames().length);
		expect(page.url()).toContain('/home/workflows');
		await screenshot('01-workflows');
	}, 120_000);

	it('finds Phonovation and its trigger in the node panel, with their icons drawn', async () => {
		await page.goto(`${n8nUrl}/workflow/new`, { waitUntil: 'networkidle2' });
		await page.locator(testId('canvas-add-button')).click();
		await page.locator(testId('node-creator-search-bar')).fill('Phonovation');
		const entry = await waitForText(
			page,
			`${testId('node-creator')} ${testId('node-creator-item-name')}`,
			'Phonovation',
		);
		await entry.click();
		// n8n lists a trigger under its action node's entry: Phonovation Trigger's events are its "Triggers".
		const panel = await waitForText(page, testId('node-creator'), 'Triggers (5)');
		const shown = await shownText(panel);
		expect(shown).toMatch(
			/Triggers \(5\).*On delivery receipt.*On inbound message.*On opt in.*On opt out.*On processing result.*Actions \(13\)/,
		);
		await page.locator(`${testId('node-creator')} ::-p-text(Actions (13))`).click();
		const actions = await shownText(
			await waitForText(page, testId('node-creator'), 'Send a campaign'),
		);
		for (const action of [
			'Schedule a campaign',
			'Get many senders',
			'Check service health',
			'Send a legacy message',
			'Send a text and wait for the reply',
			'Deliver a reply to a waiting run',
			'Send a text and wait for its delivery',
			'Deliver a receipt to a waiting run',
			'Collect a burst of texts into one turn',
			'Reply to a text',
			'Hand a conversation over or back',
		]) {
			expect(actions).toContain(action);
		}
		const icons = await nodePanelIcons(page);
		expect(icons.length).toBeGreaterThanOrEqual(5);
		expect(icons.every((icon) => icon.src.endsWith('/icons/phonovation.svg') && icon.loaded)).toBe(
			true,
		);
		await screenshot('02-node-panel');
	}, 120_000);

	it("links each node's Docs, in its panel, to a heading of this repository's README or docs that exists", async () => {
		const links: string[] = [];
		await openWorkflow(page, n8nUrl, await workflowId(CAMPAIGN.name));
		await openNode(page, CAMPAIGN.sendNode);
		links.push(await panelDocsLink(page));
		await closeNode(page);
		// No example starts with the trigger now: a workflow of the user's own does. Set up whole (its
		// events, its credential), so that opening it changes nothing and leaving asks nothing.
		const credential = (await client.credentials()).find((c) => c.type === TYPES.credential)!;
		const trigger = phonovationTrigger('Phonovation Trigger', {
			events: ['inbound', 'optOut', 'deliveryReceipt'],
			options: {},
		});
		const own = await client.createWorkflow(
			withCredential(chain('Texts in (browser)', [trigger]), credential),
		);
		await openWorkflow(page, n8nUrl, String(own.id));
		await openNode(page, 'Phonovation Trigger');
		links.push(await panelDocsLink(page));
		await closeNode(page);
		expect(links.map((href) => href.split(/[?#]/)[0])).toEqual([
			REPOSITORY,
			`${REPOSITORY}/blob/main/docs/trigger-and-security.md`,
		]);
		expect(links.map(docsLinkProblem)).toEqual([undefined, undefined]);
	}, 120_000);

	it('tests the credential when it is opened and on Retry, and says clearly when the password is wrong, never showing it', async () => {
		const wrong = await client.createCredential(
			'Phonovation (wrong password)',
			TYPES.credential,
			simulatorCredentialData(
				{ url: demo.simUrl, config: DEFAULT_CONFIG },
				{ password: WRONG_PASSWORD },
			),
		);
		await page.goto(`${n8nUrl}/home/credentials`, { waitUntil: 'networkidle2' });
		await (
			await waitForText(page, testId('resources-list-item'), 'Phonovation (local simulator)')
		).click();
		const passed = await page.waitForSelector(testId('credentials-config-container-test-success'), {
			visible: true,
		});
		expect(await shownText(passed!)).toContain('Connection tested successfully');
		await screenshot('03-credential-test-passed');
		const listed = await simCount('GET', '/api/v2/senderlist');
		const retested = page.waitForResponse((response) =>
			response.url().endsWith('/rest/credentials/test'),
		);
		await page.locator(`${testId('credentials-config-container-test-success')} button`).click();
		expect((await retested).ok()).toBe(true);
		await page.waitForSelector(testId('credentials-config-container-test-success'), {
			visible: true,
		});
		expect(await simCount('GET', '/api/v2/senderlist')).toBe(listed + 1);

		await page.goto(`${n8nUrl}/home/credentials/${wrong.id}`, { waitUntil: 'networkidle2' });
		const dialog = await waitForText(
			page,
			testId('credential-edit-dialog'),
			'connect with these settings',
		);
		await page.locator(`${testId('credential-edit-dialog')} ::-p-text(More details)`).click();
		await waitForText(
			page,
			testId('credential-edit-dialog'),
			'Phonovation refused the username or password',
		);
		expect(await shownText(dialog)).toMatch(
			/Couldn.t connect with these settings.*Phonovation refused the username or password/,
		);
		expect(await page.content()).not.toContain(WRONG_PASSWORD);
		expect(await pageText(page)).not.toContain(WRONG_PASSWORD);
		await screenshot('04-credential-wrong-password');
		// The account's one credential again, as a new node finds it.
		await client.deleteCredential(wrong.id);
	}, 120_000);

	it('fills the Sender dropdown from the account, each sender with its type', async () => {
		await openWorkflow(page, n8nUrl, await workflowId(CAMPAIGN.name));
		// The dropdown's options come from the account (the node's loadOptions) once the panel opens.
		const senderList = page.waitForResponse(
			(response) =>
				response.url().endsWith('/rest/dynamic-node-parameters/options') &&
				Boolean(response.request().postData()?.includes('getSenders')),
		);
		await openNode(page, CAMPAIGN.sendNode);
		expect((await senderList).ok()).toBe(true);
		expect(
			await dropdownOptions(page, () => page.locator(testId('parameter-input-from')).click()),
		).toEqual(SENDERS);
		await screenshot('05-sender-dropdown');
		await page.keyboard.press('Escape');
		await closeNode(page);
	}, 120_000);

	it('lists the senders on the first open of a new Phonovation node, even when the server answers slowly', async () => {
		// A loaded server: each list request answers after 1.5 s. Version 1's dropdown asked before
		// the credential was set and showed "Error fetching options" until the panel was reopened.
		await page.setRequestInterception(true);
		const slowLists = (request: HTTPRequest) => {
			if (request.isInterceptResolutionHandled()) return;
			if (request.url().includes('/rest/dynamic-node-parameters/'))
				setTimeout(() => void request.continue(), 1_500);
			else void request.continue();
		};
		page.on('request', slowLists);
		try {
			await page.goto(`${n8nUrl}/workflow/new`, { waitUntil: 'networkidle2' });
			await page.locator(testId('canvas-add-button')).click();
			await page.locator(testId('node-creator-search-bar')).fill('Phonovation');
			await (
				await waitForText(
					page,
					`${testId('node-creator')} ${testId('node-creator-item-name')}`,
					'Phonovation',
				)
			).click();
			// In an empty workflow n8n offers the triggers first; the actions are one click further.
			await page.locator(`${testId('node-creator')} ::-p-text(Actions (13))`).click();
			await page.locator(`${testId('node-creator')} ::-p-text(Send a campaign)`).click();
			const panel = await page.waitForSelector(testId('ndv'), { visible: true });
			// n8n chooses the account's one credential for the new node while the panel opens.
			await page.waitForFunction(
				(sel: string) =>
					Array.from(document.querySelectorAll<HTMLInputElement>(`${sel} input`)).some(
						(input) => input.value === 'Phonovation (local simulator)',
					),
				{ timeout: 60_000 },
				testId('ndv'),
			);
			// Version 2's Sender: a list that is filled when it is opened, not when the panel opens.
			const sender = `${testId('ndv')} ${testId('parameter-input-from')}`;
			expect(
				await dropdownOptions(page, () => page.locator(`${sender} ${testId('rlc-input')}`).click()),
			).toEqual(SENDERS);
			expect(await shownText(panel!)).not.toContain('Error fetching options');
			await screenshot('05b-new-node-sender-list');
			await page.keyboard.press('Escape');
		} finally {
			page.off('request', slowLists);
			await page.setRequestInterception(false);
			// The new workflow is left unsaved: the browser asks before the next test leaves it.
			page.once('dialog', (dialog) => void dialog.accept());
		}
	}, 120_000);

	it('runs the example campaign and shows every customer accepted in the Send node output', async () => {
		await openWorkflow(page, n8nUrl, await workflowId(CAMPAIGN.name));
		await page.locator(testId('execute-workflow-button')).click();
		const sendNode = `${testId('canvas-node')}[data-node-name="${CAMPAIGN.sendNode}"]`;
		await page.waitForSelector(`${sendNode} ${testId('canvas-node-status-success')}`, {
			timeout: 120_000,
		});
		await openNode(page, CAMPAIGN.sendNode);
		const output = await waitForText(page, testId('output-panel'), '4 items');
		const shown = await shownText(output);
		for (const number of CUSTOMER_NUMBERS) expect(shown).toContain(number);
		expect(shown.match(/status\s*:?\s*accepted/g)).toHaveLength(CUSTOMER_NUMBERS.length);
		await screenshot('06-campaign-output');
		await closeNode(page);
		const campaigns = (await (await fetch(`${demo.simUrl}/_sim/campaigns`)).json()) as unknown[];
		expect(campaigns).toHaveLength(1);
	}, 180_000);

	it("shows Verify Relay's hand-off notice, and the Relay URL's Production URL the demo relays to", async () => {
		await openWorkflow(page, n8nUrl, await workflowId(AUTO_RESPONDER.name));
		const verify = await openNode(page, AUTO_RESPONDER.verify);
		expect(await shownText(verify)).toContain('give its Production URL to Phonovation');
		await closeNode(page);
		await openNode(page, AUTO_RESPONDER.relayUrl);
		// n8n shows a Webhook node's URLs opened; another node's behind their headline.
		if ((await page.$(testId('radio-button-production'))) === null)
			await page.locator(`${testId('ndv')} .webhooks .headline`).click();
		await page.locator(testId('radio-button-production')).click();
		const url = await waitForText(page, `${testId('ndv')} .webhook-url`, '/webhook/');
		const printedRelayPath = new URL(demo.output().match(/relays replies to:\s+(\S+)/)![1])
			.pathname;
		expect(await shownText(url)).toBe(`${n8nUrl}${printedRelayPath}`);
		await screenshot('07-trigger-production-url');
	}, 120_000);

	it('says loudly which fields of an example as downloaded still hold a placeholder, and offers Send and Wait only the senders a reply can come back to', async () => {
		const credential = (await client.credentials()).find((c) => c.type === TYPES.credential)!;
		/** The example's file as a user imports it: its placeholders left in. */
		const asDownloaded = async (name: string) => {
			const workflow = readExample(name);
			const named = { ...workflow, name: `${workflow.name} (as downloaded)` };
			return String((await client.createWorkflow(withCredential(named, credential))).id);
		};
		await openWorkflow(page, n8nUrl, await asDownloaded('sms-assistant'));
		const burst = await openNode(page, 'Collect Burst');
		expect(await shownText(burst)).toContain(
			"Question Log: choose your inbox workflow from the list below. It still holds the example's placeholder YOUR_QUESTION_LOG, and nothing is sent until it is chosen.",
		);
		await screenshot('08-question-log-placeholder');
		await closeNode(page);

		await openWorkflow(page, n8nUrl, await asDownloaded('appointment-confirmation'));
		const ask = await openNode(page, 'Ask to Confirm');
		const shown = await shownText(ask);
		expect(shown).toContain('placeholder YOUR_QUESTION_LOG');
		expect(shown).toContain(
			"Sender: choose your own sender from the list below. It still holds the example's placeholder YOUR_SENDER_ID",
		);
		expect(
			await dropdownOptions(page, () =>
				page.locator(`${testId('ndv')} ${testId('parameter-input-from')}`).click(),
			),
		).toEqual(['353851234567 (numeric)']);
		await screenshot('09-send-and-wait-senders');
		await page.keyboard.press('Escape');
		await closeNode(page);
	}, 240_000);
});
