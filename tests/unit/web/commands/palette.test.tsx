// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { admin, renderCommands, staff } from '../commandsHarness';

let cleanup = () => {};
afterEach(() => {
  cleanup();
  localStorage.clear();
});

async function openPalette(user: ReturnType<typeof userEvent.setup>) {
  await user.keyboard('{Control>}k{/Control}');
  return screen.findByRole('combobox');
}

const optionNames = () => screen.getAllByRole('option').map((o) => o.textContent ?? '');

describe('palette', () => {
  it('opens on mod+k with its groups, each entry showing its shortcut', async () => {
    const r = await renderCommands(admin);
    cleanup = r.cleanup;
    const user = userEvent.setup();
    const input = await openPalette(user);
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByText('Actions')).toBeTruthy();
    for (const [query, heading] of [
      ['regles', 'Écrans'],
      ['air', 'Landings'],
      ['pompe', 'Landings Facebook'],
      ['dupont', 'Clients → règles'],
      ['sam', 'Utilisateurs → exports'],
      ['english', 'Choix'],
    ]) {
      await user.clear(input);
      await user.keyboard(query);
      await waitFor(() => expect(within(dialog).getByText(heading)).toBeTruthy());
    }
    await user.clear(input);
    await user.keyboard('regles');
    const rules = await screen.findByRole('option', { name: /^Règles/ });
    expect([...rules.querySelectorAll('kbd')].map((k) => k.textContent)).toEqual(['G', 'R']);
  });

  it('reaches every entry with the keys, however many (the list is virtualized)', async () => {
    const r = await renderCommands(admin);
    cleanup = r.cleanup;
    const user = userEvent.setup();
    await openPalette(user);
    const selected = () => screen.getAllByRole('option').find((o) => o.getAttribute('aria-selected') === 'true')?.textContent;
    const first = selected();
    // The last group is the choices: the last theme colour, once every source's list has arrived
    // (a list arriving after End pushes the last entry further down).
    await waitFor(async () => {
      await user.keyboard('{End}');
      expect(selected()).toMatch(/^Couleur du thème/);
    });
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(selected()).toBe(first));
    await user.keyboard('{ArrowUp}{Home}{PageDown}');
    await waitFor(() => expect(selected()).not.toBe(first));
  });

  it('matches without accents or case and runs the chosen entry with Enter', async () => {
    const r = await renderCommands(admin);
    cleanup = r.cleanup;
    const user = userEvent.setup();
    await openPalette(user);
    await user.keyboard('REGLES');
    await waitFor(() => expect(optionNames()[0]).toMatch(/^Règles/));
    await user.keyboard('{Enter}');
    expect(r.navigations).toEqual(['/customers/rules/0']);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('moves with the arrows and opens the landing, customer and user entries where they lead', async () => {
    const r = await renderCommands(admin);
    cleanup = r.cleanup;
    const user = userEvent.setup();
    await openPalette(user);
    await user.keyboard('pac air');
    // Word starts first; 'Panneaux Solaires' (a PAC landing, 'air' inside 'solaires') comes after.
    await waitFor(() => expect(optionNames().map((n) => n.replace(/#\d+$/, ''))).toEqual(['PAC Air-Eau', 'PAC Air-Air', 'Panneaux Solaires']));
    expect(screen.getAllByRole('option')[0].getAttribute('aria-selected')).toBe('true');
    await user.keyboard('{ArrowDown}');
    expect(screen.getAllByRole('option')[1].getAttribute('aria-selected')).toBe('true');
    await user.keyboard('{Enter}');
    expect(r.navigations).toEqual(['/landings_test/2']);

    await openPalette(user);
    await user.keyboard('dupont');
    await user.keyboard('{Enter}');
    await openPalette(user);
    await user.keyboard('sam staff');
    await user.keyboard('{Enter}');
    await openPalette(user);
    await user.keyboard('pompe a chaleur');
    await user.keyboard('{Enter}');
    expect(r.navigations).toEqual(['/landings_test/2', '/customers/rules/11', '/exports/2', '/landings_test/7']);
  });

  it("ranks a match on an entry's label above a match on its keywords: a rule's name opens the rule, not its customer", async () => {
    const r = await renderCommands(admin);
    cleanup = r.cleanup;
    const user = userEvent.setup();
    await openPalette(user);
    // The customer lists its rules' names as keywords; its group comes first when the ranks are equal.
    await user.keyboard('PAC toutes zones');
    await waitFor(() => expect(optionNames()).toEqual(['PAC toutes zonesChauffage Dupont', 'Chauffage Dupontcontact@dupont.fr']));
    expect(screen.getByRole('option', { selected: true }).textContent).toBe('PAC toutes zonesChauffage Dupont');
    await user.keyboard('{Enter}');
    expect(r.navigations).toEqual(['/customers/rules/rapports/3']);
    // A prefix of the label, and a word of it, rank the same way ('zones' alone is the prefix of the command 'Zones sans acheteur').
    for (const query of ['pac tout', 'toutes']) {
      await openPalette(user);
      await user.keyboard(query);
      await waitFor(() => expect(optionNames()[0]).toBe('PAC toutes zonesChauffage Dupont'));
      await user.keyboard('{Escape}');
    }
  });

  it('lists what was run last in the Récents group', async () => {
    const r = await renderCommands(admin);
    cleanup = r.cleanup;
    const user = userEvent.setup();
    await openPalette(user);
    await user.keyboard('taboola{Enter}');
    await openPalette(user);
    await user.keyboard('{End}');
    await waitFor(() => expect(screen.getByText('Récents')).toBeTruthy());
    expect(screen.getAllByRole('option').at(-1)?.textContent).toBe('TaboolaGT');
  });

  it('g l lists only the landings', async () => {
    const r = await renderCommands(admin);
    cleanup = r.cleanup;
    const user = userEvent.setup();
    await user.keyboard('gl');
    await screen.findByPlaceholderText('Rechercher une landing…');
    expect(optionNames().map((n) => n.replace(/#\d+$/, ''))).toEqual(['PAC Air-Eau', 'PAC Air-Air', 'Panneaux Solaires', 'FB Pompe à chaleur']);
  });

  it('shows a normal user neither admin screens, customers nor users', async () => {
    const r = await renderCommands(staff);
    cleanup = r.cleanup;
    const user = userEvent.setup();
    const input = await openPalette(user);
    for (const hidden of ['Clients', 'Règles', 'Gestion des comptes', 'Gestion des exports', 'Taboola', 'Chauffage Dupont', 'Alice Admin']) {
      await user.clear(input);
      await user.keyboard(hidden);
      await waitFor(() => expect(screen.queryAllByRole('option').filter((o) => o.textContent?.startsWith(hidden))).toEqual([]));
    }
    await user.clear(input);
    await user.keyboard('production');
    await waitFor(() => expect(optionNames()).toContain('Production PACGPP'));
    await user.clear(input);
    await user.keyboard('dupont');
    expect(screen.getByText('Aucun résultat')).toBeTruthy();
  });

  it('closes with Escape and with mod+k', async () => {
    const r = await renderCommands(admin);
    cleanup = r.cleanup;
    const user = userEvent.setup();
    await openPalette(user);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await openPalette(user);
    await user.keyboard('{Control>}k{/Control}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});

describe('help overlay', () => {
  /** The admin's console with the help open on '?'. */
  async function openHelp() {
    const r = await renderCommands(admin);
    cleanup = r.cleanup;
    await userEvent.setup().keyboard('?');
    return screen.findByRole('dialog', { name: 'Raccourcis clavier' });
  }

  it('opens on ? and lists every command this user may run, with its keys when it has some', async () => {
    const help = await openHelp();
    const row = (id: string) => help.querySelector(`[data-command="${id}"]`);
    expect(row('nav.rules')?.textContent).toBe('RèglesGR');
    expect(row('shell.palette')?.textContent).toBe('Palette de commandesCtrlK');
    expect(row('nav.home')?.textContent).toBe('AccueilGA/GH');
    expect(row('nav.production.pv')?.textContent).toBe('Production PVGPV');
    // Without a key, and of another screen (the grid's and the lead view's), still listed.
    expect(row('shell.fullscreen')?.textContent).toBe('Plein écran');
    expect(row('grid.next')?.textContent).toMatch(/^Ligne suivante/);
  });

  it("says each command's keys to a screen reader: the caps are one image named 'G puis A', then 'ou G puis H'", async () => {
    const help = await openHelp();
    const keysOf = (id: string) =>
      within(help.querySelector<HTMLElement>(`[data-command="${id}"]`)!)
        .queryAllByRole('img')
        .map((k) => k.getAttribute('aria-label'));
    expect(keysOf('nav.home')).toEqual(['G puis A', 'ou G puis H']);
    expect(keysOf('shell.palette')).toEqual(['Ctrl+K']);
    expect(keysOf('shell.fullscreen')).toEqual([]);
  });

  it("opens on the current screen's section: it comes first", async () => {
    const sectionTitles = () => [...screen.getByRole('dialog', { name: 'Raccourcis clavier' }).querySelectorAll('h3')].map((h) => h.textContent);
    const user = userEvent.setup();
    for (const [view, title] of [
      ['exports', 'Exports'],
      ['rules', 'Règles'],
    ] as const) {
      const r = await renderCommands(admin, { view });
      await user.keyboard('?');
      await screen.findByRole('dialog', { name: 'Raccourcis clavier' });
      expect(sectionTitles()[0]).toBe(title);
      expect(sectionTitles()).toContain('Navigation');
      r.cleanup();
    }
  });

  it('leaves out what a normal user may not run', async () => {
    const r = await renderCommands(staff);
    cleanup = r.cleanup;
    const user = userEvent.setup();
    await user.keyboard('?');
    const help = await screen.findByRole('dialog', { name: 'Raccourcis clavier' });
    expect(help.querySelector('[data-command="nav.rules"]')).toBeNull();
    expect(help.querySelector('[data-command="nav.production"]')).not.toBeNull();
  });
});
