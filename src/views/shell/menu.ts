/**
 * The sidebar menu of docs/product.md §2, derived: the Landings and Facebook groups from the landing
 * lists, the other groups from the screens' entry points that declare a menu place
 * (src/commands/screens.ts). An entry shows when its command is available to this user here
 * (role and `when`): admins see everything, Production waits for the user record.
 */
import type { Landing } from '../../api/landings/contract';
import type { SavedView } from '../../api/views/contract';
import { viewHref } from '../../api/views/url';
import type { CommandContext } from '../../commands/context';
import { getCommand, isAvailable } from '../../commands/registry';
import { allScreens, entriesOf, hrefOf, menuGroups, navCommandId, screenPath, type MenuGroupId } from '../../commands/screens';
import type { IconName } from '../../ui/icons';

export interface MenuEntry {
  /** Route path of the child (for landings: the name with its first space removed, docs/product.md §2). */
  routePath: string;
  href: string;
  /** i18n id, or the literal landing name. */
  title: string;
  literal?: boolean;
  command: string;
  args?: unknown;
  /** A saved view listed under its landing, with its live count of leads (null: a tab without list). */
  view?: { count: number | null };
}

export interface MenuGroup {
  id: MenuGroupId;
  title: string;
  icon: IconName;
  entries: MenuEntry[];
}

const landingEntry = (l: Landing): MenuEntry => ({
  routePath: l.name.replace(' ', ''),
  href: hrefOf('leads', { id: l.id }),
  title: l.name,
  literal: true,
  command: 'nav.leads',
  args: { id: l.id },
});

/** Each landing followed by the saved views that open on it (a view of several landings: under its first). */
function withViews(landings: readonly Landing[], views: readonly SavedView[]): MenuEntry[] {
  return landings.flatMap((l) => [
    landingEntry(l),
    ...views
      .filter((v) => v.landing_ids[0] === l.id)
      .map((v) => ({
        routePath: `view-${v.id}`,
        href: viewHref(v),
        title: v.name,
        literal: true,
        command: 'views.open',
        args: { id: v.id },
        view: { count: v.count },
      })),
  ]);
}

/** The menu places declared by the screens, in each group's order. */
function screenEntries(): Map<MenuGroupId, (MenuEntry & { order: number })[]> {
  const byGroup = new Map<MenuGroupId, (MenuEntry & { order: number })[]>();
  for (const screen of allScreens()) {
    entriesOf(screen).forEach((entry, i) => {
      if (!entry.menu) return;
      const href = screenPath(screen, entry.params);
      const list = byGroup.get(entry.menu.group) ?? [];
      list.push({
        routePath: href.slice(1),
        href,
        title: entry.menu.label ?? entry.title ?? screen.title,
        command: navCommandId(screen, i),
        order: entry.menu.order,
      });
      byGroup.set(entry.menu.group, list);
    });
  }
  return byGroup;
}

export function buildMenu(ctx: CommandContext, landings: readonly Landing[], facebook: readonly Landing[], views: readonly SavedView[] = []): MenuGroup[] {
  const declared = screenEntries();
  const data: Partial<Record<MenuGroupId, MenuEntry[]>> = { landings: withViews(landings, views), facebook: withViews(facebook, views) };
  return menuGroups
    .map((g) => ({
      ...g,
      entries: (data[g.id] ?? [...(declared.get(g.id) ?? [])].sort((a, b) => a.order - b.order).map(({ order: _, ...e }) => e)).filter((e) =>
        available(ctx, e.command),
      ),
    }))
    .filter((g) => g.entries.length > 0 || g.id in data);
}

function available(ctx: CommandContext, id: string) {
  const command = getCommand(id);
  return command !== undefined && isAvailable(command, ctx);
}
