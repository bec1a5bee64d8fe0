// 'Réglages de la landing' as data: the dialog's state, its checks and the PATCH it sends. Pure apart from the valtio state.
import { proxy } from 'valtio';
import { landingUpdateRequest, type Landing, type LandingUpdateRequest } from '../../api/landings/contract';

export type LandingSettingsField = 'thank_you_url' | 'max_buyers';

export interface LandingSettingsDraft {
  /** Empty: form posts are answered with JSON. */
  thank_you_url: string;
  /** As typed, 1–5. */
  max_buyers: string;
}

/** The landing being set (null: closed), its draft and the refused fields (i18n ids). */
export const landingSettings = proxy({
  landing: null as Landing | null,
  draft: { thank_you_url: '', max_buyers: '1' } as LandingSettingsDraft,
  errors: {} as Partial<Record<LandingSettingsField, string>>,
  busy: false,
});

export const settingsDraft = (l: Landing): LandingSettingsDraft => ({ thank_you_url: l.thank_you_url ?? '', max_buyers: String(l.max_buyers) });

const messages: Record<LandingSettingsField, string> = {
  thank_you_url: 'leads.landingSettings.error.url',
  max_buyers: 'leads.landingSettings.error.maxBuyers',
};

/** The PATCH body of the fields that changed, checked by the contract, or the refused fields. */
export function checkLandingSettings(
  draft: LandingSettingsDraft,
  current: Landing,
): { errors: Partial<Record<LandingSettingsField, string>>; payload: LandingUpdateRequest | null } {
  const payload: LandingUpdateRequest = {};
  const url = draft.thank_you_url.trim() === '' ? null : draft.thank_you_url.trim();
  if (url !== current.thank_you_url) payload.thank_you_url = url;
  const max = /^\d+$/.test(draft.max_buyers.trim()) ? Number(draft.max_buyers.trim()) : NaN;
  if (max !== current.max_buyers) payload.max_buyers = max;
  if (Object.keys(payload).length === 0) return { errors: {}, payload };
  return { errors: settingsServerErrors(issuePaths(payload)), payload: landingUpdateRequest.safeParse(payload).success ? payload : null };
}

const issuePaths = (payload: LandingUpdateRequest) => {
  const parsed = landingUpdateRequest.safeParse(payload);
  return parsed.success ? {} : Object.fromEntries(parsed.error.issues.map((i) => [i.path.join('.'), i.message]));
};

/** The server's 422 `errors` on the dialog's fields. */
export function settingsServerErrors(errors: Readonly<Record<string, string>>): Partial<Record<LandingSettingsField, string>> {
  const out: Partial<Record<LandingSettingsField, string>> = {};
  for (const path of Object.keys(errors)) {
    const head = path.split('.')[0] as LandingSettingsField;
    if (head in messages) out[head] = messages[head];
  }
  return out;
}
