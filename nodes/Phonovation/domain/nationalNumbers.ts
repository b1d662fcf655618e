/**
 * How some countries write their numbers at home: what a number given without its country code can
 * stand for under a Default Country Code. Covered: Ireland, the UK (with Guernsey, Jersey and the
 * Isle of Man), France, Germany, Spain, Italy, the Netherlands, Belgium, North America (+1: the US,
 * Canada and the Caribbean), Australia, Poland, Portugal, Austria, Switzerland, Sweden, Denmark,
 * Norway, New Zealand, India and South Africa. Other countries' numbers are checked for length only.
 * A test holds every pattern to Google's libphonenumber metadata.
 */
interface NationalNumbering {
	/** In reasons: "a UK number", "an Italian number". */
	adjective: string;
	/** Dialled before a number at home: 0 (most of Europe), 1 (North America), or nothing (Spain, Italy, Poland…). */
	trunkPrefix: '0' | '1' | '';
	/** What follows the country code: libphonenumber's general pattern (every kind of number) for the code. */
	plan: string;
	/**
	 * The numbers a text may be meant for, as given without any leading 0. With a trunk 0, the 0
	 * was lost (a spreadsheet stored the number as a number): its mobiles and landlines, or only
	 * its mobiles where landlines have any length from 5 to 13 digits (Germany, Austria, Sweden),
	 * which would take in most international numbers. Without a trunk prefix, its mobiles and
	 * landlines as written at home (Spanish 612 345 678, Italian mobile 312 345 6789).
	 */
	withoutZero: string;
}

const NUMBERINGS: Record<string, NationalNumbering> = {
	// Irish recipients keep phoneNumbers.ts's own rules and reasons (its lost 0 is a mobile's, as
	// here); the plan gives Exclude Numbers every Irish number bare digits may be without their 0.
	'353': {
		adjective: 'Irish',
		trunkPrefix: '0',
		plan: '(?:1\\d|[2569])\\d{6,8}|4\\d{6,9}|7\\d{8}|8\\d{8,9}',
		withoutZero: '8(?:22|[35-9]\\d)\\d{6}',
	},
	'44': {
		adjective: 'UK',
		trunkPrefix: '0',
		plan: '[1-357-9]\\d{9}|[18]\\d{8}|8\\d{6}',
		withoutZero: '1\\d{8,9}|[237]\\d{9}',
	},
	'33': { adjective: 'French', trunkPrefix: '0', plan: '[1-9]\\d{8}', withoutZero: '[1-79]\\d{8}' },
	'49': {
		adjective: 'German',
		trunkPrefix: '0',
		plan:
			'[2579]\\d{5,14}|49(?:[34]0|69|8\\d)\\d\\d?|49(?:37|49|60|7[089]|9\\d)\\d{1,3}|49(?:2[024-9]|3[2-689]|7[1-7])\\d{1,8}|' +
			'(?:1|[368]\\d|4[0-8])\\d{3,13}|49(?:[015]\\d|2[13]|31|[46][1-8])\\d{1,9}',
		withoutZero: '1[5-7]\\d{8,9}',
	},
	'34': {
		adjective: 'Spanish',
		trunkPrefix: '',
		plan: '400\\d{6}|(?:51|[6-9]\\d)\\d{7}',
		withoutZero: '400\\d{6}|(?:51|[6-9]\\d)\\d{7}',
	},
	// Italian numbers keep their leading 0 (landlines) or 3 (mobiles): there is no trunk prefix.
	'39': {
		adjective: 'Italian',
		trunkPrefix: '',
		plan: '0\\d{5,11}|1\\d{8,10}|3(?:[0-8]\\d{7,10}|9\\d{7,8})|(?:43|55|70)\\d{8}|8\\d{5}(?:\\d{2,4})?',
		withoutZero: '3\\d{8,9}|43\\d{8}',
	},
	'31': {
		adjective: 'Dutch',
		trunkPrefix: '0',
		plan: '(?:[124-7]\\d\\d|3(?:[02-9]\\d|1[0-8]))\\d{6}|8\\d{6,9}|9\\d{6,10}|1\\d{4,5}',
		withoutZero: '(?:[124-7]\\d\\d|3(?:[02-9]\\d|1[0-8]))\\d{6}|970\\d{8}',
	},
	'32': {
		adjective: 'Belgian',
		trunkPrefix: '0',
		plan: '4\\d{8}|[1-9]\\d{7}',
		withoutZero: '4\\d{8}|[1-9]\\d{7}',
	},
	'1': {
		adjective: 'North American',
		trunkPrefix: '1',
		plan: '[2-9]\\d{9}|3\\d{6}',
		withoutZero: '[2-9]\\d\\d[2-9]\\d{6}',
	},
	// Australia's pattern, then that of its Cocos and Christmas Islands, which share +61.
	'61': {
		adjective: 'Australian',
		trunkPrefix: '0',
		plan:
			'1(?:[0-79]\\d{7}(?:\\d(?:\\d{2})?)?|8[0-24-9]\\d{7})|[2-478]\\d{8}|1\\d{4,7}|' +
			'1(?:[0-79]\\d{8}(?:\\d{2})?|8[0-24-9]\\d{7})|[148]\\d{8}|1\\d{5,7}',
		withoutZero: '[2-478]\\d{8}',
	},
	'48': {
		adjective: 'Polish',
		trunkPrefix: '',
		plan: '(?:6|8\\d\\d)\\d{7}|[1-9]\\d{6}(?:\\d{2})?|[26]\\d{5}',
		withoutZero: '(?:6|8\\d\\d)\\d{7}|[1-9]\\d{6}(?:\\d{2})?',
	},
	'351': {
		adjective: 'Portuguese',
		trunkPrefix: '',
		plan: '1693\\d{5}|(?:[26-9]\\d|30)\\d{7}',
		withoutZero: '1693\\d{5}|[269]\\d{8}',
	},
	'43': {
		adjective: 'Austrian',
		trunkPrefix: '0',
		plan:
			'1\\d{3,12}|2\\d{6,12}|43(?:(?:0\\d|5[02-9])\\d{3,9}|2\\d{4,5}|[3467]\\d{4}|8\\d{4,6}|9\\d{4,7})|5\\d{4,12}|8\\d{7,12}|' +
			'9\\d{8,12}|(?:[367]\\d|4[0-24-9])\\d{4,11}',
		withoutZero: '6[4-9]\\d{5,11}',
	},
	'41': {
		adjective: 'Swiss',
		trunkPrefix: '0',
		plan: '8\\d{11}|[2-9]\\d{8}',
		withoutZero: '[2-9]\\d{8}',
	},
	'46': {
		adjective: 'Swedish',
		trunkPrefix: '0',
		plan: '(?:[26]\\d\\d|9)\\d{9}|[1-9]\\d{8}|[1-689]\\d{7}|[1-4689]\\d{6}|2\\d{5}',
		withoutZero: '7[0236-9]\\d{7}',
	},
	'45': { adjective: 'Danish', trunkPrefix: '', plan: '[2-9]\\d{7}', withoutZero: '[2-9]\\d{7}' },
	'47': {
		adjective: 'Norwegian',
		trunkPrefix: '',
		plan: '(?:0|[2-9]\\d{3})\\d{4}',
		withoutZero: '[2-9]\\d{7}',
	},
	'64': {
		adjective: 'New Zealand',
		trunkPrefix: '0',
		plan: '[1289]\\d{9}|50\\d{5}(?:\\d{2,3})?|[27-9]\\d{7,8}|(?:[34]\\d|6[0-35-9])\\d{6}|8\\d{4,6}',
		withoutZero: '2\\d{7,9}|(?:[3479]\\d|6[0-35-9])\\d{6}',
	},
	'91': {
		adjective: 'Indian',
		trunkPrefix: '0',
		plan: '(?:000800|[2-9]\\d\\d)\\d{7}|1\\d{7,12}',
		withoutZero: '[1-9]\\d{9}',
	},
	'27': {
		adjective: 'South African',
		trunkPrefix: '0',
		plan: '[1-79]\\d{8}|8\\d{4,9}',
		withoutZero: '[1-8]\\d{8}|8[1-4]\\d{3,7}',
	},
};

/** The country calling codes covered, each with its numbering. */
export const NATIONAL_NUMBERINGS: ReadonlyMap<string, NationalNumbering> = new Map(
	Object.entries(NUMBERINGS),
);

/**
 * A pattern matched from a position to the end of the text. Sticky, so a number's national part is
 * read in place: a slice per number would add up in a 400,000-number campaign.
 */
const sticky = (pattern: string) => new RegExp(`(?:${pattern})$`, 'y');

const PLANS = new Map(
	[...NATIONAL_NUMBERINGS].map(([code, numbering]) => [code, sticky(numbering.plan)]),
);
const WITHOUT_ZERO = new Map(
	[...NATIONAL_NUMBERINGS].map(([code, numbering]) => [code, sticky(numbering.withoutZero)]),
);

function matchesFrom(
	pattern: RegExp | undefined,
	digits: string,
	from: number,
): boolean | undefined {
	if (pattern === undefined) return undefined;
	pattern.lastIndex = from;
	return pattern.test(digits);
}

/** Whether `digits` from `from` on fit the plan of this country; undefined for a country not covered. */
export const fitsPlan = (code: string, digits: string, from = 0) =>
	matchesFrom(PLANS.get(code), digits, from);

/** Whether `digits` are one of this country's numbers as given without a leading 0 (see `withoutZero`). */
export const fitsWithoutZero = (code: string, digits: string) =>
	matchesFrom(WITHOUT_ZERO.get(code), digits, 0) === true;

/** "an Irish", "a UK" (said "you-kay"): the adjective with its article. */
export function withArticle(adjective: string): string {
	return /^[AEIO]/.test(adjective) ? `an ${adjective}` : `a ${adjective}`;
}
