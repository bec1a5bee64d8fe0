import { useEffect, useMemo, useRef } from 'react';
import { Radio, RadioGroup, Label } from 'react-aria-components';
import { useSearchParams } from 'react-router';
import { useSnapshot, ref } from 'valtio';
import { productionCategory } from '../../api/productions/contract';
import { useFacebookLandings, useLandings } from '../../api/landings/hooks';
import { useCampaignLandings, useTaboolaAccounts, useTaboolaCampaigns, useTargeting } from '../../api/taboola/hooks';
import { CommandButton } from '../../commands/CommandButton';
import { CommandMenu } from '../../commands/CommandMenu';
import { useProvideCommandContext } from '../../commands/context';
import { runCommand } from '../../commands/registry';
import { useIntl, useT } from '../../i18n/provider';
import '../../styles/admin.css';
import { MultiSelect, SingleSelect } from '../../ui/ChoiceSelect';
import { resetSend, taboolaView, type TaboolaCommandContext } from './store';

/** /taboola: an account, then a campaign, its postal codes as Taboola holds them, and a new targeting to send. */
export default function TaboolaScreen() {
  const t = useT();
  const intl = useIntl();
  const [search] = useSearchParams();
  const accountId = search.get('account');
  const campaignId = accountId ? search.get('campaign') : null;
  const accounts = useTaboolaAccounts();
  const campaigns = useTaboolaCampaigns(accountId);
  const targeting = useTargeting(accountId, campaignId);
  const linked = useCampaignLandings(accountId, campaignId);
  const standard = useLandings();
  const facebook = useFacebookLandings();
  const landingChoices = useMemo(
    () => [...(standard.data ?? []), ...(facebook.data ?? [])].map((l) => ({ id: l.id, name: l.name })),
    [standard.data, facebook.data],
  );
  const view = useSnapshot(taboolaView);
  const current = targeting.data?.data;

  // Another campaign (or account): the form starts again from its targeting once read.
  const formOf = useRef<string | null>(null);
  useEffect(() => {
    const key = campaignId && current ? `${accountId}/${campaignId}` : null;
    if (key === formOf.current) return;
    formOf.current = key;
    resetSend(key ? current! : null);
  }, [accountId, campaignId, current]);

  const ctx: TaboolaCommandContext = useMemo(
    () => ({
      accountId,
      campaignId,
      accounts: accounts.data?.data ?? [],
      campaigns: campaigns.data?.data ?? [],
      targeting: current ?? null,
      landings: linked.data?.landings ?? [],
    }),
    [accountId, campaignId, accounts.data, campaigns.data, current, linked.data],
  );
  useProvideCommandContext({ view: 'taboola', taboola: ctx });

  const sandbox = accounts.data?.sandbox || campaigns.data?.sandbox || targeting.data?.sandbox;
  const loadError = accounts.error ?? campaigns.error ?? targeting.error;

  return (
    <section className="admin-view taboola-view" aria-labelledby="taboola-title">
      <h1 id="taboola-title">{t('shell.screen.taboola')}</h1>
      {sandbox ? (
        <p className="notice" role="note">
          {t('taboola.sandbox')}
        </p>
      ) : null}
      {loadError ? (
        <p role="alert" className="admin-error">
          {loadError.message || t('taboola.error.load')}
        </p>
      ) : null}
      <div className="admin-bar">
        <SingleSelect
          label={t('taboola.account')}
          placeholder={t('taboola.account.choose')}
          items={ctx.accounts.map((a) => ({ id: a.account_id, name: a.name }))}
          value={accountId}
          loading={!accounts.data}
          onChange={(id) => id !== null && void runCommand('taboola.pickAccount', { accountId: String(id) }, 'button')}
          field="account"
        />
        <SingleSelect
          label={t('taboola.campaign')}
          placeholder={accountId ? t('taboola.campaign.choose') : t('taboola.campaign.accountFirst')}
          items={ctx.campaigns.map((c) => ({ id: c.id, name: c.name }))}
          value={campaignId}
          isDisabled={!accountId}
          loading={!campaigns.data}
          onChange={(id) => id !== null && void runCommand('taboola.pickCampaign', { campaignId: String(id) }, 'button')}
          field="campaign"
        />
      </div>

      {campaignId ? (
        <div className="taboola-panes">
          <section className="admin-section taboola-pane" aria-labelledby="taboola-current">
            <h2 id="taboola-current" className="taboola-pane-title">
              {t('taboola.current')}
            </h2>
            <div className="admin-section-body" aria-busy={targeting.isFetching} aria-live="polite">
              {current ? (
                <>
                  <p>
                    {current.type === 'ALL'
                      ? t('taboola.current.all')
                      : t(current.type === 'INCLUDE' ? 'taboola.current.include' : 'taboola.current.exclude', {
                          count: intl.formatNumber(current.codes.length),
                        })}
                  </p>
                  {current.codes.length ? <CodeList codes={current.codes} label={t('taboola.current')} /> : null}
                </>
              ) : (
                <p className="muted">{t('taboola.loading')}</p>
              )}
            </div>
          </section>

          <section className="admin-section taboola-pane" aria-labelledby="taboola-next">
            <h2 id="taboola-next" className="taboola-pane-title">
              {t('taboola.next')}
            </h2>
            {/* Until the campaign's targeting is read, no form: it starts from that targeting. */}
            {current ? (
              <div className="admin-section-body" data-taboola-send="">
                <div className="admin-bar">
                  <MultiSelect
                    label={t('taboola.landings')}
                    placeholder={t('taboola.landings.none')}
                    items={landingChoices}
                    value={ctx.landings}
                    onChange={(ids) => void runCommand('taboola.linkLandings', { landings: ids.map(Number) }, 'button')}
                    field="campaign-landings"
                  />
                  <CommandButton command="taboola.covered" />
                </div>
                <RadioGroup
                  className="field field-compact"
                  value={view.type}
                  onChange={(v) => (taboolaView.type = v as 'ALL' | 'INCLUDE')}
                  orientation="horizontal"
                >
                  <Label>{t('taboola.type')}</Label>
                  <div className="admin-radio-group">
                    <Radio value="ALL" className="admin-radio">
                      {t('taboola.type.ALL')}
                    </Radio>
                    <Radio value="INCLUDE" className="admin-radio">
                      {t('taboola.type.INCLUDE')}
                    </Radio>
                  </div>
                </RadioGroup>
                {view.type === 'INCLUDE' ? (
                  <>
                    <div className="field field-compact">
                      <span id="taboola-file-label">{t('taboola.file')}</span>
                      <div className="admin-bar">
                        {/* The native input's own button speaks the browser's language: a command button opens it instead. */}
                        <input
                          type="file"
                          className="visually-hidden"
                          tabIndex={-1}
                          aria-labelledby="taboola-file-label"
                          accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
                          data-taboola-file=""
                          onChange={(e) => {
                            const file = e.target.files?.[0] ?? null;
                            taboolaView.file = file ? ref(file) : null;
                            taboolaView.unknown = [];
                            if (file) taboolaView.codes = [];
                          }}
                        />
                        <CommandButton command="taboola.chooseFile" />
                        <span aria-live="polite">{view.file ? view.file.name : t('taboola.file.none')}</span>
                      </div>
                    </div>
                    <p className="muted">{t('taboola.file.help')}</p>
                    <div className="admin-bar">
                      <label className="field field-compact">
                        <span>{t('taboola.departements')}</span>
                        <input
                          type="text"
                          value={view.departements}
                          placeholder="30, 34, 2A"
                          data-taboola-departements=""
                          onChange={(e) => (taboolaView.departements = e.target.value)}
                          onKeyDown={(e) => {
                            if (e.key !== 'Enter') return;
                            e.preventDefault();
                            void runCommand('taboola.departements', undefined, 'button');
                          }}
                        />
                      </label>
                      <CommandButton command="taboola.departements" />
                    </div>
                    <div className="admin-bar" role="group" aria-label={t('taboola.fromMap')}>
                      <span className="muted">{t('taboola.fromMap.lead')}</span>
                      {productionCategory.options.map((category) => (
                        <CommandButton key={category} command="taboola.fromMap" args={{ category }}>
                          {t(`shell.screen.production.${category}`)}
                        </CommandButton>
                      ))}
                    </div>
                    {view.codes.length ? (
                      <>
                        <p>{t('taboola.codes.ready', { count: intl.formatNumber(view.codes.length) })}</p>
                        <CodeList codes={view.codes} label={t('taboola.codes.readyList')} />
                      </>
                    ) : null}
                  </>
                ) : null}
                {view.unknown.length ? (
                  <div role="alert">
                    <p className="admin-error">{t('taboola.unknown', { count: view.unknown.length })}</p>
                    <CodeList codes={view.unknown} label={t('taboola.unknown.list')} unknown />
                  </div>
                ) : null}
                <CommandMenu menu="taboola.actions" variant="toolbar" label={t('taboola.actions')} className="admin-actions" />
              </div>
            ) : (
              <p className="admin-section-body muted">{t('taboola.loading')}</p>
            )}
          </section>
        </div>
      ) : (
        <p className="muted">{accountId ? t('taboola.hint.campaign') : t('taboola.hint.account')}</p>
      )}
    </section>
  );
}

function CodeList({ codes, label, unknown }: { codes: readonly string[]; label: string; unknown?: boolean }) {
  return (
    // Scrolls on its own: focusable so the keyboard can scroll it too.
    <ul className={unknown ? 'admin-codes is-unknown' : 'admin-codes'} aria-label={label} tabIndex={0}>
      {codes.map((c) => (
        <li key={c}>{c}</li>
      ))}
    </ul>
  );
}
