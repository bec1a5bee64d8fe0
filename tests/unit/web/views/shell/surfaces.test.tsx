// @vitest-environment jsdom
// One path: every sidebar link, navbar button and tags-menu item runs a registry command.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { allScreens } from '../../../../../src/app/screens';
import { getCommandContext, provideCommandContext } from '../../../../../src/commands/context';
import { commandsOf, isAvailable, onCommandRun, type RunRecord } from '../../../../../src/commands/registry';
import { loadMessages, makeIntl, translator } from '../../../../../src/i18n';
import { IntlProvider } from '../../../../../src/i18n/provider';
import { ui } from '../../../../../src/state/ui';
import { setUserData, userState } from '../../../../../src/state/user';
import { Navbar } from '../../../../../src/views/shell/Navbar';
import { Sidebar } from '../../../../../src/views/shell/Sidebar';
import { TagsView } from '../../../../../src/views/shell/TagsView';
import { buildMenu } from '../../../../../src/views/shell/menu';
import { admin, facebookLandings, landings } from '../../commandsHarness';

const runs: RunRecord[] = [];
const cleanups: (() => void)[] = [];
beforeEach(() => {
  cleanups.push(onCommandRun((r) => runs.push(r)));
});
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
  runs.length = 0;
});

async function renderShell() {
  ui.visitedViews = [{ path: '/' }, { path: '/users' }, { path: '/taboola' }];
  ui.sidebar.opened = true;
  ui.device = 'desktop';
  ui.language = 'fr';
  setUserData(admin);
  cleanups.push(() => {
    userState.userData = null;
  });
  const intl = makeIntl('fr', await loadMessages('fr'));
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
  client.setQueryData(['landings'], landings);
  client.setQueryData(['landings_facebook'], facebookLandings);
  const router = createMemoryRouter(
    [
      {
        path: '/',
        element: (
          <>
            <Sidebar />
            <Navbar />
            <TagsView />
            <Outlet />
          </>
        ),
        children: allScreens().map((s) => ({
          path: s.path || undefined,
          index: s.path === '' ? true : undefined,
          handle: { screen: s },
          element: null,
        })) as never,
      },
    ],
    { initialEntries: ['/users'] },
  );
  const navigations: string[] = [];
  const ctx = provideCommandContext({ user: admin, view: 'users', path: '/users', navigate: (to) => navigations.push(to), t: translator(intl) });
  cleanups.push(ctx.remove);
  const view = render(
    <QueryClientProvider client={client}>
      <IntlProvider initial={intl}>
        <RouterProvider router={router} />
      </IntlProvider>
    </QueryClientProvider>,
  );
  cleanups.push(view.unmount);
  return { navigations, t: translator(intl) };
}

it('runs a command from every sidebar link', async () => {
  const { navigations } = await renderShell();
  const user = userEvent.setup();
  const sidebar = screen.getByRole('navigation', { name: 'Menu principal' });
  for (const group of ['Facebook', 'Production', 'Lives', 'Administration']) {
    // Landings and the group of the current screen (Administration, for /users) start open.
    if (!within(sidebar).queryByRole('list', { name: group })) await user.click(within(sidebar).getByRole('button', { name: new RegExp(`^${group}`) }));
  }
  const links = within(sidebar).getAllByRole('link');
  for (const link of links) await user.click(link);
  expect(runs.every((r) => r.source === 'sidebar' && r.outcome === 'ran')).toBe(true);
  expect(runs).toHaveLength(links.length);
  // Where the declarations say the sidebar leads: the brand's home, then the landings and the screens' entries.
  const declared = buildMenu(getCommandContext(), landings, facebookLandings).flatMap((g) => g.entries.map((e) => e.href));
  expect(navigations).toEqual(['/', ...declared]);
});

it('runs a command from every navbar button', async () => {
  const { t } = await renderShell();
  const user = userEvent.setup();
  // The navbar's buttons are the commands its three menus declare, available here.
  const ctx = getCommandContext();
  const declared = (['navbar.start', 'navbar', 'navbar.end'] as const).flatMap((menu) =>
    commandsOf(menu)
      .filter((m) => isAvailable(m.command, ctx))
      .map((m) => ({ id: m.command.id, name: t(m.place.label ?? m.command.title) })),
  );
  for (const { name } of declared) {
    // A button with a visible label is named by it, an icon alone by its title (and key).
    await user.click(screen.getByRole('button', { name: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) }));
    act(() => {
      ui.palette = { open: false, section: null };
      ui.helpOpen = false;
      ui.errorLogOpen = false;
      ui.twoFactorOpen = false;
    });
  }
  expect(declared.length).toBeGreaterThan(3);
  expect(runs.map((r) => `${r.source}:${r.id}`)).toEqual(declared.map((c) => `navbar:${c.id}`));
});

it('runs a command from every item of the tags menu, and from a tag and its close button', async () => {
  const { navigations } = await renderShell();
  const user = userEvent.setup();
  const tags = screen.getByRole('navigation', { name: 'Vues visitées' });
  for (const item of ['Rafraîchir la vue', 'Fermer la vue', 'Fermer les autres vues', 'Fermer toutes les vues']) {
    ui.visitedViews = [{ path: '/' }, { path: '/users' }, { path: '/taboola' }];
    fireEvent.contextMenu(await within(tags).findByRole('link', { name: 'Taboola' }));
    await user.click(await screen.findByRole('menuitem', { name: item }));
  }
  ui.visitedViews = [{ path: '/' }, { path: '/users' }];
  await user.click(await within(tags).findByRole('link', { name: 'Accueil' }));
  await user.click(within(tags).getByRole('button', { name: 'Fermer Accueil' }));
  expect(runs.map((r) => `${r.source}:${r.id}:${(r.args as { path?: string }).path}`)).toEqual([
    'tags:tags.refresh:/taboola',
    'tags:tags.close:/taboola',
    'tags:tags.closeOthers:/taboola',
    'tags:tags.closeAll:/taboola',
    'tags:tags.open:/',
    'tags:tags.close:/',
  ]);
  expect(navigations).toContain('/redirect/taboola');
});
