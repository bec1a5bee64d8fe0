import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { useSnapshot } from 'valtio';
import { useFacebookLandings, useLandings } from '../../api/landings/hooks';
import { departmentCode, productionCategory, type DepartmentCode, type ProductionCategory } from '../../api/productions/contract';
import { useCoverage, useProduction, useRegionsData } from '../../api/productions/hooks';
import { productionKey } from '../../api/productions/queries';
import { saveNote, saveSelection } from '../../api/productions/requests';
import { useProvideCommandContext } from '../../commands/context';
import { runCommand } from '../../commands/registry';
import { useIntl, useT } from '../../i18n/provider';
import { choroplethClasses } from '../../map/classes';
import { DepartmentMap, type PointerMode } from '../../map/DepartmentMap';
import { mapGeometry } from '../../map/geometry';
import type { Direction } from '../../map/navigation';
import { toaster } from '../../ui/toasts';
import { CoverageLegend, CoveragePatterns, coverageFills, UncoveredList } from './Coverage';
import { Legend } from './Legend';
import { NoteDialog } from './NoteDialog';
import { ProductionControls } from './ProductionControls';
import './production.css';
import { ProductionTable } from './ProductionTable';
import { StatisticsTable } from './StatisticsTable';
import { productionView, type ProductionCommandContext } from './store';

/** docs/product.md §9: colour choices are saved only after the screen's first 1.5 s. */
const INITIAL_LOAD_MS = 1500;

const arrows: Record<string, Direction> = { ArrowLeft: 'left', ArrowRight: 'right', ArrowUp: 'up', ArrowDown: 'down' };

/** The production map (/production/:category): choropleth of leads per department, notes, colours, tables. */
export default function ProductionScreen() {
  const t = useT();
  const intl = useIntl();
  const queryClient = useQueryClient();
  const category = productionCategory.parse(useParams().category) as ProductionCategory;
  const view = useSnapshot(productionView);
  const geometry = mapGeometry();

  // The landings of the category (standard and Facebook); all of them until the user chooses.
  const standard = useLandings();
  const facebook = useFacebookLandings();
  const categoryLandings = useMemo(
    () => [...(standard.data ?? []), ...(facebook.data ?? [])].filter((l) => l.category === category),
    [standard.data, facebook.data, category],
  );
  const landings = useMemo(() => view.landings[category] ?? categoryLandings.map((l) => l.id), [view.landings, category, categoryLandings]);

  // The saved selection and colours, shared by every user; the selection is then the screen's.
  // A jump from the palette (/production/pac?departement=FR-34) starts on that department.
  const production = useProduction(category);
  const [search] = useSearchParams();
  const jumped = useMemo(() => {
    const code = departmentCode.safeParse(search.get('departement'));
    return code.success && geometry.byCode.has(code.data) ? code.data : null;
  }, [search, geometry]);
  const [chosen, setChosen] = useState<DepartmentCode[] | null>(null);
  const selected = useMemo(() => chosen ?? (jumped ? [jumped] : (production.data?.selected ?? null)), [chosen, jumped, production.data]);
  const [focused, setActive] = useState<DepartmentCode | null>(null);
  const active = focused ?? jumped ?? selected?.[0] ?? 'FR-30';
  const ready = useRef(false);
  // Also on the page (data-saves), so a browser test waits for that state rather than for time.
  const [saves, setSaves] = useState(false);
  const loaded = production.data !== undefined;
  useEffect(() => {
    if (!loaded) return;
    const timer = setTimeout(() => {
      ready.current = true;
      setSaves(true);
    }, INITIAL_LOAD_MS);
    return () => clearTimeout(timer);
  }, [loaded]);

  const regions = useRegionsData({ category, start: view.start, end: view.end, landings, departments: selected ?? [] }, selected !== null);
  const counts = useMemo(() => new Map((regions.data?.departments ?? []).map((d) => [d.region, d.value])), [regions.data]);
  const classes = useMemo(() => choroplethClasses([...counts.values()], 6), [counts]);
  const notes = useMemo(() => new Map((production.data?.regions ?? []).map((r) => [r.region, r.text])), [production.data]);
  const colors = useMemo(
    () => new Map((production.data?.regions ?? []).filter((r) => r.color).map((r) => [r.region, r.color!] as [DepartmentCode, string])),
    [production.data],
  );
  const selectedSet = useMemo(() => new Set(selected ?? []), [selected]);
  const coverage = useCoverage(category, landings, view.coverage);
  const coverageOn = view.coverage && coverage.data !== undefined;
  const coverageOf = useMemo(() => new Map((coverage.data ?? []).map((d) => [d.departement, d])), [coverage.data]);
  const fills = useMemo(
    () => (coverageOn ? new Map([...coverageOf].map(([code, d]) => [code, coverageFills[d.state]] as [DepartmentCode, string])) : undefined),
    [coverageOn, coverageOf],
  );

  const mapRef = useRef<HTMLDivElement | null>(null);
  const nameOf = useCallback((code: DepartmentCode) => geometry.byCode.get(code)?.name ?? code, [geometry]);
  const noteOf = useCallback((code: DepartmentCode) => notes.get(code) ?? '', [notes]);

  const select = useCallback(
    async (codes: readonly DepartmentCode[], color: string = productionView.color ?? 'keep') => {
      const next = [...new Set(codes)];
      setChosen(next);
      if (!ready.current) return;
      try {
        await saveSelection(category, next, color);
        if (color !== 'keep') toaster.success(t('production.toast.color'));
        await queryClient.invalidateQueries({ queryKey: productionKey(category) });
      } catch {
        toaster.warning(t('production.error.save'));
      }
    },
    [category, queryClient, t],
  );
  const saveNoteOf = useCallback(
    async (code: DepartmentCode, text: string) => {
      try {
        await saveNote(category, code, text);
        toaster.success(t('production.toast.note'));
        await queryClient.invalidateQueries({ queryKey: productionKey(category) });
      } catch (error) {
        toaster.warning(error instanceof Error && error.message ? error.message : t('production.error.save'));
      }
    },
    [category, queryClient, t],
  );
  const move = useCallback((direction: Direction) => setActive(geometry.move(active, direction) ?? active), [geometry, active]);
  const focusMap = useCallback(() => mapRef.current?.focus(), []);

  const ctx: ProductionCommandContext = useMemo(
    () => ({ category, selected: selected ?? [], active, landings, select, setActive, move, focusMap, saveNote: saveNoteOf, noteOf, nameOf }),
    [category, selected, active, landings, select, move, focusMap, saveNoteOf, noteOf, nameOf],
  );
  useProvideCommandContext({ view: 'production', production: ctx });

  // The map takes the focus as the screen opens (from the sidebar, whose link had it, a tag or a
  // reload), before the Statistiques grid below the fold can, and after a jump.
  useEffect(() => {
    const at = document.activeElement;
    const main = document.getElementById('main');
    if (jumped || !at || !main?.contains(at) || at === main || at.closest('.production-stats')) mapRef.current?.focus({ preventScroll: true });
  }, [jumped]);

  const onPointer = useCallback((code: DepartmentCode, mode: PointerMode) => {
    setActive(code);
    void runCommand(mode === 'note' ? 'production.note' : mode === 'toggle' ? 'production.toggle' : 'production.select', { code }, 'button');
  }, []);
  const onKeyDown = useCallback((e: KeyboardEvent<HTMLDivElement>) => {
    const direction = arrows[e.key];
    const command = direction
      ? `production.move.${direction}`
      : e.key === 'Enter'
        ? e.shiftKey
          ? 'production.note'
          : 'production.select'
        : e.key === ' '
          ? 'production.toggle'
          : null;
    if (!command || e.altKey || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    void runCommand(command, undefined, 'hotkey');
  }, []);

  const countText = useCallback(
    (code: DepartmentCode) => {
      const d = coverageOn ? coverageOf.get(code) : undefined;
      if (!d) return t('production.map.count', { count: counts.get(code) ?? 0 });
      const counted = t('production.coverage.counts', { open: d.open_rules, remaining: d.remaining_today, unsold: d.unsold_today });
      return `${t(`production.coverage.state.${d.state}`)}, ${counted}`;
    },
    [counts, coverageOn, coverageOf, t],
  );
  const optionLabel = useCallback(
    (code: DepartmentCode) => {
      const note = noteOf(code);
      return [`${nameOf(code)} (${code.slice(3)})`, countText(code), note ? t('production.map.noteStart', { note: note.slice(0, 80) }) : '']
        .filter(Boolean)
        .join(', ');
    },
    [nameOf, noteOf, countText, t],
  );
  const tooltip = useCallback(
    (code: DepartmentCode) => {
      const note = noteOf(code);
      return { title: `${nameOf(code)} (${code.slice(3)})`, lines: [countText(code), ...(note ? [note.length > 120 ? `${note.slice(0, 120)}…` : note] : [])] };
    },
    [nameOf, noteOf, countText],
  );
  const frameLabel = useCallback((id: string) => (id === 'paris' ? t('production.map.paris') : nameOf(id as DepartmentCode)), [nameOf, t]);

  const title = t(`shell.screen.production.${category}`);
  const selectedNames = (selected ?? []).map(nameOf);

  return (
    <section className="production-view" aria-labelledby="production-title" data-saves={saves ? '' : undefined}>
      <header className="production-head">
        <h1 id="production-title">{title}</h1>
        <ProductionControls category={category} landings={categoryLandings} chosen={landings} />
      </header>
      {landings.length === 0 && !standard.isPending ? (
        <p role="status" className="production-empty">
          {t('production.noLanding')}
        </p>
      ) : null}
      {regions.isError ? (
        <p role="alert" className="production-error">
          {t('production.error.regions')}
        </p>
      ) : null}
      <div className="production-body">
        <div className="production-map">
          <p id="production-map-description" className="visually-hidden">
            {t('production.map.description')}
          </p>
          <DepartmentMap
            label={t('production.map.label', { category: title })}
            descriptionId="production-map-description"
            counts={counts}
            classes={classes}
            fills={fills}
            colors={colors}
            selected={selectedSet}
            active={active}
            optionLabel={optionLabel}
            tooltip={tooltip}
            frameLabel={frameLabel}
            onPointer={onPointer}
            onKeyDown={onKeyDown}
            focusRef={mapRef}
          />
          <CoveragePatterns />
          {coverageOn ? <CoverageLegend /> : <Legend classes={classes} />}
          <p className="map-attribution">
            {t('production.map.attribution')}{' '}
            <a href="https://www.amcharts.com/" target="_blank" rel="noreferrer">
              amCharts
            </a>{' '}
            (
            <a href="/licenses/amcharts5-geodata-LICENSE.txt" target="_blank" rel="noreferrer">
              {t('production.map.licence')}
            </a>
            )
          </p>
        </div>
        <div className="production-side">
          <p className="production-selection" aria-live="polite">
            {selectedNames.length
              ? t('production.selection', { names: intl.formatList(selectedNames, { type: 'conjunction' }) })
              : t('production.selection.none')}
          </p>
          {coverageOn ? <UncoveredList coverage={coverage.data!} nameOf={nameOf} /> : null}
          <ProductionTable data={regions.data} busy={regions.isFetching} />
        </div>
      </div>
      <StatisticsTable
        category={category}
        counts={counts}
        coverage={coverageOn ? coverageOf : null}
        notes={notes}
        selected={selectedSet}
        open={view.statsOpen}
      />
      {view.noteFor ? <NoteDialog code={view.noteFor} name={nameOf(view.noteFor)} initial={noteOf(view.noteFor)} /> : null}
    </section>
  );
}
