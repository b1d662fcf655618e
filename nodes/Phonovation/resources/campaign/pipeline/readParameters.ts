import type { IExecuteFunctions, INodeParameters } from 'n8n-workflow';

import type { RuleViolation } from '../../../domain/rules';

/** The campaign options as the user set them; unchecked. */
export interface CampaignOptions {
	batchSize?: unknown;
	campaignName?: unknown;
	defaultCountryCode?: unknown;
	dryRun?: unknown;
	excludeNumbers?: unknown;
	invalidNumbers?: unknown;
	notifyId?: unknown;
	timeout?: unknown;
}

/** One input item's campaign parameters as n8n resolved them, before any checking. */
export interface ItemParameters {
	itemIndex: number;
	from: unknown;
	text: unknown;
	recipients: unknown;
	/** Only for Schedule. */
	sendAt: unknown;
	options: CampaignOptions;
	/** Parameters whose expressions failed. */
	unreadable: RuleViolation[];
}

function hasExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (Array.isArray(value)) return value.some(hasExpression);
	if (value && typeof value === 'object') return Object.values(value).some(hasExpression);
	return false;
}

/**
 * Reads parameters per item. One without expressions is the same for every item, so it is read
 * once: at 100,000 items n8n's per-read work adds up.
 */
class ParameterReader {
	private readonly constant = new Map<string, unknown>();

	/** Raw parameters, taken once: getNode() deep-copies the node on every call. */
	private readonly raw: INodeParameters;

	constructor(private readonly ctx: IExecuteFunctions) {
		this.raw = ctx.getNode().parameters;
	}

	/** An expression that fails becomes a violation instead of a crash. */
	read(name: string, itemIndex: number, fallback: unknown, unreadable: RuleViolation[]): unknown {
		if (this.constant.has(name)) return this.constant.get(name);
		try {
			const value = this.ctx.getNodeParameter(name, itemIndex, fallback);
			if (!hasExpression(this.raw[name])) this.constant.set(name, value);
			return value;
		} catch (error) {
			unreadable.push({ field: name, message: `Could not read ${name}: ${(error as Error).message}` });
			return fallback;
		}
	}
}

/** Every input item's campaign parameters; the only code that reads n8n's node parameters. */
export function readParameters(ctx: IExecuteFunctions, itemCount: number, scheduled: boolean): ItemParameters[] {
	const reader = new ParameterReader(ctx);
	const items: ItemParameters[] = new Array(itemCount);
	for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) {
		const unreadable: RuleViolation[] = [];
		const read = (name: string, fallback: unknown) => reader.read(name, itemIndex, fallback, unreadable);
		items[itemIndex] = {
			itemIndex,
			from: read('from', ''),
			text: read('text', ''),
			recipients: read('recipients', ''),
			sendAt: scheduled ? read('sendAt', '') : undefined,
			options: (read('options', {}) ?? {}) as CampaignOptions,
			unreadable,
		};
	}
	return items;
}
