import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeProperties,
	IRequestOptionsSimplified,
	IWorkflowExecuteAdditionalData,
	Workflow,
} from 'n8n-workflow';
import { ICredentialsHelper, isExpression } from 'n8n-workflow';

/**
 * Does for tests what n8n's host CredentialsHelper does for a running instance: fills in the
 * credential's defaults, runs `preAuthentication` when the expirable field is empty or after a
 * 401, persists the new token (here in memory, there in the database) and applies the generic
 * `authenticate` templates through the workflow's real expression engine.
 */
export class InMemoryCredentialsHelper extends ICredentialsHelper {
	private readonly store = new Map<string, ICredentialDataDecryptedObject>();

	/** Every `preAuthentication` call that reached the credential type (a login attempt). */
	preAuthenticationCalls = 0;

	constructor(private readonly types: ICredentialType[]) {
		super();
	}

	/** Stores credential data under an id, as n8n's database would. */
	set(id: string, data: ICredentialDataDecryptedObject): void {
		this.store.set(id, { ...data });
	}

	/** What is stored for an id now (a copy), e.g. the persisted token. */
	stored(id: string): ICredentialDataDecryptedObject {
		return { ...(this.store.get(id) ?? {}) };
	}

	private type(name: string): ICredentialType {
		const type = this.types.find((t) => t.name === name);
		if (!type) throw new Error(`Unknown credential type ${name}`);
		return type;
	}

	private withDefaults(typeName: string, data: ICredentialDataDecryptedObject) {
		const defaults: ICredentialDataDecryptedObject = {};
		for (const property of this.type(typeName).properties) {
			defaults[property.name] = property.default as ICredentialDataDecryptedObject[string];
		}
		return { ...defaults, ...data };
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const { authenticate } = this.type(typeName);
		if (typeof authenticate === 'function') {
			return await authenticate(credentials, requestOptions as IHttpRequestOptions);
		}
		if (authenticate?.type !== 'generic') return requestOptions as IHttpRequestOptions;
		if (!workflow || !node) throw new Error('Generic authentication needs the workflow and node');
		const resolve = (value: string) =>
			isExpression(value)
				? String(
						workflow.expression.getSimpleParameterValue(
							node,
							value,
							'internal',
							{ $credentials: credentials },
							undefined,
							'',
						) ?? '',
					)
				: value;
		const target = requestOptions as unknown as Record<string, Record<string, string> | undefined>;
		for (const [section, entries] of Object.entries(authenticate.properties)) {
			target[section] ??= {};
			for (const [key, value] of Object.entries(entries as Record<string, string>)) {
				target[section]![resolve(key)] = resolve(value);
			}
		}
		return requestOptions as IHttpRequestOptions;
	}

	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const type = this.type(typeName);
		const expirable = type.properties.find(
			(p) => p.type === 'hidden' && p.typeOptions?.expirable === true,
		);
		if (!expirable || typeof type.preAuthentication !== 'function') return undefined;
		if (credentials[expirable.name] !== '' && !credentialsExpired) return undefined;

		this.preAuthenticationCalls++;
		const output = (await type.preAuthentication.call(helpers, credentials)) as
			ICredentialDataDecryptedObject | undefined;
		if (output?.[expirable.name] === undefined) return undefined;
		const details = node.credentials?.[typeName];
		if (details?.id) {
			this.store.set(details.id, {
				...this.store.get(details.id),
				[expirable.name]: output[expirable.name],
			});
		}
		return Object.assign(credentials, output);
	}

	async runPreAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const type = this.type(typeName);
		if (typeof type.preAuthentication !== 'function') return undefined;
		return (await type.preAuthentication.call(
			helpers,
			credentials,
		)) as ICredentialDataDecryptedObject;
	}

	// n8n reads encrypted entities here; nothing in these packages asks for them.
	async getCredentials(details: INodeCredentialsDetails): Promise<never> {
		throw new Error(`getCredentials(${details.name}) is not available in tests`);
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		details: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		const data = details.id ? this.store.get(details.id) : undefined;
		if (!data)
			throw new Error(`No credential stored for ${details.name} (${details.id ?? 'no id'})`);
		return this.withDefaults(type, data);
	}

	async updateCredentials(
		details: INodeCredentialsDetails,
		_type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		if (details.id) this.store.set(details.id, { ...data });
	}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(type: string): INodeProperties[] {
		return this.type(type).properties;
	}
}
