import { ApplicationError, NodeApiError, NodeOperationError, UserError } from 'n8n-workflow';
import type { INode } from 'n8n-workflow';

import { isLoginFailure, LoginFailedError } from '../../../nodes/shared/loginFailure';

const node: INode = {
	id: 'send',
	name: 'Send',
	type: 'n8n-nodes-phonovation.phonovation',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

const refused = () => new LoginFailedError('Phonovation refused the username or password');

describe('a failed login, recognised wherever n8n wraps it', () => {
	it('is a user error (a setting to fix), with a name of its own', () => {
		const error = refused();
		expect(error).toBeInstanceOf(UserError);
		expect(error.name).toBe('PhonovationLoginFailedError');
		expect(error.message).toBe('Phonovation refused the username or password');
	});

	it("is recognised as thrown and as the cause of n8n's own errors", () => {
		expect(isLoginFailure(refused())).toBe(true);
		expect(isLoginFailure(new NodeOperationError(node, refused()))).toBe(true);
		expect(isLoginFailure(new ApplicationError('request failed', { cause: refused() }))).toBe(true);
	});

	it('is recognised a few causes deep', () => {
		let error: Error = refused();
		for (let i = 0; i < 4; i++) error = new Error(`wrapped ${i}`, { cause: error });
		expect(isLoginFailure(error)).toBe(true);
	});

	it('is recognised by its name once copied into a plain object (as n8n serialises errors)', () => {
		expect(isLoginFailure({ message: 'x', name: 'PhonovationLoginFailedError' })).toBe(true);
		expect(isLoginFailure({ message: 'x', cause: { name: 'PhonovationLoginFailedError' } })).toBe(
			true,
		);
	});

	it.each([
		['another error', new Error('socket hang up')],
		['an API error', new NodeApiError(node, { message: 'Unauthorized', httpCode: '401' })],
		['an error whose cause is another error', new Error('outer', { cause: new Error('inner') })],
		['nothing', undefined],
		['null', null],
		['a string naming it', 'PhonovationLoginFailedError'],
	])('%s is not a failed login', (_name, error) => {
		expect(isLoginFailure(error)).toBe(false);
	});

	it('an error that is its own cause ends the search', () => {
		const error = new Error('loop') as Error & { cause?: unknown };
		error.cause = error;
		expect(isLoginFailure(error)).toBe(false);
	});
});
