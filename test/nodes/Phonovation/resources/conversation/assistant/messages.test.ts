import {
	arrivalOf,
	type LoggedMessage,
	messagesOf,
	turnMessages,
} from '../../../../../../nodes/Phonovation/resources/conversation/assistant/messages';

const LOGGED = '2026-11-29T10:00:05.000Z';

describe("a text's arrival time (the trigger's arrivedAt), as the turn order trusts it", () => {
	it('is taken as the trigger stamps it, within a day before it was logged and a minute after', () => {
		expect(arrivalOf('2026-11-29T10:00:04.250Z', LOGGED)).toBe('2026-11-29T10:00:04.250Z');
		expect(arrivalOf('2026-11-28T10:00:06.000Z', LOGGED)).toBe('2026-11-28T10:00:06.000Z');
		expect(arrivalOf('2026-11-29T10:01:04.000Z', LOGGED)).toBe('2026-11-29T10:01:04.000Z');
	});

	it.each([
		['missing', undefined],
		['not text', 1764410404000],
		['a date the legacy parser reads', 'foo 12'],
		['another time zone', '2026-11-29T11:00:04.250+01:00'],
		['without milliseconds', '2026-11-29T10:00:04Z'],
		['a far year', '+275760-09-13T00:00:00.000Z'],
		['more than a day before it was logged', '2026-11-28T10:00:04.000Z'],
		['more than a minute after it was logged', '2026-11-29T10:01:06.000Z'],
		['an impossible date', '2026-13-40T10:00:04.000Z'],
	])('is ignored when %s: the text takes its place by when it was logged', (_, value) => {
		expect(arrivalOf(value, LOGGED)).toBe('');
	});
});

describe('the order of a turn', () => {
	const row = (id: string, text: string, at: string, arrivedAt = ''): Record<string, unknown> => ({
		kind: 'in',
		phone: '353871234567',
		key: `key ${text}`,
		text,
		at,
		arrivedAt,
		id,
		turn: 'turn:1',
	});
	const order = (rows: Array<Record<string, unknown>>) =>
		turnMessages(messagesOf(rows), 'turn:1').map((m: LoggedMessage) => m.text);

	it('is the order the texts reached n8n, not the order a busy worker logged them', () => {
		expect(
			order([
				row('in:1:0:0', 'to Friday', '2026-11-29T10:00:05.000Z', '2026-11-29T10:00:01.000Z'),
				row('in:2:0:0', 'Hi', '2026-11-29T10:00:06.000Z', '2026-11-29T10:00:00.000Z'),
			]),
		).toEqual(['Hi', 'to Friday']);
	});

	it('falls back to when it was logged for a text whose arrival is unknown or not believable', () => {
		expect(
			order([
				row('in:1:0:0', 'second', '2026-11-29T10:00:05.000Z', 'garbage'),
				row('in:2:0:0', 'first', '2026-11-29T10:00:04.000Z'),
				row('in:3:0:0', 'third', '2026-11-29T10:00:06.000Z', '2030-01-01T00:00:00.000Z'),
			]),
		).toEqual(['first', 'second', 'third']);
	});
});
