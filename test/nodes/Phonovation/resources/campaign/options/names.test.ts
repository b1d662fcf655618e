import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

import {
	OPTION_NAMES,
	SEND_TIME,
} from '../../../../../../nodes/Phonovation/resources/campaign/options';
import { quietHours } from '../../../../../../nodes/Phonovation/resources/campaign/options/quietHours';

const ROOT = join(__dirname, '../../../../../..');
const OPTIONS = 'nodes/Phonovation/resources/campaign/options';
/** Where the campaign's options are used: the campaign resource and the rules it shares. */
const SCOPE = ['nodes/Phonovation/resources/campaign', 'nodes/Phonovation/domain'];
/**
 * The provider's own word for each recipient's reference: in every request body, receipt and
 * linked reply, whichever option or field set it.
 */
const PROVIDER_WORDS = new Set(['notifyId']);

function sources(folder: string): string[] {
	return readdirSync(folder).flatMap((name) => {
		const path = join(folder, name);
		if (statSync(path).isDirectory()) return sources(path);
		return path.endsWith('.ts') ? [path] : [];
	});
}

/**
 * The code without what may speak of an option in words: comments, prose in strings (messages
 * such as "a timeout"), the paths of imported modules. Lines keep their numbers.
 */
const code = (path: string) =>
	readFileSync(path, 'utf8')
		.replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, ' '))
		.replace(/(^|[^:'"`])\/\/.*$/gm, '$1')
		.replace(/`[^`]* [^`]*`/g, '``')
		.replace(/(['"])[^'"\n]* [^'"\n]*\1/g, "''")
		.replace(/from '[^']*'/g, "from ''");

/** Where `name` is used other than as a key (an output's or the pipeline's own field: `dryRun: …`). */
function uses(name: string, source: string): number[] {
	const lines: number[] = [];
	source.split('\n').forEach((line, i) => {
		for (const match of line.matchAll(new RegExp(`\\b${name}\\b(?!\\s*\\??:)`, 'g')))
			if (match.index !== undefined) lines.push(i + 1);
	});
	return lines;
}

describe('an option lives in its own file and the index', () => {
	const files = SCOPE.flatMap((folder) => sources(join(ROOT, folder)))
		.map((path) => relative(ROOT, path))
		.filter((path) => !path.startsWith(`${OPTIONS}/`));

	it('reads every file of the campaign resource and its rules', () => {
		expect(files).toEqual(
			expect.arrayContaining([
				'nodes/Phonovation/resources/campaign/pipeline/plan.ts',
				'nodes/Phonovation/resources/campaign/pipeline/post.ts',
				'nodes/Phonovation/resources/campaign/pipeline/report.ts',
				'nodes/Phonovation/domain/compliance.ts',
				'nodes/Phonovation/domain/quietHours.ts',
			]),
		);
	});

	it.each(OPTION_NAMES.filter((name) => !PROVIDER_WORDS.has(name)))(
		'%s is named only in options/ (elsewhere the pipeline reads what it gives, by its own names)',
		(name) => {
			const found = files.flatMap((path) =>
				uses(name, code(join(ROOT, path))).map((line) => `${path}:${line}`),
			);
			expect(found).toEqual([]);
		},
	);

	it('each option file names no other option', () => {
		for (const name of OPTION_NAMES) {
			const own = code(join(ROOT, OPTIONS, `${name}.ts`));
			const others = OPTION_NAMES.filter((other) => other !== name && uses(other, own).length > 0);
			expect({ name, others }).toEqual({ name, others: [] });
		}
	});

	it('Quiet Hours behave from their option file: the pipeline calls the send-time rule at each phase and names nothing of theirs', () => {
		const pipeline = files.filter((path) => path.includes('/campaign/pipeline/'));
		const named = pipeline.flatMap((path) =>
			code(join(ROOT, path))
				.split('\n')
				.flatMap((line, i) => (/quiet/i.test(line) ? [`${path}:${i + 1}`] : [])),
		);
		expect(named).toEqual([]);
		const calls = (file: string) =>
			[
				...code(join(ROOT, 'nodes/Phonovation/resources/campaign/pipeline', file)).matchAll(
					/SEND_TIME\.(\w+)\(/g,
				),
			].map((match) => match[1]);
		expect({
			plan: new Set(calls('plan.ts')),
			post: calls('post.ts'),
			report: calls('report.ts'),
		}).toEqual({
			plan: new Set(['judgedBy', 'ofRow', 'ofCampaign']),
			post: ['whenPosted'],
			report: ['reported', 'movedWarning'],
		});
		expect(SEND_TIME).toBe(quietHours.sendTime);
	});

	it('a use outside the option is found (the check can fail)', () => {
		expect(uses('maxParts', "violations.push({ field: 'maxParts', message })")).toEqual([1]);
		expect(uses('dryRun', 'json = { success, dryRun: rehearsal };')).toEqual([]);
		expect(uses('dryRun', 'if (settings.options.dryRun) post();')).toEqual([1]);
		const spoken = code(join(ROOT, 'nodes/Phonovation/resources/campaign/pipeline/report.ts'));
		expect(spoken).not.toContain('a timeout, a dropped connection');
	});
});
