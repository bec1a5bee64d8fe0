import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/config';

describe('single sign-on settings', () => {
  const full = { OIDC_ISSUER: 'https://accounts.example.test', OIDC_CLIENT_ID: 'console', OIDC_CLIENT_SECRET: 'secret' };

  it('takes the three together, with a default label', () => {
    expect(loadConfig(full)).toMatchObject({ ...full, OIDC_LABEL: "l'annuaire de l'entreprise" });
    expect(loadConfig({ ...full, OIDC_LABEL: 'Google Workspace' }).OIDC_LABEL).toBe('Google Workspace');
    expect(loadConfig({}).OIDC_ISSUER).toBeUndefined();
  });

  it('refuses one without the others, and an issuer that is not an http(s) address, in French', () => {
    expect(() => loadConfig({ OIDC_ISSUER: full.OIDC_ISSUER })).toThrow(/OIDC_ISSUER: OIDC_ISSUER, OIDC_CLIENT_ID et OIDC_CLIENT_SECRET vont ensemble/);
    expect(() => loadConfig({ OIDC_CLIENT_SECRET: 'secret' })).toThrow(/vont ensemble/);
    expect(() => loadConfig({ ...full, OIDC_ISSUER: 'ftp://idp.example.test' })).toThrow(/OIDC_ISSUER doit être l'adresse http\(s\) du fournisseur d'identité/);
  });
});
