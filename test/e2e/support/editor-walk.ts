/// <reference lib="dom" />
/**
 * docs/conversations.md's "On your own n8n, step by step" done in n8n 2.41's editor as a new user
 * does it, every editor action counted: each click on a choice, field, menu or button, each text
 * typed into a field (one action per field), each file chosen and each publish. What the test
 * does that a user on a real account would not (the simulator's URLs in the credential) is done
 * but not counted; what the walk learns on the way (frictions, what n8n does by itself) is noted.
 */
import path from 'node:path';

import type { ElementHandle, Page } from 'puppeteer-core';

import { shownText, testId, waitForText } from './browser-editor';

/**
 * The editor actions from a fresh n8n (package installed) to the first question answered, per
 * step of the docs: what the docs can quote. The test fails when the walk takes another number.
 */
export const EDITOR_ACTIONS_BY_STEP = {
	'2. The package and one credential': 10,
	'3. Import the inbox and publish it': 9,
	'4. Hand over its URL': 10,
	'5. Ask': 15,
} as const;

export type WalkStep = keyof typeof EDITOR_ACTIONS_BY_STEP;

/** Their sum: a user's editor actions from the credential to the first answered question. */
export const EDITOR_ACTIONS_TO_FIRST_ANSWER = 44;

export interface EditorAction {
	step: WalkStep;
	label: string;
}

const WAIT = { timeout: 60_000 };

/** A CSS selector for `selector`'s elements that show `text` (puppeteer's text selector). */
export const withText = (selector: string, text: string) =>
	`${selector} ::-p-text(${JSON.stringify(text)})`;

/**
 * A page in n8n's editor whose actions are counted: each method is one user action and records
 * it with its label under the current step.
 */
export class EditorWalk {
	readonly actions: EditorAction[] = [];

	/** What the walk learned: frictions, and what n8n did (or did not do) by itself. */
	readonly notes: string[] = [];

	/** What the test did that a user does not (simulator settings), never counted. */
	readonly uncounted: string[] = [];

	/** What the test tried aside, to find out what n8n does (never counted). */
	readonly tried: string[] = [];

	private step: WalkStep = '2. The package and one credential';

	private aside: string | undefined;

	constructor(
		readonly page: Page,
		private readonly screenshots?: string,
	) {}

	inStep(step: WalkStep): void {
		this.step = step;
	}

	note(text: string): void {
		this.notes.push(
			this.aside === undefined ? `[${this.step}] ${text}` : `(${this.aside}) ${text}`,
		);
	}

	private count(label: string): void {
		if (this.aside === undefined) this.actions.push({ step: this.step, label });
		else this.tried.push(`(${this.aside}) ${label}`);
	}

	/** Runs `work` without counting its actions: a look aside at what n8n does, not the user's path. */
	async tryAside<T>(what: string, work: () => Promise<T>): Promise<T> {
		this.aside = what;
		try {
			return await work();
		} finally {
			this.aside = undefined;
		}
	}

	/** One click on a button, menu entry, choice or field. */
	async click(label: string, selector: string): Promise<void> {
		await this.page.locator(selector).setTimeout(WAIT.timeout).click();
		this.count(label);
	}

	/** A double click that opens a canvas node's panel: one action. */
	async openNode(label: string, nodeName: string): Promise<ElementHandle<Element>> {
		await this.page
			.locator(`${testId('canvas-node')}[data-node-name="${nodeName}"]`)
			.setTimeout(WAIT.timeout)
			.click({ count: 2 });
		this.count(label);
		return (await this.page.waitForSelector(testId('ndv'), { ...WAIT, visible: true }))!;
	}

	async closeNode(label = 'close the node panel'): Promise<void> {
		await this.click(label, testId('ndv-close-button'));
		await this.page.waitForSelector(testId('ndv'), { ...WAIT, hidden: true });
	}

	/** Text typed into one field (its click to focus is part of the typing). */
	async type(label: string, selector: string, text: string): Promise<void> {
		await this.fill(selector, text);
		this.count(label);
	}

	/** The same as type, done because the simulator needs it; not counted. */
	async typeUncounted(label: string, selector: string, text: string): Promise<void> {
		await this.fill(selector, text);
		this.uncounted.push(`[${this.step}] ${label}`);
	}

	private async fill(selector: string, text: string): Promise<void> {
		const field = this.page.locator(selector).setTimeout(WAIT.timeout);
		await field.click({ count: 3 });
		await field.fill(text);
		// n8n takes a field's value a moment after the last key (a user's next move comes later).
		await new Promise((resolve) => setTimeout(resolve, 500));
	}

	/** A click that opens the browser's file chooser, then the file chosen in it: two actions. */
	async chooseFile(label: string, opener: string, file: string): Promise<void> {
		const [chooser] = await Promise.all([
			this.page.waitForFileChooser(WAIT),
			this.click(label, opener),
		]);
		await chooser.accept([file]);
		this.count(
			`choose ${path.basename(path.dirname(file))}/${path.basename(file)} in the file chooser`,
		);
	}

	/** The option showing `text` in the open dropdown: one action. */
	async choose(label: string, text: string): Promise<void> {
		for (let tries = 0; ; tries += 1) {
			const option = await settledOption(this.page, text);
			// A click on that very option, if it still is the one: n8n's lists re-render while they load.
			const clicked = await option.evaluate((el, wanted) => {
				if (!el.isConnected || !el.innerText.trim().startsWith(wanted)) return false;
				el.click();
				return true;
			}, text);
			if (clicked) break;
			if (tries > 10) throw new Error(`The option "${text}" kept changing under the pointer`);
		}
		this.count(label);
		// The list closes with an animation that still takes clicks meant for what is beneath it.
		await this.page
			.waitForFunction(
				(selector: string) =>
					!Array.from(document.querySelectorAll<HTMLElement>(selector)).some(
						(el) => el.offsetParent !== null,
					),
				{ timeout: 5_000 },
				OPTIONS,
			)
			.catch(() => undefined);
		await new Promise((resolve) => setTimeout(resolve, 300));
	}

	async screenshot(name: string): Promise<void> {
		if (this.screenshots)
			await this.page.screenshot({ path: path.join(this.screenshots, `${name}.png`) });
	}

	/** The counted actions per step. */
	byStep(): Record<WalkStep, number> {
		const counts = Object.fromEntries(
			Object.keys(EDITOR_ACTIONS_BY_STEP).map((step) => [step, 0]),
		) as Record<WalkStep, number>;
		for (const action of this.actions) counts[action.step] += 1;
		return counts;
	}

	/** The list of actions, numbered, the total per step and in all, and the notes. */
	report(): string {
		const lines = this.actions.map(
			(action, index) => `${String(index + 1).padStart(3)}. ${action.label}`,
		);
		const steps = Object.entries(this.byStep()).map(([step, count]) => `  ${step}: ${count}`);
		return [
			`Editor actions to the first answered question: ${this.actions.length}`,
			...steps,
			...lines,
			'Done but not counted (simulator only):',
			...this.uncounted.map((line) => `  ${line}`),
			'Tried aside, not counted:',
			...this.tried.map((line) => `  ${line}`),
			'Noted on the way:',
			...this.notes.map((line) => `  ${line}`),
		].join('\n');
	}
}

/** The text of the tooltip shown now that matches `pattern` ('' when none shows within 5 s). */
async function tooltipSaying(page: Page, pattern: RegExp): Promise<string> {
	const found = await page
		.waitForFunction(
			(source: string) =>
				Array.from(
					document.querySelectorAll<HTMLElement>('.n8n-tooltip, .el-popper, [role="tooltip"]'),
				)
					.filter(
						(el) => el.getBoundingClientRect().width > 0 && new RegExp(source).test(el.innerText),
					)
					.pop(),
			{ timeout: 5_000 },
			pattern.source,
		)
		.catch(() => undefined);
	return found ? await shownText(found as ElementHandle<Element>) : '';
}

/** The issues n8n lists in the tooltip of a canvas node's issue marker (undefined: no marker). */
export async function nodeIssues(page: Page, nodeName: string): Promise<string | undefined> {
	const node = await page.$(`${testId('canvas-node')}[data-node-name="${nodeName}"]`);
	const marker = await node?.$(testId('node-issues'));
	if (!marker) return undefined;
	await marker.hover();
	const text = await tooltipSaying(page, /Issues/);
	await page.mouse.move(0, 0);
	return text;
}

/** The canvas nodes (names) that show n8n's issue marker. */
export async function nodesWithIssues(page: Page): Promise<string[]> {
	return await page.$$eval(testId('canvas-node'), (nodes) =>
		nodes
			.filter((node) => node.querySelector('[data-test-id="node-issues"]'))
			.map((node) => node.getAttribute('data-node-name') ?? ''),
	);
}

/** Waits for a toast that shows `text`; resolves to its text, or undefined after `timeoutMs`. */
export async function toastSaying(
	page: Page,
	text: RegExp,
	timeoutMs = 10_000,
): Promise<string | undefined> {
	const found = await page
		.waitForFunction(
			(source: string) =>
				Array.from(document.querySelectorAll<HTMLElement>('.el-notification')).find((el) =>
					new RegExp(source).test(el.innerText),
				),
			{ timeout: timeoutMs },
			text.source,
		)
		.catch(() => undefined);
	return found ? await shownText(found as ElementHandle<Element>) : undefined;
}

// ---------------------------------------------------------------------------------------------
// The docs' steps, each as the user does it in the editor.

const STEP = {
	credential: '2. The package and one credential',
	inbox: '3. Import the inbox and publish it',
	handOver: '4. Hand over its URL',
	ask: '5. Ask',
} as const satisfies Record<string, WalkStep>;

/** A field of the open credential dialog or node panel, by its parameter name. */
export const field = (name: string, within = '') =>
	`${within} ${testId(`parameter-input-${name}`)} :is(input, textarea)`.trim();

export interface CredentialEntry {
	username: string;
	password: string;
	urlToken: string;
	/** The simulator's URL, typed into Auth URL and Base URL (a real account keeps their defaults). */
	simulatorUrl: string;
}

/** The credential dialog (its header holds Save and the close button). */
const DIALOG = testId('editCredential-modal');

/**
 * Step 2 from anywhere in the editor (the sidebar's + menu): New credential, Phonovation API, the
 * account's login and a URL Token, Save (n8n tests it then), and the dialog closed.
 */
export async function createCredential(walk: EditorWalk, entry: CredentialEntry): Promise<void> {
	walk.inStep(STEP.credential);
	await walk.click('click + in the sidebar', testId('universal-add'));
	await walk.choose('choose "New credential"', 'New credential');
	await settledList(walk.page, `${testId('new-credential-type-select-option')}`);
	await walk.type(
		'type "Phonovation" into the app search',
		`${testId('new-credential-type-select')} input`,
		'Phonovation',
	);
	await walk.choose('choose "Phonovation API"', 'Phonovation API');
	await walk.click('click Continue', testId('new-credential-type-button'));
	await walk.page.waitForSelector(DIALOG, { ...WAIT, visible: true });
	await walk.type('type the Username', field('username', DIALOG), entry.username);
	await walk.type('type the Password', field('password', DIALOG), entry.password);
	await walk.type('type a URL Token', field('urlToken', DIALOG), entry.urlToken);
	await walk.typeUncounted(
		'type the simulator into Auth URL',
		field('authUrl', DIALOG),
		entry.simulatorUrl,
	);
	await walk.typeUncounted(
		'type the simulator into Base URL',
		field('baseUrl', DIALOG),
		entry.simulatorUrl,
	);
	await walk.click('click Save', testId('credential-save-button'));
	await waitForText(walk.page, DIALOG, 'Connection tested successfully');
	await walk.screenshot('walk-02-credential');
	await closeDialog(walk, 'close the credential dialog');
}

async function closeDialog(walk: EditorWalk, label: string): Promise<void> {
	await walk.click(label, `${DIALOG} .el-dialog__headerbtn`);
	await walk.page.waitForSelector(DIALOG, { ...WAIT, hidden: true });
}

/** A new workflow from anywhere in the editor: the sidebar's + menu, New workflow. */
async function createWorkflow(walk: EditorWalk): Promise<void> {
	await walk.click('click + in the sidebar', testId('universal-add'));
	await walk.choose('choose "New workflow"', 'New workflow');
	await walk.page.waitForSelector(testId('canvas'), { ...WAIT, visible: true });
}

/** Step 3's first half: a new workflow, ⋯ → Import ▸ From File, the inbox of the installed package. */
export async function importInbox(walk: EditorWalk, inboxFile: string): Promise<void> {
	walk.inStep(STEP.inbox);
	await createWorkflow(walk);
	await walk.click('open the workflow menu (⋯)', testId('workflow-menu'));
	await walk.click('point at "Import"', testId('workflow-menu-item-import'));
	await walk.chooseFile(
		'click "From file"',
		testId('workflow-menu-item-import-from-file'),
		inboxFile,
	);
	await walk.page.waitForSelector(`${testId('canvas-node')}[data-node-name="Relay URL"]`, WAIT);
	const said = await toastSaying(walk.page, /credential/i, 5_000);
	walk.note(said ? `on import n8n said: ${said}` : 'on import n8n said nothing about credentials');
	await walk.screenshot('walk-03-imported');
}

const CREDENTIAL_SELECT = `${testId('ndv')} ${testId('node-credentials-select')}`;

/** What the open panel's credential field shows ('' when none is chosen, undefined when it has none). */
export async function credentialShown(page: Page): Promise<string | undefined> {
	const select = await page.$(CREDENTIAL_SELECT);
	if (!select) return undefined;
	return await select.evaluate((el) => {
		const input = el.querySelector('input');
		const shown = el.querySelector<HTMLElement>(
			'.el-select__selected-item:not(.is-transparent), .el-select__placeholder:not(.is-transparent)',
		);
		return (input?.value || shown?.innerText || '').trim();
	});
}

/**
 * Step 3's second half as the docs say it: "Choose the credential in the nodes that ask for it".
 * Each node the canvas marks with issues is opened, its credential chosen, and closed, until no
 * node is marked; what n8n does by itself on the way (a credential already chosen when a panel
 * opens, the credential added to other nodes) is noted.
 */
export async function chooseCredentialEverywhere(
	walk: EditorWalk,
	credential: string,
): Promise<void> {
	const { page } = walk;
	for (let opened = 0; ; opened += 1) {
		const marked = await nodesWithIssues(page);
		if (marked.length === 0) return;
		if (opened > 20) throw new Error(`Still marked with issues: ${marked.join(', ')}`);
		const name = marked[0];
		const issues = await nodeIssues(page, name);
		await walk.openNode(`open "${name}"`, name);
		const before = await credentialShown(page);
		if (before === undefined) {
			const text = await shownText((await page.$(testId('ndv')))!);
			throw new Error(
				`"${name}" is marked (${issues}) but has no credential field: ${text.slice(0, 400)}`,
			);
		}
		walk.note(
			`"${name}" marked: ${issues}; its panel opened with the credential field showing "${before}"`,
		);
		await walk.click(`click "${name}"'s Credential field`, `${CREDENTIAL_SELECT} input`);
		await walk.choose(`choose "${credential}"`, credential);
		const added = await toastSaying(page, /Added this credential/, 5_000);
		walk.note(added ? `n8n said: ${added}` : 'n8n showed no message about other nodes');
		await walk.closeNode();
	}
}

/** Publish ▸ Publish (the dialog's button); resolves once the editor says Published. */
export async function publish(walk: EditorWalk): Promise<void> {
	await walk.click('click "Publish"', testId('workflow-open-publish-modal-button'));
	const dialog = await walk.page.waitForSelector(
		`${testId('workflow-publish-button')}, ${testId('workflow-publish-choice-dialog')}`,
		{ ...WAIT, visible: true },
	);
	if (
		await dialog!.evaluate(
			(el) => el.getAttribute('data-test-id') === 'workflow-publish-choice-dialog',
		)
	) {
		walk.note('n8n asked whether to submit for review or publish');
		await walk.click('choose "Publish"', testId('workflow-publish-choice-button'));
	}
	await walk.click(
		'click "Publish" in the Publish workflow dialog',
		testId('workflow-publish-button'),
	);
	await waitForText(walk.page, testId('workflow-open-publish-modal-button'), 'Published');
	// n8n's first publish on an instance explains production executions in a dialog of its own.
	const explained = await walk.page
		.waitForSelector(testId('activation-modal'), { timeout: 5_000, visible: true })
		.catch(() => null);
	if (explained) {
		walk.note(
			`after publishing, n8n showed a dialog: "${(await shownText(explained)).slice(0, 160)}"`,
		);
		await walk.click('click "Got it"', withText(testId('activation-modal'), 'Got it'));
		await walk.page.waitForSelector(testId('activation-modal'), { ...WAIT, hidden: true });
	}
}

/** Step 4 in the editor: the Relay URL node's Production URL, copied. Resolves to that URL. */
export async function copyProductionUrl(walk: EditorWalk, nodeName: string): Promise<string> {
	walk.inStep(STEP.handOver);
	const { page } = walk;
	await walk.openNode(`open "${nodeName}"`, nodeName);
	const urls = `${testId('ndv')} .webhooks`;
	if (!(await page.$(`${urls} .webhook-url`)))
		await walk.click('click "Webhook URLs"', `${urls} .headline`);
	await walk.click('click "Production URL"', `${urls} ${testId('radio-button-production')}`);
	const shown = await waitForText(page, `${urls} .webhook-url`, '/webhook/');
	const url = await shownText(shown);
	await walk.click('click the Production URL (n8n copies it)', `${urls} .webhook-url`);
	await walk.screenshot('walk-04-production-url');
	await walk.closeNode();
	return url;
}

/** Step 4's last part: the verification key Phonovation sends back, into the credential's Relay Secret. */
export async function addRelaySecret(
	walk: EditorWalk,
	credential: string,
	relaySecret: string,
): Promise<void> {
	walk.inStep(STEP.handOver);
	await walk.click('click "Overview" in the sidebar', OVERVIEW_LINK);
	await walk.click('click the "Credentials" tab', testId('tab-CredentialsView'));
	await walk.click(`open "${credential}"`, withText(testId('resources-list-item'), credential));
	await walk.page.waitForSelector(DIALOG, { ...WAIT, visible: true });
	await walk.type('type the Relay Secret', field('relaySecret', DIALOG), relaySecret);
	await walk.click('click Save', testId('credential-save-button'));
	await waitForText(walk.page, DIALOG, 'Connection tested successfully');
	await closeDialog(walk, 'close the credential dialog');
}

const OVERVIEW_LINK = testId('project-home-menu-item');

export interface Question {
	/** The inbox as the Question Log list shows it. */
	inbox: string;
	/** The Sender as its list shows it. */
	sender: string;
	to: string;
	message: string;
}

/** Step 5: a new workflow, Phonovation → Send and Wait for Reply, its fields, then Execute workflow. */
export async function askQuestion(walk: EditorWalk, question: Question): Promise<void> {
	walk.inStep(STEP.ask);
	await createWorkflow(walk);
	await addSendAndWait(walk);
	const ndv = testId('ndv');
	await walk.click(
		'click the Question Log field',
		`${ndv} ${testId('parameter-input-questionLog')} ${testId('rlc-input')}`,
	);
	await walk.choose(`choose "${question.inbox}"`, question.inbox);
	await walk.click(
		'click the Sender field',
		`${ndv} ${testId('parameter-input-from')} ${testId('rlc-input')}`,
	);
	await walk.choose(`choose "${question.sender}"`, question.sender);
	await walk.type('type the number in To', field('recipients', ndv), question.to);
	await walk.type('type the Message', field('message', ndv), question.message);
	await walk.screenshot('walk-05-send-and-wait');
	await walk.closeNode();
	await walk.click('click "Execute workflow"', testId('execute-workflow-button'));
}

/** How the node panel lists Send and Wait for Reply among Phonovation's actions. */
const SEND_AND_WAIT_ACTION = 'Send a text and wait for the reply';

/** The node panel's way to a new Send and Wait for Reply: search, the node, its action. */
async function addSendAndWait(walk: EditorWalk): Promise<void> {
	const creator = testId('node-creator');
	await walk.click(
		'click "Add first step" (+)',
		`:is(${testId('canvas-add-first-step-button')}, ${testId('canvas-add-button')}, ${testId('canvas-plus-button')})`,
	);
	await walk.type(
		'type "Phonovation" into the search',
		testId('node-creator-search-bar'),
		'Phonovation',
	);
	await walk.click(
		'click "Phonovation"',
		withText(`${creator} ${testId('node-creator-item-name')}`, 'Phonovation'),
	);
	const actions = await walk.page.$(withText(creator, SEND_AND_WAIT_ACTION));
	if (!actions || !(await actions.isVisible()))
		await walk.click('open its "Actions"', withText(creator, 'Actions ('));
	await walk.click(`click "${SEND_AND_WAIT_ACTION}"`, withText(creator, SEND_AND_WAIT_ACTION));
	await walk.page.waitForSelector(testId('ndv'), { ...WAIT, visible: true });
	const credential = await credentialShown(walk.page);
	walk.note(`the new node's panel opened with the credential field showing "${credential}"`);
}

/** Whether the Publish button can be clicked now, and what its tooltip says (a look, no action). */
export async function publishState(page: Page): Promise<{ enabled: boolean; tooltip: string }> {
	const button = await page.waitForSelector(testId('workflow-open-publish-modal-button'), WAIT);
	const enabled = await button!.evaluate(
		(el) => !(el as HTMLButtonElement).disabled && el.getAttribute('aria-disabled') !== 'true',
	);
	await button!.hover();
	const tooltip = await tooltipSaying(page, /\S/);
	await page.mouse.move(0, 0);
	return { enabled, tooltip };
}

/** The options of an open list, menu or resource locator. */
const OPTIONS =
	'[role="option"], [data-test-id="rlc-item"], .el-select-dropdown__item, [role="menuitem"]';

/**
 * The shown option whose text starts with `text`, once it stays in one place: n8n's lists
 * re-render while they load and filter.
 */
async function settledOption(page: Page, text: string): Promise<ElementHandle<HTMLElement>> {
	const find = async () =>
		(await page.waitForFunction(
			(selector: string, wanted: string) =>
				Array.from(document.querySelectorAll<HTMLElement>(selector)).find(
					(el) => el.offsetParent !== null && el.innerText.trim().startsWith(wanted),
				),
			WAIT,
			OPTIONS,
			text,
		)) as ElementHandle<HTMLElement>;
	let option = await find();
	for (let tries = 0; tries < 20; tries += 1) {
		const before = JSON.stringify(await option.boundingBox());
		await new Promise((resolve) => setTimeout(resolve, 150));
		const again = await find();
		if (JSON.stringify(await again.boundingBox()) === before) return again;
		option = again;
	}
	return option;
}

/** The id of the workflow the editor shows (in its address once n8n saved it). */
export function shownWorkflowId(page: Page): string | undefined {
	const id = new URL(page.url()).pathname.match(/^\/workflow\/([^/]+)/)?.[1];
	return id === 'new' ? undefined : id;
}

/**
 * Aside, before the credential exists: the inbox imported as step 3 says, to see what n8n marks
 * and whether it lets the workflow be published. Resolves to that workflow's id.
 */
export async function importBeforeCredential(walk: EditorWalk, inboxFile: string): Promise<string> {
	return await walk.tryAside('the inbox imported before any credential exists', async () => {
		await importInbox(walk, inboxFile);
		const marked = await nodesWithIssues(walk.page);
		const issues = marked.length ? await nodeIssues(walk.page, marked[0]) : undefined;
		walk.note(
			`${marked.length} nodes marked with issues (${marked.join(', ')}); "${marked[0]}": ${issues}`,
		);
		const { enabled, tooltip } = await publishState(walk.page);
		walk.note(`Publish is ${enabled ? 'clickable' : 'greyed out'}; its tooltip: "${tooltip}"`);
		const id = shownWorkflowId(walk.page);
		if (!id) throw new Error(`The imported workflow was not saved: ${walk.page.url()}`);
		return id;
	});
}

/**
 * Aside, once the credential exists: that early import opened again, one marked node's panel
 * opened and closed, then the credential chosen in another: what n8n fills in by itself.
 */
export async function reopenEarlyImport(walk: EditorWalk, url: string, credential: string) {
	await walk.tryAside('the early import opened once the credential exists', async () => {
		await walk.page.goto(url, { waitUntil: 'networkidle2' });
		await walk.page.waitForSelector(testId('canvas-node'), WAIT);
		const [first, second] = await nodesWithIssues(walk.page);
		await walk.openNode(`open "${first}"`, first);
		walk.note(
			`"${first}"'s panel opened with the credential field showing "${await credentialShown(walk.page)}"`,
		);
		await walk.closeNode();
		const left = await nodesWithIssues(walk.page);
		walk.note(`after opening it, ${left.length} nodes still marked (${left.join(', ')})`);
		if (!second) return;
		await walk.openNode(`open "${second}"`, second);
		await walk.click('click its Credential field', `${CREDENTIAL_SELECT} input`);
		await walk.choose(`choose "${credential}"`, credential);
		const added = await toastSaying(walk.page, /Added this credential/, 5_000);
		walk.note(added ? `choosing it, n8n said: ${added}` : 'choosing it, n8n showed no message');
		await walk.closeNode();
		walk.note(`then ${(await nodesWithIssues(walk.page)).length} nodes still marked`);
	});
}

/** Resolves once the list of `selector` elements has stopped growing (n8n fills some lists late). */
async function settledList(page: Page, selector: string): Promise<void> {
	let before = -1;
	for (let tries = 0; tries < 40; tries += 1) {
		const now = (await page.$$(selector)).length;
		if (now > 0 && now === before) return;
		before = now;
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}
