// Each item's campaign parameters as n8n gives them; one the same for every item is read once.
import type { IExecuteFunctions, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import type { RuleViolation } from '../../../domain/rules';
import { hasExpression } from '../../../../shared/values';
import { type CampaignOptions, ITEM_LIST_OPTIONS, OPTION_NAMES } from '../options';
import type { TextRequest } from './textRequest';
import { storedSender } from '../../sender/senderField';
import { plainFieldPath, readField } from './plainField';

/**
 * Which node fields hold a campaign's sender, text and numbers: Send's and Schedule's, or Send and
 * Wait's own.
 */
export interface CampaignFields {
	from: string;
	text: string;
	recipients: string;
}

/** Send's and Schedule's fields (fields.ts). */
export const CAMPAIGN_FIELDS: CampaignFields = {
	from: 'from',
	text: 'text',
	recipients: 'recipients',
};

/**
 * An expression is taken as the same for every item only when it reads no n8n variable at all, or
 * reads another node's whole output (`$('Opted-Out').all()`, `.first()`, `.last()`) and nothing
 * that can differ per item: $json, $node[…], .item, $thisItem, paired items, $itemIndex, $binary…
 */
const WHOLE_OUTPUT = /\$\(\s*(['"])[^'"]+\1\s*\)\s*\.\s*(?:all|first|last)\s*\(/;
const ITEM_DEPENDENT =
	/\$json|\$data\b|\$binary|\$item|\$position|\$node\b|\$thisItem|\$input|\.item\b|pairedItem|itemMatching|\$parameter|\$\(\s*['"][^'"]+['"]\s*\)\s*\.\s*(?!all|first|last)/;

export const sameForEveryItem = (raw: unknown) =>
	typeof raw === 'string' &&
	(!raw.includes('$') || (WHOLE_OUTPUT.test(raw) && !ITEM_DEPENDENT.test(raw)));

/**
 * Reads parameters per item. One without expressions is the same for every item, so it is read
 * once: at 100,000 items n8n's per-read work adds up.
 */
class ParameterReader {
	private readonly constant = new Map<string, unknown>();

	/** Raw parameters, taken once: getNode() deep-copies the node on every call. */
	private readonly raw: INodeParameters;

	/** Paths of parameters that are one plain `$json` field, by parameter name. */
	private readonly plainFields = new Map<string, string[] | null>();

	/** Parameters where `{{ $json.field }}` is read straight from the item (see plainField.ts). */
	private readonly fastPath: Set<string>;

	constructor(
		private readonly ctx: IExecuteFunctions,
		private readonly items: INodeExecutionData[],
		fields: CampaignFields,
	) {
		this.raw = ctx.getNode().parameters;
		this.fastPath = new Set([fields.recipients, fields.text, 'options.notifyId']);
		this.sender = fields.from;
	}

	/** The Sender: in node version 2 a resource locator, whose value is the sender ID. */
	private readonly sender: string;

	private plainField(name: string): string[] | null {
		if (!this.plainFields.has(name))
			this.plainFields.set(
				name,
				this.fastPath.has(name) ? plainFieldPath(this.rawValue(name)) : null,
			);
		return this.plainFields.get(name)!;
	}

	/** The item read() reads, and the list of what it could not read. */
	private itemIndex = 0;
	private unreadable: RuleViolation[] = [];

	/** Reads the next item's parameters from here on; returns the list of those it cannot read. */
	forItem(itemIndex: number): RuleViolation[] {
		this.itemIndex = itemIndex;
		this.unreadable = [];
		return this.unreadable;
	}

	/**
	 * An expression that fails becomes a violation instead of a crash. `sameForAllItems`: an
	 * expression that reads nothing of the item is evaluated once (a suppression list of 10,000
	 * numbers would otherwise be rebuilt for each of 100,000 items).
	 */
	read(name: string, fallback: unknown, sameForAllItems = false): unknown {
		const { itemIndex, unreadable } = this;
		if (this.constant.has(name)) return this.constant.get(name);
		const field = this.plainField(name);
		if (field) return readField(this.items[itemIndex]?.json, field);
		try {
			const value =
				name === this.sender
					? this.ctx.getNodeParameter(name, itemIndex, fallback, { extractValue: true })
					: this.ctx.getNodeParameter(name, itemIndex, fallback);
			const raw = this.rawValue(name);
			const itemIndependent = sameForAllItems && sameForEveryItem(raw);
			if (!hasExpression(raw) || itemIndependent) this.constant.set(name, value);
			return value;
		} catch (error) {
			unreadable.push({
				field: name.replace(/^options\./, ''),
				message: `Could not read ${name}: ${(error as Error).message}`,
			});
			return fallback;
		}
	}

	/** A parameter as stored, by dotted path (`options.notifyId`). */
	private rawValue(path: string): unknown {
		let value: unknown = this.raw;
		for (const key of path.split('.'))
			value = (value as Record<string, unknown> | undefined)?.[key];
		return path === this.sender ? storedSender(value) : value;
	}
}

/** Option names with their parameter paths, made once: 15 new strings per item add up at 100,000 items. */
const OPTION_PATHS = OPTION_NAMES.map((name) => [name, `options.${name}`] as const);

/** Each option read on its own, so a constant one is read once and only changing ones per item. */
function readOptions(reader: ParameterReader): CampaignOptions {
	const options: CampaignOptions = {};
	// Indexed: 15 options × 100,000 items would each leave an iterator result and a pair behind.
	for (let i = 0; i < OPTION_PATHS.length; i++) {
		const [name, path] = OPTION_PATHS[i];
		// n8n refuses an undefined fallback; null stands for "not set".
		const value = reader.read(path, null, ITEM_LIST_OPTIONS.has(name));
		if (value !== null && value !== undefined) options[name] = value;
	}
	return options;
}

/** Every input item's text as its fields say; the only code that reads n8n's node parameters. */
export function readParameters(
	ctx: IExecuteFunctions,
	input: INodeExecutionData[],
	scheduled: boolean,
	fields: CampaignFields = CAMPAIGN_FIELDS,
): TextRequest[] {
	const reader = new ParameterReader(ctx, input, fields);
	const items: TextRequest[] = new Array(input.length);
	for (let itemIndex = 0; itemIndex < input.length; itemIndex++) {
		const unreadable = reader.forItem(itemIndex);
		items[itemIndex] = {
			itemIndex,
			from: reader.read(fields.from, ''),
			text: reader.read(fields.text, ''),
			recipients: reader.read(fields.recipients, ''),
			sendAt: scheduled ? reader.read('sendAt', '') : undefined,
			options: readOptions(reader),
			unreadable,
		};
	}
	return items;
}
