import RealValidator from '@rc-component/async-validator';
import OnDemandValidator from './asyncValidator';

import type { Rules } from '@rc-component/async-validator';

type Descriptor = Rules;

/** What a validator says of a value, as rc-form reads it: nothing, or the errors' messages. */
async function outcome(Validator: typeof RealValidator | typeof OnDemandValidator, descriptor: Descriptor, source: Record<string, unknown>) {
  const validator = new Validator(descriptor);
  validator.messages({ required: '%s is required', types: { email: '%s is not a valid email' } });
  try {
    await validator.validate(source, {});
    return [];
  } catch (error) {
    return (error as { errors: Array<{ message: string }> }).errors.map((e) => e.message);
  }
}

describe('the on-demand form validator', () => {
  // The real validator prints each refusal with console.warn outside production (rc-form silences it in
  // the console); the outcomes compared here are the refusals themselves.
  beforeEach(() => jest.spyOn(console, 'warn').mockImplementation(() => undefined));
  afterEach(() => jest.restoreAllMocks());

  const cases: Array<[string, Descriptor, Record<string, unknown>]> = [
    ['a required field left empty', { name: [{ required: true }] }, { name: '' }],
    ['a required field filled', { name: [{ required: true }] }, { name: 'LX0001' }],
    ['an email that is not one', { email: [{ type: 'email' }] }, { email: 'not-an-email' }],
    ['a pattern with its own message', { site: [{ pattern: /^[A-Z]{2}\d{4}$/, message: 'Site ids look like LX0001' }] }, { site: 'lx1' }],
    ['a custom validator that refuses', { band: [{ validator: (_rule, _value, callback) => callback(new Error('Unknown band')) }] }, { band: 'L700' }],
  ];

  test.each(cases)('%s: the same outcome as the real validator', async (_label, descriptor, source) => {
    expect(await outcome(OnDemandValidator, descriptor, source)).toEqual(await outcome(RealValidator, descriptor, source));
  });

  test('the messages set before validating are the ones used', async () => {
    expect(await outcome(OnDemandValidator, { name: [{ required: true }] }, { name: '' })).toEqual(['name is required']);
  });

  test('the warning rc-form sets (to silence the console) reaches the real validator', async () => {
    const silenced = () => undefined;
    OnDemandValidator.warning = silenced;
    await outcome(OnDemandValidator, { name: [{ required: true }] }, { name: 'x' });
    expect(RealValidator.warning).toBe(silenced);
  });
});
