// The palette bench page: our palette (PaletteList, the real component) and stock cmdk with its
// default filtering, over the same 10,000 entries; window.paletteBench times an open and a keystroke.
import { Command } from 'cmdk';
import { useEffect, useState } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { makeEntry, type PaletteEntry, type PaletteGroup } from '../../../src/commands/palette/entries';
import { PaletteList } from '../../../src/commands/palette/PaletteList';
import { loadMessages, makeIntl } from '../../../src/i18n';
import { IntlProvider } from '../../../src/i18n/provider';
import '../../../src/styles/base.css';
import '../../../src/styles/shell.css';

const products = ['Pompe à chaleur', 'Panneaux solaires', 'Isolation des combles', 'Chaudière à granulés', 'Mutuelle santé', 'Fenêtres PVC'];
const regions = ['Occitanie', 'Île-de-France', 'Provence', 'Bretagne', 'Hauts-de-France', 'Nouvelle-Aquitaine', 'Grand Est'];
const surnames = ['Dupont', 'Lefèvre', 'Moreau', 'Girard', 'Bénard', 'Chevalier', 'Rousseau', 'Fournier', 'Gaël', 'Étienne'];

/** 10,000 entries (or ?n=…) as the palette lists them: landings, customers, users and a few screens. */
function entries(): PaletteEntry[] {
  const n = Number(new URLSearchParams(location.search).get('n') ?? 10_000);
  const share = (count: number) => Math.round((count * n) / 10_000);
  const out: PaletteEntry[] = [];
  const add = (group: PaletteGroup, label: string, hint: string, i: number) =>
    out.push(makeEntry({ key: `${group}:${i}`, group, label, hint, command: 'nav.leads', args: { id: i } }));
  for (let i = 0; i < share(4000); i++) add('landings', `${products[i % 6]} ${regions[i % 7]} ${i}`, `#${i}`, i);
  for (let i = 0; i < share(1000); i++) add('facebook', `FB ${products[(i + 2) % 6]} ${regions[(i + 3) % 7]} ${i}`, `#${i}`, i);
  for (let i = 0; i < share(3000); i++) add('customers', `${surnames[i % 10]} Énergie ${i}`, `contact${i}@client.fr`, i);
  for (let i = 0; i < share(1990); i++) add('users', `${surnames[(i + 4) % 10]} ${regions[i % 7]} ${i}`, `agent${i}@leads.fr`, i);
  for (let i = 0; i < 10; i++) add('screens', `Écran ${i}`, '', i);
  return out;
}

const all = entries();
const groups = [...new Set(all.map((e) => e.group))];

function Stock() {
  return (
    <Command label="stock" className="palette-command">
      <Command.Input className="palette-input" />
      <Command.List className="palette-list">
        <Command.Empty>Aucun résultat</Command.Empty>
        {groups.map((g) => (
          <Command.Group key={g} heading={g} className="palette-group">
            {all
              .filter((e) => e.group === g)
              .map((e) => (
                <Command.Item key={e.key} value={e.key} keywords={[e.label, e.hint ?? '']} className="palette-item">
                  <span className="palette-label">{e.label}</span>
                  <span className="palette-hint">{e.hint}</span>
                </Command.Item>
              ))}
          </Command.Group>
        ))}
      </Command.List>
    </Command>
  );
}

type Kind = 'mine' | 'stock';
let show: (kind: Kind | null) => void = () => {};

function Bench() {
  const [kind, setKind] = useState<Kind | null>(null);
  useEffect(() => {
    show = setKind;
    window.paletteBench.ready = true;
  }, []);
  if (!kind) return null;
  return (
    <div className="palette" role="dialog" aria-label="palette">
      {kind === 'mine' ? <PaletteList entries={all} onRun={() => {}} placeholder="Rechercher" /> : <Stock />}
    </div>
  );
}

/** Style, layout and the React work all done: what the next frame would paint. */
const settle = () => document.querySelector('.palette')?.getBoundingClientRect();
const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;

declare global {
  interface Window {
    paletteBench: {
      ready: boolean;
      entries: number;
      open(kind: Kind): number;
      close(): void;
      type(query: string): number;
      results(): number;
      reach(steps: number): Promise<{ visited: number; end: string; last: string }>;
    };
  }
}

window.paletteBench = {
  ready: false,
  entries: all.length,
  open(kind) {
    const t0 = performance.now();
    flushSync(() => show(kind));
    settle();
    return performance.now() - t0;
  },
  close() {
    flushSync(() => show(null));
  },
  /** Types into the palette's own input, as a keystroke does: the input event, the filtering, the new rows. */
  type(query) {
    const input = document.querySelector<HTMLInputElement>('.palette input')!;
    const t0 = performance.now();
    flushSync(() => {
      setValue.call(input, query);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
    settle();
    return performance.now() - t0;
  },
  results: () => document.querySelectorAll('[cmdk-item]').length,
  /**
   * With an empty query: the entries ArrowDown visits one by one from the first (`steps` of them,
   * each a new one), and the entry End reaches, which must be the last of the whole list.
   */
  async reach(steps) {
    const input = document.querySelector<HTMLInputElement>('.palette input')!;
    const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const active = () => document.querySelector('[cmdk-item][data-selected=true]')?.getAttribute('data-value') ?? '';
    const press = async (key: string) => {
      input.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
      await frame();
      return active();
    };
    const seen = new Set([active()]);
    for (let i = 0; i < steps; i++) seen.add(await press('ArrowDown'));
    return { visited: seen.size, end: await press('End'), last: all.filter((e) => e.group === 'users').at(-1)!.key };
  },
};

const intl = makeIntl('fr', await loadMessages('fr'));
createRoot(document.getElementById('root')!).render(
  <IntlProvider initial={intl}>
    <Bench />
  </IntlProvider>,
);
