import { useCallback, useMemo, useRef, useState } from 'react';
import { Tab, TabList, TabPanel, Tabs } from 'react-aria-components';
import { useLocation, useParams, useSearchParams } from 'react-router';
import { ApiError } from '../../api/client';
import { useViews } from '../../api/views/hooks';
import { knownColumns, listSearch, readListState } from '../../api/views/url';
import { CommandMenu } from '../../commands/CommandMenu';
import { useLandingsByIds, useStatusCounts } from '../../api/leads/hooks';
import { useProvideCommandContext } from '../../commands/context';
import type { GridColumnSpec, GridQuery, GridSelectionInfo } from '../../grid/types';
import { useT } from '../../i18n/provider';
import { ImportTab } from './import/ImportTab';
import { LandingPicker } from './LandingPicker';
import { LandingSettingsDialog } from './LandingSettingsDialog';
import { LandingsTab } from './LandingsTab';
import { viewAt } from './savedViews';
import { SaveViewDialog } from './SaveViewDialog';
import { Presence } from './Presence';
import './leads.css';
import { StatsTab } from './StatsTab';
import { StatusTab } from './StatusTab';
import { TabCount } from './TabCount';
import { leadTabs, statusOfTab, type LeadTab, type LeadsCommandContext } from './store';

/** A filter change this soon after the previous one continues the same typing: it replaces the history entry. */
const TYPING_MS = 2_000;

/** '3,5' → [3, 5]; anything else is dropped (the server answers 404 to unknown ids). */
export function parseLandingIds(param: string | undefined): number[] {
  return [...new Set((param ?? '').split(',').map(Number))].filter((n) => Number.isSafeInteger(n) && n > 0);
}

/** The lead view (/landings_test/:id): the selected landings' leads, statistics and import. */
export default function LeadsScreen() {
  const t = useT();
  const { id } = useParams();
  const landingIds = useMemo(() => parseLandingIds(id), [id]);
  const landings = useLandingsByIds(landingIds);
  const counts = useStatusCounts(landings.isSuccess ? landingIds : []);
  // The whole list is in the URL (listUrl.ts): a link opens it, back and forward walk its changes.
  const [search, setSearch] = useSearchParams();
  const columns = useMemo(() => knownColumns(landings.data), [landings.data]);
  const state = useMemo(() => readListState(search, columns), [search, columns]);
  const { tab } = state;
  const query = useMemo<GridQuery>(() => ({ filters: state.filters, sort: state.sort }), [state.filters, state.sort]);
  // A change is made to the list as the address has it when the user acts: the router renders a
  // navigation later (a transition), and a tab clicked right after a filter typed would otherwise
  // drop the filter's last letters, or a filter's change restore the tab left.
  const current = useCallback(() => readListState(new URLSearchParams(window.location.search), columns), [columns]);
  const setTab = useCallback((next: LeadTab) => setSearch(listSearch({ ...current(), tab: next })), [setSearch, current]);
  // Filters typed in bursts make one history entry: a change soon after the previous one replaces it.
  const lastFilterChange = useRef(0);
  const onQueryChange = useCallback(
    (next: GridQuery) => {
      const now = current();
      const filtering = next.sort?.key === now.sort?.key && next.sort?.dir === now.sort?.dir;
      const typing = filtering && Date.now() - lastFilterChange.current < TYPING_MS;
      lastFilterChange.current = filtering ? Date.now() : 0;
      setSearch(listSearch({ tab: now.tab, ...next }), { replace: typing });
    },
    [setSearch, current],
  );
  const title = landings.data?.map((l) => l.name).join(' - ') ?? '';

  const [selection, setSelection] = useState<GridSelectionInfo | null>(null);
  const views = useViews();
  const { pathname, search: here } = useLocation();
  const savedView = useMemo(() => viewAt(views.data ?? [], pathname + here), [views.data, pathname, here]);
  const [gridColumns, setGridColumns] = useState<readonly GridColumnSpec[]>([]);
  const status = statusOfTab(tab);

  // The focus moves on every keystroke: only what the actions need re-renders the view.
  const onSelectionChange = useCallback(
    (info: GridSelectionInfo) => {
      setSelection((prev) =>
        prev &&
        prev.selected === info.selected &&
        prev.allMatching === info.allMatching &&
        prev.total === info.total &&
        prev.totalExact === info.totalExact &&
        prev.filters === info.filters &&
        prev.sort === info.sort
          ? prev
          : info,
      );
    },
    [setSelection],
  );

  const leads: LeadsCommandContext = useMemo(
    () => ({ landingIds, tab, status, selection: status ? selection : null, columns: gridColumns, setTab, list: state, view: savedView }),
    [landingIds, tab, status, selection, gridColumns, setTab, state, savedView],
  );
  const selectedSet = useMemo(() => new Set([...(selection?.selected ?? [])].map(Number)), [selection?.selected]);
  // The tabs and their commands exist once the landings are known: an unknown landing (a stale
  // bookmark) asks for nothing more and shows one message.
  const shown = landings.isSuccess;
  useProvideCommandContext({ view: 'leads', selection: selectedSet, leads: shown ? leads : undefined });

  const zone = landings.data?.some((l) => l.zone_climatique) ?? false;
  const missing = landings.error instanceof ApiError && landings.error.status === 404;

  return (
    <section className="leads-view" aria-labelledby="leads-title">
      <header className="leads-head">
        <h1 id="leads-title">{title || t(missing ? 'leads.notFound.title' : 'leads.title')}</h1>
        {shown ? <Presence place={`landing:${landingIds.join('-')}/${tab}`} /> : null}
        <LandingPicker selected={landingIds} />
        {shown ? <CommandMenu menu="views.current" variant="toolbar" label={t('views.menu')} className="leads-views" /> : null}
      </header>
      {landings.isError ? (
        <p role="alert" className="leads-error">
          {missing ? t('leads.notFound.text', { count: landingIds.length }) : t('leads.error.landing')}
        </p>
      ) : landings.isPending ? (
        <p className="leads-loading">{t('grid.loading')}</p>
      ) : null}
      {shown ? (
        <Tabs selectedKey={tab} onSelectionChange={(key) => setTab(key as LeadTab)} className="screen-tabs">
          <TabList aria-label={t('leads.tabs')} className="screen-tablist">
            {leadTabs.map((def) => (
              <Tab key={def.key} id={def.key} className="screen-tab">
                {t(`leads.tab.${def.key}`)}
                {'status' in def ? (
                  <>
                    {' '}
                    <TabCount count={counts.data?.[def.status]} />
                  </>
                ) : null}
              </Tab>
            ))}
          </TabList>
          {leadTabs.map((def) => (
            <TabPanel key={def.key} id={def.key} className="leads-panel">
              {'status' in def ? (
                <StatusTab
                  landingIds={landingIds}
                  status={def.status}
                  selection={selection}
                  onSelectionChange={onSelectionChange}
                  onColumns={setGridColumns}
                  query={query}
                  onQueryChange={onQueryChange}
                />
              ) : 'stats' in def ? (
                <StatsTab landingIds={landingIds} category={def.stats} zoneAvailable={zone} />
              ) : def.key === 'landings' ? (
                <LandingsTab selected={landingIds} />
              ) : (
                <ImportTab landingIds={landingIds} landing={landings.data?.length === 1 ? landings.data[0] : undefined} loading={landings.isPending} />
              )}
            </TabPanel>
          ))}
        </Tabs>
      ) : null}
      <LandingSettingsDialog />
      <SaveViewDialog />
    </section>
  );
}
