import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button, FieldError, Form, Input, Label, TextField } from 'react-aria-components';
import { ApiError } from '../../api/client';
import { queryClient } from '../../api/queryClient';
import { useSignedInQuery } from '../../api/signedIn';
import type { TotpEnrolment } from '../../api/two-factor/contract';
import { twoFactorQuery } from '../../api/two-factor/queries';
import { addPasskey, beginTotp, confirmTotp, removePasskey, removeTotp, renamePasskey } from '../../api/two-factor/requests';
import { useIntl, useT } from '../../i18n/provider';
import { toaster } from '../../ui/toasts';
import '../../styles/two-factor.css';

const refresh = () => queryClient.invalidateQueries({ queryKey: twoFactorQuery.queryKey });

/** The server's message of a refused request; the browser's own when WebAuthn was cancelled. */
const messageOf = (error: unknown, fallback: string) => (error instanceof ApiError ? error.message : fallback);

/**
 * The account's second factors: its authenticator app (enrolment with a QR code, the recovery codes
 * shown once, removal on a code) and its passkeys (add, rename, remove). `onFactor` runs once the
 * account has a factor it did not have (the enrolment REQUIRE_2FA asks for).
 */
export function TwoFactorPanel({ onFactor }: { onFactor?: () => void }) {
  const t = useT();
  const status = useSignedInQuery(twoFactorQuery);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const [noted, setNoted] = useState(false);
  if (!status.data) return <p className="placeholder">{t('grid.loading')}</p>;
  return (
    <div className="two-factor">
      <section aria-labelledby="two-factor-totp">
        <h3 id="two-factor-totp">{t('twoFactor.totp.title')}</h3>
        {recoveryCodes ? (
          <RecoveryCodes
            codes={recoveryCodes}
            onDone={() => {
              setRecoveryCodes(null);
              setNoted(true);
              onFactor?.();
            }}
          />
        ) : status.data.totp ? (
          <RemoveTotp left={status.data.recovery_codes_left} focusStatus={noted} />
        ) : (
          <TotpSetup
            onConfirmed={(codes) => {
              // The codes first: onFactor (the end of a required enrolment) waits until they are noted.
              setRecoveryCodes(codes);
              void refresh();
            }}
          />
        )}
      </section>
      <Passkeys
        passkeys={status.data.passkeys}
        onAdded={() => {
          void refresh();
          onFactor?.();
        }}
      />
    </div>
  );
}

/** The code of a TOTP form; a keystroke clears the server's refusal, else the field would stay invalid and the form refuse to send. */
function CodeField(p: { value: string; setValue: (v: string) => void; error: string | null; setError: (e: null) => void; label: string }) {
  const change = (v: string) => {
    p.setValue(v);
    p.setError(null);
  };
  return (
    <TextField className="field" value={p.value} onChange={change} isRequired isInvalid={p.error !== null} autoComplete="one-time-code" autoFocus>
      <Label>{p.label}</Label>
      <Input name="code" spellCheck={false} />
      <FieldError className="login-error">{p.error}</FieldError>
    </TextField>
  );
}

function TotpSetup({ onConfirmed }: { onConfirmed: (codes: string[]) => void }) {
  const t = useT();
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const begin = async () => {
    setBusy(true);
    try {
      setEnrolment(await beginTotp());
    } catch (e) {
      toaster.error(messageOf(e, t('errors.generic')));
    } finally {
      setBusy(false);
    }
  };
  const confirm = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      const answer = await confirmTotp(code);
      toaster.success(answer.message);
      onConfirmed(answer.data.recovery_codes);
    } catch (e) {
      setError(messageOf(e, t('errors.generic')));
    } finally {
      setBusy(false);
    }
  };

  if (!enrolment) {
    return (
      <>
        <p className="muted">{t('twoFactor.totp.off')}</p>
        <Button className="btn btn-primary" onPress={() => void begin()} isDisabled={busy}>
          {t('twoFactor.totp.enable')}
        </Button>
      </>
    );
  }
  return (
    <Form onSubmit={(e) => void confirm(e)} className="totp-setup">
      <p>{t('twoFactor.totp.scan')}</p>
      {/* The server draws the QR code of the otpauth:// address (qrcode), an SVG of paths only. */}
      <div className="totp-qr" role="img" aria-label={t('twoFactor.totp.qr')} dangerouslySetInnerHTML={{ __html: enrolment.qr_svg }} />
      <p>
        {t('twoFactor.totp.secret')} <code className="totp-secret">{enrolment.secret.match(/.{1,4}/g)!.join(' ')}</code>
      </p>
      <CodeField value={code} setValue={setCode} error={error} setError={setError} label={t('twoFactor.code')} />
      <Button type="submit" className="btn btn-primary" isDisabled={busy || !code.trim()}>
        {t('twoFactor.totp.confirm')}
      </Button>
    </Form>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const t = useT();
  return (
    <div className="recovery">
      <p role="status">{t('twoFactor.recovery.help')}</p>
      <ol className="recovery-codes" aria-label={t('twoFactor.recovery.title')}>
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ol>
      <div className="dialog-actions">
        <Button
          className="btn"
          onPress={() => void navigator.clipboard?.writeText(codes.join('\n')).then(() => toaster.success(t('twoFactor.recovery.copied')))}
        >
          {t('twoFactor.recovery.copy')}
        </Button>
        <Button className="btn btn-primary" onPress={onDone} autoFocus>
          {t('twoFactor.recovery.done')}
        </Button>
      </div>
    </div>
  );
}

/** `focusStatus`: the codes were just noted; their button is gone, so the focus goes to the status line, not to <body>. */
function RemoveTotp({ left, focusStatus }: { left: number; focusStatus: boolean }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      toaster.success((await removeTotp(code)).message);
      await refresh();
    } catch (e) {
      setError(messageOf(e, t('errors.generic')));
    }
  };
  const statusRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (focusStatus) statusRef.current?.focus();
  }, [focusStatus]);
  return (
    <>
      <p ref={statusRef} tabIndex={-1}>
        {t('twoFactor.totp.on', { left })}
      </p>
      {open ? (
        <Form onSubmit={(e) => void submit(e)}>
          <CodeField value={code} setValue={setCode} error={error} setError={setError} label={t('twoFactor.totp.removeCode')} />
          <div className="dialog-actions">
            <Button className="btn" onPress={() => setOpen(false)}>
              {t('commands.confirm.cancel')}
            </Button>
            <Button type="submit" className="btn btn-danger" isDisabled={!code.trim()}>
              {t('twoFactor.totp.remove')}
            </Button>
          </div>
        </Form>
      ) : (
        <Button className="btn" onPress={() => setOpen(true)}>
          {t('twoFactor.totp.remove')}
        </Button>
      )}
    </>
  );
}

function Passkeys({ passkeys, onAdded }: { passkeys: readonly { id: number; name: string; created_at: string }[]; onAdded: () => void }) {
  const t = useT();
  const intl = useIntl();
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [editing, setEditing] = useState<{ id: number; name: string } | null>(null);

  const add = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      toaster.success((await addPasskey(name.trim())).message);
      setName('');
      onAdded();
    } catch (e) {
      toaster.error(messageOf(e, t('twoFactor.passkeys.cancelled')));
    } finally {
      setBusy(false);
    }
  };
  const rename = async (event: FormEvent) => {
    event.preventDefault();
    if (!editing) return;
    try {
      toaster.success((await renamePasskey(editing.id, editing.name)).message);
      setEditing(null);
      await refresh();
    } catch (e) {
      toaster.error(messageOf(e, t('errors.generic')));
    }
  };
  const remove = async (id: number) => {
    try {
      toaster.success((await removePasskey(id)).message);
      await refresh();
    } catch (e) {
      toaster.error(messageOf(e, t('errors.generic')));
    }
  };

  return (
    <section aria-labelledby="two-factor-passkeys">
      <h3 id="two-factor-passkeys">{t('twoFactor.passkeys.title')}</h3>
      {passkeys.length === 0 ? <p className="muted">{t('twoFactor.passkeys.none')}</p> : null}
      <ul className="passkeys">
        {passkeys.map((p) =>
          editing?.id === p.id ? (
            <li key={p.id}>
              <Form onSubmit={(e) => void rename(e)} className="passkey-rename">
                <TextField className="field" value={editing.name} onChange={(v) => setEditing({ id: p.id, name: v })} isRequired maxLength={64} autoFocus>
                  <Label>{t('twoFactor.passkeys.name')}</Label>
                  <Input />
                </TextField>
                <Button className="btn" onPress={() => setEditing(null)}>
                  {t('commands.confirm.cancel')}
                </Button>
                <Button type="submit" className="btn btn-primary">
                  {t('twoFactor.passkeys.save')}
                </Button>
              </Form>
            </li>
          ) : (
            <li key={p.id}>
              <span>
                <strong>{p.name}</strong>{' '}
                <span className="muted">{t('twoFactor.passkeys.added', { date: intl.formatDate(p.created_at, { dateStyle: 'medium' }) })}</span>
              </span>
              <Button className="btn" onPress={() => setEditing({ id: p.id, name: p.name })} aria-label={t('twoFactor.passkeys.renameOf', { name: p.name })}>
                {t('twoFactor.passkeys.rename')}
              </Button>
              <Button className="btn btn-danger" onPress={() => void remove(p.id)} aria-label={t('twoFactor.passkeys.removeOf', { name: p.name })}>
                {t('twoFactor.passkeys.remove')}
              </Button>
            </li>
          ),
        )}
      </ul>
      <Form onSubmit={(e) => void add(e)} className="passkey-add">
        <TextField className="field" value={name} onChange={setName} isRequired maxLength={64}>
          <Label>{t('twoFactor.passkeys.name')}</Label>
          <Input placeholder={t('twoFactor.passkeys.placeholder')} />
        </TextField>
        <Button type="submit" className="btn btn-primary" isDisabled={busy || !name.trim()}>
          {t('twoFactor.passkeys.add')}
        </Button>
      </Form>
    </section>
  );
}
