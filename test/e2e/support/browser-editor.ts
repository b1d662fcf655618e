/// <reference lib="dom" />
/**
 * What a person does in n8n 2.41's editor, as puppeteer steps: open a workflow or a node, search
 * the node panel, read what a panel shows. Selectors are n8n's own `data-test-id`s.
 */
import type { ElementHandle, Page } from 'puppeteer-core';

export const testId = (id: string) => `[data-test-id="${id}"]`;

const WAIT = { timeout: 60_000 };

/** Waits until an element matching the selector shows the text; returns that element. */
export async function waitForText(
	page: Page,
	selector: string,
	text: string,
): Promise<ElementHandle<HTMLElement>> {
	const handle = await page.waitForFunction(
		(sel: string, wanted: string) =>
			Array.from(document.querySelectorAll<HTMLElement>(sel)).find((el) =>
				el.innerText.includes(wanted),
			),
		WAIT,
		selector,
		text,
	);
	return handle as ElementHandle<HTMLElement>;
}

/** What the element shows, whitespace collapsed (input values are not part of it). */
export async function shownText(element: ElementHandle<Element>): Promise<string> {
	const text = await element.evaluate((el) => (el as HTMLElement).innerText);
	return text.replace(/\s+/g, ' ').trim();
}

/** Everything the page shows. */
export async function pageText(page: Page): Promise<string> {
	return shownText((await page.$('body'))!);
}

export async function openWorkflow(page: Page, n8nUrl: string, workflowId: string): Promise<void> {
	await page.goto(`${n8nUrl}/workflow/${workflowId}`, { waitUntil: 'networkidle2' });
	await page.waitForSelector(testId('canvas-node'), WAIT);
}

/** Double-clicks a canvas node, which opens its panel (NDV). */
export async function openNode(page: Page, nodeName: string): Promise<ElementHandle<Element>> {
	await page.locator(`${testId('canvas-node')}[data-node-name="${nodeName}"]`).click({ count: 2 });
	return (await page.waitForSelector(testId('ndv'), { ...WAIT, visible: true }))!;
}

export async function closeNode(page: Page): Promise<void> {
	await page.locator(testId('ndv-close-button')).click();
	await page.waitForSelector(testId('ndv'), { ...WAIT, hidden: true });
}

/**
 * Opens a dropdown with `open` and gives the labels of its options (n8n keeps closed dropdowns'
 * options in the page, hidden). On a loaded machine a click can land before the field is ready
 * and open nothing: then it is clicked once more.
 */
export async function dropdownOptions(page: Page, open: () => Promise<void>): Promise<string[]> {
	// A list field's options, or a resource locator's items.
	const option = `[role="option"], ${testId('rlc-item')}`;
	const shown = (timeout: number) =>
		page.waitForFunction(
			(sel: string) =>
				Array.from(document.querySelectorAll<HTMLElement>(sel)).some(
					(o) => o.offsetParent !== null,
				),
			{ timeout },
			option,
		);
	await open();
	await shown(20_000).catch(async () => {
		await open();
		await shown(WAIT.timeout);
	});
	return page.$$eval(option, (options) =>
		options
			.filter((o) => (o as HTMLElement).offsetParent !== null)
			.map((o) => (o as HTMLElement).innerText.trim()),
	);
}

/** Every node icon image in the node panel: its address and whether the browser could draw it. */
export async function nodePanelIcons(page: Page): Promise<Array<{ src: string; loaded: boolean }>> {
	return page.$$eval(`${testId('node-creator')} img`, (images) =>
		images.map((img) => ({
			src: img.getAttribute('src') ?? '',
			loaded: img.complete && img.naturalWidth > 0,
		})),
	);
}

/** Where the open panel's Docs link leads, as written in the page. */
export async function panelDocsLink(page: Page): Promise<string> {
	const link = await waitForText(page, `${testId('ndv')} a[href]`, 'Docs');
	return (await link.evaluate((a) => a.getAttribute('href')))!;
}
