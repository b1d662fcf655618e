import {
	digestsMatch,
	inboundDigest,
	md5Hex,
	receiptDigest,
	secretsMatch,
	verifyInboundSignature,
	verifyReceiptSignature,
} from '../../../../nodes/PhonovationTrigger/verification/signature';

// Vectors from the provider's documentation, checked independently (docs/provider-api.md#verification).
const DOC_RECEIPT_DIGEST = '9db038748b3088971d913616c13e769b'; // md5('321354' + 'true' + 'Password1')
const DOC_INBOUND_DIGEST = 'a579847a5d498d4d1c0cd96690b9e0c0'; // md5('353871111111' + 'Test reply' + 'Password1')

describe('relay signatures', () => {
	it('reproduce the documented digests', () => {
		expect(receiptDigest('321354', 'true', 'Password1')).toBe(DOC_RECEIPT_DIGEST);
		expect(inboundDigest('353871111111', 'Test reply', 'Password1')).toBe(DOC_INBOUND_DIGEST);
		expect(receiptDigest('321354', 'True', 'Password1')).toBe('b060c2d249446366c2fb760466540aa4');
	});

	it('hash text as UTF-8 (fadas, emoji)', () => {
		// md5 of the UTF-8 bytes of "Fáilte 👋", computed with python's hashlib.
		expect(md5Hex('Fáilte 👋')).toBe('92dabc817643cebe349c66b24c25ddec');
		expect(inboundDigest('353871111111', 'Fáilte 👋', 'Password1')).toBe(
			'044ffa32b7d9649e41c98fdf3866e58a',
		);
	});

	it('compare digests ignoring hex case, refusing other lengths and other values', () => {
		expect(digestsMatch(DOC_RECEIPT_DIGEST, DOC_RECEIPT_DIGEST.toUpperCase())).toBe(true);
		expect(digestsMatch(DOC_RECEIPT_DIGEST, DOC_RECEIPT_DIGEST.slice(0, 31))).toBe(false);
		expect(digestsMatch(DOC_RECEIPT_DIGEST, `${DOC_RECEIPT_DIGEST}0`)).toBe(false);
		expect(digestsMatch(DOC_RECEIPT_DIGEST, '')).toBe(false);
		expect(digestsMatch(DOC_RECEIPT_DIGEST, DOC_RECEIPT_DIGEST.replace('9d', '9e'))).toBe(false);
	});

	it('verify inbound relays over From + Content with the secret', () => {
		const fields = { from: '353871111111', content: 'Test reply', verify: DOC_INBOUND_DIGEST };
		expect(verifyInboundSignature(fields, 'Password1')).toBe(true);
		expect(verifyInboundSignature(fields, 'password1')).toBe(false);
		expect(verifyInboundSignature({ ...fields, content: 'Test reply!' }, 'Password1')).toBe(false);
		expect(verifyInboundSignature({ ...fields, from: '353871111112' }, 'Password1')).toBe(false);
	});

	it('verify receipts whether the provider hashed True as sent or lower-cased', () => {
		const sentTrue = { notifyId: '321354', success: 'True', verify: DOC_RECEIPT_DIGEST };
		expect(verifyReceiptSignature(sentTrue, 'Password1')).toBe(true);
		expect(
			verifyReceiptSignature(
				{ ...sentTrue, verify: 'b060c2d249446366c2fb760466540aa4' },
				'Password1',
			),
		).toBe(true);
		expect(verifyReceiptSignature({ ...sentTrue, success: 'False' }, 'Password1')).toBe(false);
		expect(verifyReceiptSignature({ ...sentTrue, notifyId: '321355' }, 'Password1')).toBe(false);
		expect(verifyReceiptSignature(sentTrue, 'Password2')).toBe(false);
	});

	it('compare URL tokens exactly, whatever their lengths', () => {
		expect(secretsMatch('tok-123', 'tok-123')).toBe(true);
		expect(secretsMatch('tok-123', 'TOK-123')).toBe(false);
		expect(secretsMatch('tok-123', 'tok-1234')).toBe(false);
		expect(secretsMatch('tok-123', '')).toBe(false);
	});
});
