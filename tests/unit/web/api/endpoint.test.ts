// The endpoint objects on the client: the path written from the params, and calls typed from the endpoint.
import { describe, expect, it } from 'vitest';
import { customersApi } from '../../../../src/api/customers/endpoints';
import { pathOf, type BodyIn, type ParamsIn } from '../../../../src/api/endpoint';
import { taboolaApi } from '../../../../src/api/taboola/endpoints';

describe('endpoint objects', () => {
  it('write their path parameters, each encoded', () => {
    expect(pathOf(customersApi.update.path, { id: 12 })).toBe('/api/customers/12');
    expect(pathOf(taboolaApi.targeting.path, { accountId: 'a/b', campaignId: 'c d' })).toBe('/api/taboola/campaigns/a%2Fb/c%20d/codes');
    expect(() => pathOf(customersApi.update.path, {})).toThrow(/parameter id missing/);
  });

  it('type the parameters and the body a call gives from the endpoint', () => {
    const params: ParamsIn<typeof customersApi.update> = { id: 3 };
    // @ts-expect-error a parameter the path does not have
    const wrong: ParamsIn<typeof customersApi.update> = { customerId: 3 };
    const body: BodyIn<typeof customersApi.update> = { active: false };
    // @ts-expect-error a field of the wrong type
    const badBody: BodyIn<typeof customersApi.update> = { active: 'no' };
    expect([params, wrong, body, badBody]).toHaveLength(4);
  });
});
