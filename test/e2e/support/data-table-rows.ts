// Every Data Table's rows by id, to tell that an upgrade or a re-import lost none.
import type { N8nClient } from './n8n-client';

/** Each Data Table's row ids, by table name. */
export async function rowIdsByTable(client: N8nClient): Promise<Record<string, unknown[]>> {
	const tables = await client.dataTables();
	return Object.fromEntries(
		await Promise.all(
			tables.map(
				async (table) =>
					[table.name, (await client.dataTableRows(table.id)).map((row) => row.id)] as const,
			),
		),
	);
}

/** The rows of `before` that are not in `after`, by table: `{}` when none was lost. */
export function rowsLost(
	before: Record<string, unknown[]>,
	after: Record<string, unknown[]>,
): Record<string, unknown[]> {
	const lost: Record<string, unknown[]> = {};
	for (const [table, ids] of Object.entries(before)) {
		const missing = ids.filter((id) => !(after[table] ?? []).includes(id));
		if (missing.length > 0) lost[table] = missing;
	}
	return lost;
}
