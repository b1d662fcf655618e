import {
	arrivalColumn,
	arrivalOf,
	burstAnswered,
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

describe("the provider's stamp of a text, kept in the arrivedAt column after its arrival", () => {
	const text = (arrivedAt: unknown) => ({
		kind: 'in',
		phone: '353871234567',
		key: 'k',
		text: 'Hi',
		at: LOGGED,
		arrivedAt,
		id: 'in:1',
		turn: '',
	});

	it('is written after the arrival and a space, and read back as both', () => {
		const logged = {
			...messagesOf([text('2026-11-29T10:00:04.250Z')])[0],
			providerAt: '2026-11-29T10:00:03.000Z',
		};
		const column = arrivalColumn(logged);
		expect(column).toBe('2026-11-29T10:00:04.250Z 2026-11-29T10:00:03.000Z');
		expect(messagesOf([text(column)])[0]).toMatchObject({
			arrivedAt: '2026-11-29T10:00:04.250Z',
			providerAt: '2026-11-29T10:00:03.000Z',
		});
	});

	it('is nothing in a row an inbox kept before stamps, or with no believable arrival', () => {
		expect(messagesOf([text('2026-11-29T10:00:04.250Z')])[0].providerAt).toBe('');
		expect(messagesOf([text(' 2026-11-29T10:00:03.000Z')])[0]).toMatchObject({
			arrivedAt: '',
			providerAt: '',
		});
		expect(messagesOf([text('2026-11-29T10:00:04.250Z 2026-11-29 10:00:03')])[0].providerAt).toBe(
			'',
		);
	});

	it('leaves the column as it was when there is no stamp', () => {
		const [row] = messagesOf([text('2026-11-29T10:00:04.250Z')]);
		expect(arrivalColumn(row)).toBe('2026-11-29T10:00:04.250Z');
		expect(arrivalColumn({ ...row, arrivedAt: '', providerAt: '2026-11-29T10:00:03.000Z' })).toBe(
			'',
		);
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

describe('a burst a busy n8n handed over late gets one turn, and no run is left without one', () => {
	const QUIET = 5_000;
	const text = (id: string, arrivedMs: number, turn = '', seq = 0): LoggedMessage => ({
		kind: 'in',
		phone: '353871234567',
		key: `key ${id}`,
		text: id,
		at: new Date(Date.parse(LOGGED) + seq * 1000).toISOString(),
		arrivedAt: new Date(Date.parse(LOGGED) - 60_000 + arrivedMs).toISOString(),
		id,
		turn,
		seq,
	});

	it('a text sent within the burst of one already answered makes no second turn', () => {
		const b = text('B', 1_200, 'turn:B', 1);
		expect(burstAnswered([b, text('A', 0, '', 2)], text('A', 0, '', 2), QUIET)?.id).toBe('B');
		// Sent just after the answered one, within half the quiet time: the same burst.
		expect(burstAnswered([b, text('C', 3_000, '', 2)], text('C', 3_000, '', 2), QUIET)?.id).toBe(
			'B',
		);
		// Nearly a quiet time after it: the same burst (the person was not quiet for the quiet time).
		expect(burstAnswered([b, text('D', 5_000, '', 2)], text('D', 5_000, '', 2), QUIET)?.id).toBe(
			'B',
		);
	});

	it('a text that reached n8n within the quiet time after, held back until after the turn went out, is of that burst', () => {
		const b = text('B', 1_200, 'turn:B', 1);
		const c = inTime(text('C', 5_000, '', 2));
		expect(burstAnswered([b, c], c, QUIET)?.id).toBe('B');
		// More than the quiet time after it: the person's next message, theirs to be answered.
		const d = inTime(text('D', 6_300, '', 2));
		expect(burstAnswered([b, d], d, QUIET)).toBe(undefined);
	});

	it('a burst a storm stretched (queue mode, relays answered after 40 s) is still one burst', () => {
		// Sent 1.2 s apart, they reached n8n 2.0 and 3.2 s after the first; each logged 10–17 s late.
		const hi = at('Hi', '10:50:45.665Z', '10:50:47.950Z', 'turn:Hi');
		const second = at('and part 2', '10:50:47.649Z', '10:50:57.723Z');
		const third = at('and part 3', '10:50:48.881Z', '10:51:06.039Z');
		expect(burstAnswered([hi, second, third], third, QUIET)?.id).toBe('Hi');
	});

	it('texts waiting together chain to the answered burst, each within the quiet time of the next', () => {
		const a = text('A', 0, 'turn:A', 1);
		const x = text('X', 4_000, '', 2);
		const mine = text('M', 8_000, '', 3);
		expect(burstAnswered([a, x, mine], mine, QUIET)?.id).toBe('A');
		// Without the text between them, 8 s is past the quiet time: the person's next message.
		expect(burstAnswered([a, mine], mine, QUIET)).toBe(undefined);
	});

	/** The same text handed over in time: logged half a second after it reached n8n. */
	const inTime = (row: LoggedMessage): LoggedMessage => ({
		...row,
		at: new Date(Date.parse(row.arrivedAt) + 500).toISOString(),
	});
	/** A text as a storm's log kept it: when it reached n8n and when it was logged. */
	const at = (id: string, arrived: string, logged: string, turn = ''): LoggedMessage => ({
		...text(id, 0, turn),
		arrivedAt: `2026-11-29T${arrived}`,
		at: `2026-11-29T${logged}`,
	});

	it("a Retry after this run's own claim went through finds its own turn, not another's", () => {
		const a = text('A', 0, 'turn:A', 2);
		const b = text('B', 1_000, 'turn:A', 1);
		expect(burstAnswered([b, a], a, QUIET)).toBe(undefined);
	});

	it('a text still waiting that belongs to the answered burst too waits with this one: no second turn', () => {
		const b = text('B', 1_000, 'turn:B', 1);
		const x = text('X', 500, '', 2);
		const a = text('A', 0, '', 3);
		expect(burstAnswered([b, x, a], a, QUIET)?.id).toBe('B');
	});

	it('a text whose arrival is unknown is not judged by it', () => {
		const b = text('B', 1_000, 'turn:B', 1);
		const a = { ...text('A', 0, '', 2), arrivedAt: '' };
		expect(burstAnswered([b, a], a, QUIET)).toBe(undefined);
	});

	it('another text still waiting for this run, outside the answered burst, goes out with it: the run does not stop', () => {
		const b = text('B', 2_000, 'turn:B', 1);
		const x = text('X', 20_000, '', 2);
		const a = text('A', 0, '', 3);
		expect(burstAnswered([b, x, a], a, QUIET)).toBe(undefined);
	});
});
