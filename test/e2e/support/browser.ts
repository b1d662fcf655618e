/// <reference lib="dom" />
/**
 * A real Chromium (Debian's `chromium`, installed when missing) driven by puppeteer-core, which
 * never downloads a browser of its own, plus what every editor scenario needs: signing in and
 * screenshots.
 */
import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import puppeteer, { type Browser, type Page } from 'puppeteer-core';

import { ensureDebianProgram } from './debian-package';
import { OWNER } from './n8n-client';

const CHROMIUM = { binary: 'chromium', debianPackage: 'chromium', neededFor: 'browser test' };

/** Readable screenshots of n8n's editor (its layout is made for a laptop screen). */
const VIEWPORT = { width: 1440, height: 900 };

export async function launchChromium(log?: (line: string) => void): Promise<Browser> {
	const executablePath = await ensureDebianProgram(CHROMIUM, log);
	return puppeteer.launch({
		executablePath,
		headless: true,
		// Root needs --no-sandbox; there is no GPU on these machines.
		args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
		defaultViewport: VIEWPORT,
	});
}

/** PHONOVATION_SCREENSHOTS_DIR when set (to refresh the README's pictures), else a temp folder. */
export async function screenshotFolder(): Promise<string> {
	const chosen = process.env.PHONOVATION_SCREENSHOTS_DIR;
	if (!chosen) return mkdtemp(path.join(tmpdir(), 'n8n-phonovation-screenshots-'));
	await mkdir(chosen, { recursive: true });
	return path.resolve(chosen);
}

/** Signs in on n8n's sign-in page as the demo's owner; resolves on the workflows overview. */
export async function signIn(page: Page, n8nUrl: string): Promise<void> {
	await page.goto(`${n8nUrl}/signin`, { waitUntil: 'networkidle2' });
	await page.locator('input[name="emailOrLdapLoginId"]').fill(OWNER.email);
	await page.locator('input[name="password"]').fill(OWNER.password);
	await page.keyboard.press('Enter');
	await page.waitForFunction(() => !location.pathname.startsWith('/signin'), { timeout: 60_000 });
}
