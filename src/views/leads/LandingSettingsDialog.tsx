import type { FormEvent, KeyboardEvent } from 'react';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { useSnapshot } from 'valtio';
import { runCommand } from '../../commands/registry';
import { useT } from '../../i18n/provider';
import { landingSettings, type LandingSettingsField } from './landingSettings';
import { FormActions } from '../../ui/FormActions';

/**
 * 'Réglages de la landing' (leads.landingSettings): the thank-you URL of its plain HTML form and
 * the maximum buyers of a shared lead. Enter in a field saves, Escape or Annuler closes without
 * saving; the focus goes back where it was (react-aria's modal).
 */
export function LandingSettingsDialog() {
  const t = useT();
  const state = useSnapshot(landingSettings);
  const close = () => (landingSettings.landing = null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void runCommand('leads.saveLandingSettings', undefined, 'button');
  };
  const onKeyDown = (e: KeyboardEvent<HTMLFormElement>) => {
    if (e.key === 'Enter' && (e.target as HTMLElement).matches('input')) submit(e);
  };
  const field = (key: LandingSettingsField, type: 'url' | 'number') => {
    const error = state.errors[key];
    const ids = [`landing-settings-${key}-hint`, error ? `landing-settings-${key}-error` : ''].filter(Boolean).join(' ');
    return (
      <div className="field">
        <label htmlFor={`landing-settings-${key}`}>{t(`leads.landingSettings.${key}`)}</label>
        <input
          id={`landing-settings-${key}`}
          type={type}
          autoFocus={key === 'thank_you_url'}
          autoComplete="off"
          value={state.draft[key]}
          placeholder={type === 'url' ? 'https://' : undefined}
          {...(type === 'number' ? { min: 1, max: 5, step: 1 } : { maxLength: 2000 })}
          aria-invalid={error ? true : undefined}
          aria-describedby={ids}
          onChange={(e) => {
            landingSettings.draft[key] = e.target.value;
            if (landingSettings.errors[key]) landingSettings.errors = { ...landingSettings.errors, [key]: undefined };
          }}
        />
        <span id={`landing-settings-${key}-hint`} className="field-hint">
          {t(`leads.landingSettings.${key}.hint`)}
        </span>
        {error ? (
          <span id={`landing-settings-${key}-error`} className="field-error">
            {t(error)}
          </span>
        ) : null}
      </div>
    );
  };
  return (
    <ModalOverlay isOpen={state.landing !== null} onOpenChange={(open) => !open && close()} isDismissable className="overlay">
      <Modal className="dialog">
        <Dialog className="dialog-body">
          <Heading slot="title" className="dialog-title">
            {t('leads.landingSettings.title', { name: state.landing?.name ?? '' })}
          </Heading>
          <form className="form" onSubmit={submit} onKeyDown={onKeyDown} noValidate aria-label={t('leads.landingSettings')}>
            {field('thank_you_url', 'url')}
            {field('max_buyers', 'number')}
            <FormActions cancel={t('leads.landingSettings.cancel')} submit={t('leads.saveLandingSettings')} onCancel={close} busy={state.busy} />
          </form>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
