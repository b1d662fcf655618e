/** One JSON line: `name` plus the case's figures, under the field names tools read. */
export type BenchLine = { name: string } & Record<string, number | string>;

export interface CaseResult {
	line: BenchLine;
	/** One human sentence for the table. */
	summary: string;
	/** e.g. `ratio ≤ 1.0`; empty when the case failed. */
	target: string;
	/** undefined when there is nothing to judge (the case failed). */
	met?: boolean;
	/** Extra figures for the table only (the JSON line keeps the agreed fields). */
	notes?: string[];
}

export function failed(name: string, error: unknown): CaseResult {
	const message = error instanceof Error ? error.message : String(error);
	return { line: { name, error: message }, summary: `failed: ${message}`, target: '' };
}

export function jsonLine(result: CaseResult): string {
	return JSON.stringify(result.line);
}

function pad(text: string, width: number): string {
	return text.length >= width ? text : text + ' '.repeat(width - text.length);
}

/** A short plain-text table: case, target and verdict, what was measured, then any notes. */
export function table(results: CaseResult[]): string {
	const verdict = (r: CaseResult) => (r.met === undefined ? '-' : r.met ? 'met' : 'MISSED');
	const rows = results.map((r) => [r.line.name, r.target || '-', verdict(r), r.summary]);
	const header = ['case', 'target', 'verdict', 'result'];
	const widths = header
		.slice(0, 3)
		.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
	const format = (row: string[]) =>
		row
			.map((cell, i) => (i < 3 ? pad(cell, widths[i]) : cell))
			.join('  ')
			.trimEnd();
	const lines = [
		format(header),
		format(header.map((h, i) => '-'.repeat(i < 3 ? widths[i] : h.length))),
	];
	for (const [i, r] of results.entries()) {
		lines.push(format(rows[i]));
		for (const note of r.notes ?? []) lines.push(`${' '.repeat(widths[0] + 2)}· ${note}`);
	}
	return lines.join('\n');
}
