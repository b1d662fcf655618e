import type { Findings } from '../../../../../../nodes/Phonovation/domain/compliance';
import {
	OPTION_TABLE,
	optionSettings,
	readOptions,
	textPhase,
} from '../../../../../../nodes/Phonovation/resources/campaign/options';
import {
	type CampaignOption,
	refusal,
	yesNo,
} from '../../../../../../nodes/Phonovation/resources/campaign/options/option';

/** An option nobody shipped: its file is this object, its index line the table entry below. */
const noLinks: CampaignOption<boolean> = {
	property: { displayName: 'No Links', type: 'boolean', default: false },
	read: yesNo(false),
	checkText: ({ text }, on) =>
		on && /https?:\/\//.test(text)
			? { violation: refusal('noLinks')('No Links: the text holds a link') }
			: undefined,
};

type Table = Array<[string, CampaignOption<unknown>]>;

const withNoLinks: Table = [...OPTION_TABLE, ['noLinks', noLinks as CampaignOption<unknown>]];

/** A row's text through the plan phase with these options set (every other at its default). */
function planned(text: string, set: Record<string, unknown>, table: Table = withNoLinks) {
	const { values } = readOptions(set);
	const settings = optionSettings(values);
	const found: Findings = { violations: [], warnings: [] };
	const sent = textPhase(table, { text, values: { ...values, ...set }, settings }, found);
	return { sent, found };
}

describe("a campaign option's rule on the text lives in its file: the plan phase calls it", () => {
	it('a new rule acts once its option is in the table, with no change to the pipeline', () => {
		const link = 'Book at https://example.ie/book';
		expect(planned(link, { noLinks: true }).found.violations).toEqual([
			{ field: 'noLinks', message: 'No Links: the text holds a link' },
		]);
		expect(planned(link, { noLinks: false }).found.violations).toEqual([]);
		expect(planned(link, { noLinks: true }, [...OPTION_TABLE]).found.violations).toEqual([]);
	});

	it('checks the text as it will be sent: Max Parts counts the Opt-Out Text and says so', () => {
		const text = 'x'.repeat(150);
		const { sent, found } = planned(text, { maxParts: 1, optOutText: 'Reply STOP to opt out' });
		expect(sent).toBe(`${text}\nReply STOP to opt out`);
		expect(found.violations).toEqual([
			{
				field: 'maxParts',
				message: 'Max Parts per Text is 1, and the text with the Opt-Out Text is 2 parts long',
			},
		]);
	});

	it("reads other options' settings: only a Marketing text without opt-out wording is found, under its own option", () => {
		const bare = 'Sale on Friday';
		const marketing = { optOutText: '', messageType: 'marketing' };
		expect(planned(bare, { ...marketing, missingOptOut: 'fail' }).found.violations).toEqual([
			expect.objectContaining({ field: 'missingOptOut' }),
		]);
		expect(planned(bare, { ...marketing, missingOptOut: 'warn' }).found).toEqual({
			violations: [],
			warnings: [expect.stringContaining('offers no way to opt out')],
		});
		const transactional = { optOutText: '', messageType: 'transactional', missingOptOut: 'fail' };
		expect(planned(bare, transactional).found).toEqual({ violations: [], warnings: [] });
	});
});
