import { describe, expect, it } from 'vitest';
import type { User } from '../../../../../src/api/auth/contract';
import type { Landing } from '../../../../../src/api/landings/contract';
import '../../../../../src/app/commands';
import { allScreens, entriesOf, screenForPath, screenPath } from '../../../../../src/commands/screens';
import { getCommandContext, provideCommandContext } from '../../../../../src/commands/context';
import { pickLanguage } from '../../../../../src/i18n';
import { addVisitedView, closeOtherVisitedViews, closeVisitedView, deviceFor, ui } from '../../../../../src/state/ui';
import { buildMenu } from '../../../../../src/views/shell/menu';

const admin: User = { id: 1, email: 'a@x.fr', name: 'A', admin: true, role: 'admin' };
const staff: User = { id: 2, email: 's@x.fr', name: 'S', admin: false, role: 'normal' };
const lp = (id: number, name: string): Landing => ({
  id,
  key: `k${id}`,
  name,
  kind: 'standard',
  category: 'pv',
  zone_climatique: false,
  columns: [],
  thank_you_url: null,
  max_buyers: 1,
});

/** The command context of this user (null: before the user record is loaded). */
function as(user: User | null) {
  const slot = provideCommandContext({ user });
  const ctx = getCommandContext();
  slot.remove();
  return ctx;
}

describe('sidebar menu', () => {
  it('gives an admin every group of docs/product.md §2, each entry running a command', () => {
    const menu = buildMenu(as(admin), [lp(3, 'PV Autoconsommation Sud')], [lp(9, 'FB Isolation')]);
    expect(menu.map((g) => g.id)).toEqual(['landings', 'facebook', 'production', 'lives', 'administration']);
    expect(menu[0].entries[0]).toMatchObject({
      routePath: 'PVAutoconsommation Sud',
      href: '/landings_test/3',
      title: 'PV Autoconsommation Sud',
      command: 'nav.leads',
      args: { id: 3 },
    });
    const hrefs = (group: string) => menu.find((g) => g.id === group)!.entries.map((e) => e.href);
    // The links of docs/product.md §2 in its order; a screen added later may stand among them.
    const inSpecOrder = (group: string, spec: string[]) => expect(hrefs(group).filter((h) => spec.includes(h))).toEqual(spec);
    inSpecOrder('production', ['/production/pac', '/production/pv', '/production/other']);
    inSpecOrder('lives', ['/customers', '/customers/rules/0']);
    inSpecOrder('administration', ['/users', '/exports/0', '/taboola']);
    expect(menu.find((g) => g.id === 'production')!.entries.map((e) => e.command)).toEqual(['nav.production', 'nav.production.pv', 'nav.production.other']);
  });

  it('shows an admin every menu place the screens declare, in its group', () => {
    const menu = buildMenu(as(admin), [], []);
    for (const screen of allScreens()) {
      for (const entry of entriesOf(screen)) {
        if (!entry.menu) continue;
        expect(menu.find((g) => g.id === entry.menu!.group)?.entries.map((e) => e.href)).toContain(screenPath(screen, entry.params));
      }
    }
  });

  it('hides Lives and Administration from a normal user, and Production until the user record is loaded', () => {
    expect(buildMenu(as(staff), [], []).map((g) => g.id)).toEqual(['landings', 'facebook', 'production']);
    expect(buildMenu(as(null), [], []).map((g) => g.id)).toEqual(['landings', 'facebook']);
  });
});

describe('shell state', () => {
  it('switches to the mobile layout when the width minus 3 is below 1024', () => {
    expect(deviceFor(1026)).toBe('mobile');
    expect(deviceFor(1027)).toBe('desktop');
  });

  it('picks the browser language among fr, en, es, zh, else English', () => {
    expect(pickLanguage(['de-DE', 'es-ES', 'fr'])).toBe('es');
    expect(pickLanguage(['zh-CN'])).toBe('zh');
    expect(pickLanguage(['de', 'it'])).toBe('en');
  });

  it('opens one tag per path, and closing the current one shows its neighbour', () => {
    ui.visitedViews = [];
    for (const p of ['/', '/users', '/taboola', '/users']) addVisitedView(p);
    expect(ui.visitedViews.map((v) => v.path)).toEqual(['/', '/users', '/taboola']);
    expect(closeVisitedView('/users')).toBe('/taboola');
    expect(closeVisitedView('/taboola')).toBe('/');
    addVisitedView('/customers');
    closeOtherVisitedViews('/customers');
    expect(ui.visitedViews.map((v) => v.path)).toEqual(['/customers']);
  });

  it('finds the screen and parameters of a path', () => {
    expect(screenForPath('/customers/rules/rapports/12')).toMatchObject({ screen: { id: 'reports' }, params: { ruleId: '12' } });
    expect(screenForPath('/customers/rules/4')).toMatchObject({ screen: { id: 'rules' }, params: { customerId: '4' } });
    expect(screenForPath('/landings_test/3,4')).toMatchObject({ screen: { id: 'leads' }, params: { id: '3,4' } });
    expect(screenForPath('/nowhere')).toBeUndefined();
    // Parameters a screen cannot show are no screen: the router sends them to /404.
    expect(screenForPath('/production/xyz')).toBeUndefined();
    expect(screenForPath('/exports/abc')).toBeUndefined();
    expect(screenForPath('/customers/rules/rapports/0')).toBeUndefined();
    expect(screenForPath('/exports/0')).toMatchObject({ screen: { id: 'exports' } });
  });
});
