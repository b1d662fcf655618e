import { networkOf } from '../../../../../nodes/PhonovationTrigger/events/fields/network';

describe('SMS-Network (mcc/mnc)', () => {
	it.each([
		[
			'272/1',
			{
				mcc: '272',
				mnc: '1',
				country: 'Ireland',
				carrier: 'Vodafone Ireland',
				operatorNetwork: true,
			},
		],
		[
			' 272 / 2 ',
			{
				mcc: '272',
				mnc: '2',
				country: 'Ireland',
				carrier: 'Three Ireland',
				operatorNetwork: false,
			},
		],
		['272/3', { mcc: '272', mnc: '3', country: 'Ireland', carrier: 'Eir', operatorNetwork: false }],
		['272', { mcc: '272', mnc: '', country: 'Ireland', carrier: null, operatorNetwork: false }],
		['234/1', { mcc: '234', mnc: '1', country: null, carrier: null, operatorNetwork: false }],
		[
			'272/1.0',
			{ mcc: '272', mnc: '1.0', country: 'Ireland', carrier: null, operatorNetwork: false },
		],
		[
			'272/0x1',
			{ mcc: '272', mnc: '0x1', country: 'Ireland', carrier: null, operatorNetwork: false },
		],
		[
			'272/+1',
			{ mcc: '272', mnc: '+1', country: 'Ireland', carrier: null, operatorNetwork: false },
		],
	])('%s', (value, network) => {
		expect(networkOf(value)).toEqual(network);
	});
});
