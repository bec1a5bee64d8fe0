// 'Réglages de la landing' as data: the PATCH of the fields that changed, the contract's checks on
// the thank-you URL and max_buyers, and the server's refusals on their fields.
import { describe, expect, it } from 'vitest';
import type { Landing } from '../../../../../src/api/landings/contract';
import { checkLandingSettings, settingsDraft, settingsServerErrors } from '../../../../../src/views/leads/landingSettings';

const landing: Landing = {
  id: 3,
  key: 'pac',
  name: 'PAC',
  kind: 'standard',
  category: 'pac',
  zone_climatique: true,
  columns: [],
  thank_you_url: 'https://exemple.fr/merci',
  max_buyers: 1,
};

describe('landing settings', () => {
  it('sends only what changed: max_buyers as a number, an emptied URL as null', () => {
    expect(checkLandingSettings(settingsDraft(landing), landing)).toEqual({ errors: {}, payload: {} });
    expect(checkLandingSettings({ ...settingsDraft(landing), max_buyers: ' 3 ' }, landing)).toEqual({ errors: {}, payload: { max_buyers: 3 } });
    expect(checkLandingSettings({ thank_you_url: '  ', max_buyers: '5' }, landing)).toEqual({ errors: {}, payload: { thank_you_url: null, max_buyers: 5 } });
  });

  it('refuses a URL that is not http(s) and max_buyers outside 1–5, field by field', () => {
    for (const typed of ['0', '6', '2.5', '', 'deux'])
      expect(checkLandingSettings({ ...settingsDraft(landing), max_buyers: typed }, landing)).toEqual({
        errors: { max_buyers: 'leads.landingSettings.error.maxBuyers' },
        payload: null,
      });
    expect(checkLandingSettings({ thank_you_url: 'ftp://x.fr', max_buyers: '9' }, landing)).toEqual({
      errors: { thank_you_url: 'leads.landingSettings.error.url', max_buyers: 'leads.landingSettings.error.maxBuyers' },
      payload: null,
    });
    expect(settingsServerErrors({ max_buyers: 'x', thank_you_url: 'x', _: 'x' })).toEqual({
      max_buyers: 'leads.landingSettings.error.maxBuyers',
      thank_you_url: 'leads.landingSettings.error.url',
    });
  });
});
