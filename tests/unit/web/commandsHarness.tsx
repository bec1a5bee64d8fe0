/** Renders the command surfaces (palette, help, confirm) as the shell does, with the real catalogs and registry. */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import '../../../src/app/commands';
import { ConfirmHost } from '../../../src/commands/ConfirmHost';
import { provideCommandContext, type CommandContextValues } from '../../../src/commands/context';
import { HelpOverlay } from '../../../src/commands/HelpOverlay';
import { installHotkeys } from '../../../src/commands/hotkeys';
import { Palette } from '../../../src/commands/palette/Palette';
import { SequenceHint } from '../../../src/commands/SequenceHint';
import type { User } from '../../../src/api/auth/contract';
import type { Landing } from '../../../src/api/landings/contract';
import { loadMessages, makeIntl, translator } from '../../../src/i18n';
import { IntlProvider } from '../../../src/i18n/provider';
import { ui } from '../../../src/state/ui';
import { patchDom } from './domPatch';

export const admin: User = { id: 1, email: 'admin@demo.local', name: 'Alice Admin', admin: true, role: 'admin' };
export const staff: User = { id: 2, email: 'staff@demo.local', name: 'Sam Staff', admin: false, role: 'normal' };

const landing = (id: number, name: string, kind: Landing['kind'] = 'standard'): Landing => ({
  id,
  key: `lp-${id}`,
  name,
  kind,
  category: 'pac',
  zone_climatique: false,
  columns: [],
  thank_you_url: null,
  max_buyers: 1,
});

export const landings = [landing(1, 'PAC Air-Eau'), landing(2, 'PAC Air-Air'), landing(3, 'Panneaux Solaires')];
export const facebookLandings = [landing(7, 'FB Pompe à chaleur', 'facebook')];
/** Customer 11's rule: the palette lists it under its name, and the customer with its rules' names as keywords. */
const rule = { id: 3, name: 'PAC toutes zones', customer_id: 11, customer_name: 'Chauffage Dupont', landings: [] };

/** What the palette needs of a browser, for one render: jsdom has no layout to observe or scroll. */
function layOutPalette(): () => void {
  // The palette's list is virtualized: give it the size a browser would, so its rows render.
  const paletteSize = (size: number) => ({
    get(this: HTMLElement) {
      return this.classList.contains('palette-list') ? size : 0;
    },
  });
  // …and scrolling it moves what it renders, as in a browser (jsdom keeps no scroll position).
  const scrolled = new WeakMap<Element, number>();
  const scrollTop = Object.getOwnPropertyDescriptor(Element.prototype, 'scrollTop')!;
  const undo = [
    patchDom(globalThis, {
      ResizeObserver: {
        value: class {
          observe() {}
          unobserve() {}
          disconnect() {}
        },
      },
    }),
    patchDom(HTMLElement.prototype, {
      clientHeight: paletteSize(480),
      clientWidth: paletteSize(640),
      scrollHeight: {
        get(this: HTMLElement) {
          const rows = this.classList.contains('palette-list') ? this.querySelector<HTMLElement>('.palette-rows') : null;
          return rows ? parseFloat(rows.style.height) : 0;
        },
      },
    }),
    patchDom(Element.prototype, {
      scrollTop: {
        get(this: Element) {
          return this.classList.contains('palette-list') ? (scrolled.get(this) ?? 0) : scrollTop.get!.call(this);
        },
        set(this: Element, value: number) {
          if (this.classList.contains('palette-list')) scrolled.set(this, value);
          else scrollTop.set!.call(this, value);
        },
      },
      scrollTo: {
        value(this: Element, options?: ScrollToOptions | number) {
          const top = typeof options === 'object' ? options.top : undefined;
          if (top === undefined) return;
          this.scrollTop = top;
          this.dispatchEvent(new Event('scroll'));
        },
      },
    }),
  ];
  return () => undo.forEach((u) => u());
}

export async function renderCommands(user: User, extra: CommandContextValues = {}, children?: ReactNode) {
  ui.palette = { open: false, section: null };
  ui.helpOpen = false;
  ui.language = 'fr';
  const intl = makeIntl('fr', await loadMessages('fr'));
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  client.setQueryData(['landings'], landings);
  client.setQueryData(['landings_facebook'], facebookLandings);
  client.setQueryData(
    ['customers'],
    [
      {
        id: 11,
        name: 'Chauffage Dupont',
        email: 'contact@dupont.fr',
        active: true,
        webhook_url: null,
        webhook_secret: null,
        rules: [{ id: 3, name: rule.name, active: true }],
        created_at: '2026-01-05T09:00:00Z',
      },
    ],
  );
  client.setQueryData(['rules', 0], [rule]);
  client.setQueryData(['users'], [admin, staff]);
  const navigations: string[] = [];
  const context = provideCommandContext({
    user,
    view: 'home',
    path: '/',
    navigate: (to: string) => navigations.push(to),
    t: translator(intl),
    ...extra,
  });
  const unpatch = layOutPalette();
  const uninstall = installHotkeys();
  const view = render(
    <QueryClientProvider client={client}>
      <IntlProvider initial={intl}>
        <Palette />
        <HelpOverlay />
        <ConfirmHost />
        <SequenceHint />
        <label>
          Note
          <input aria-label="Note" />
        </label>
        {children}
      </IntlProvider>
    </QueryClientProvider>,
  );
  return {
    ...view,
    navigations,
    context,
    cleanup() {
      view.unmount();
      uninstall();
      context.remove();
      unpatch();
    },
  };
}
