/**
 * The production map's commands: selecting, adding, notes, colours, moving on the map, the
 * Statistiques table and the leads of a department. The map's clicks and keys, the buttons, the
 * palette and the dialog all go through these (the screen provides `ctx.production` while mounted).
 */
import type { DepartmentCode } from '../../api/productions/contract';
import type { CommandContext, ContextWith } from '../../commands/context';
import { definePaletteSource } from '../../commands/palette/sources';
import { defineCommand } from '../../commands/registry';
import { departmentList } from '../../map/departmentList';
import type { Direction } from '../../map/navigation';
import { productionView, selectionColors, type ProductionCommandContext } from './store';
import { hrefOf } from '../../commands/screens';

declare module '../../commands/registry' {
  interface MenuRegistry {
    'production.actions': true;
  }
}

declare module '../../commands/context' {
  interface CommandContextExtensions {
    production: ProductionCommandContext;
  }
}

const section = 'production';
const scope = 'production';
type OnMap = ContextWith<'production'>;
const onMap = (ctx: CommandContext): ctx is OnMap => ctx.production !== undefined;
const target = (ctx: OnMap, args: { code?: DepartmentCode } | undefined) => args?.code ?? ctx.production.active;

// Every department by name and code, accents and case ignored ("herault", "2a"): opens it on the map.
definePaletteSource<{ code: DepartmentCode; name: string }>({
  id: 'departments',
  order: 60,
  requires: 'staff',
  query: {
    queryKey: ['map-departments'],
    queryFn: async () => departmentList(),
    // Listed from the palette's first render: "herault" typed and Enter pressed at once finds it.
    initialData: departmentList,
    staleTime: Infinity,
  },
  entries: (list) =>
    list.map((d) => ({ key: d.code, label: d.name, hint: d.code, keywords: d.code.slice(3), command: 'production.jump', args: { code: d.code } })),
});

defineCommand<{ code: DepartmentCode }>({
  id: 'production.jump',
  title: 'production.jump',
  section,
  requires: 'staff',
  palette: false,
  run: async (ctx, args) => {
    if (!ctx.production) return ctx.navigate(hrefOf('production', { category: 'pac' }, { departement: args.code }));
    ctx.production.setActive(args.code);
    ctx.production.focusMap();
    await ctx.production.select([args.code]);
  },
});

// Enter on the map, a click on it, Enter or a click on a row of the Statistiques: the map's focus and selection go there.
defineCommand<{ code?: DepartmentCode } | undefined, OnMap>({
  id: 'production.select',
  title: 'production.select',
  section,
  scope,
  requires: 'staff',
  when: onMap,
  run: (ctx, args) => {
    const code = target(ctx, args);
    ctx.production.setActive(code);
    return ctx.production.select([code]);
  },
});

defineCommand<{ code?: DepartmentCode } | undefined, OnMap>({
  id: 'production.toggle',
  title: 'production.toggle',
  section,
  scope,
  requires: 'staff',
  when: onMap,
  run: (ctx, args) => {
    const code = target(ctx, args);
    const selected = ctx.production.selected;
    return ctx.production.select(selected.includes(code) ? selected.filter((c) => c !== code) : [...selected, code]);
  },
});

defineCommand<{ code?: DepartmentCode } | undefined, OnMap>({
  id: 'production.note',
  title: 'production.note',
  section,
  scope,
  keys: ['n'],
  requires: 'staff',
  when: onMap,
  menus: [{ id: 'production.actions', group: 'department', order: 2 }],
  run: (ctx, args) => {
    const code = target(ctx, args);
    ctx.production.setActive(code);
    productionView.noteFor = code;
  },
});

defineCommand<{ code: DepartmentCode; text: string }, OnMap>({
  id: 'production.saveNote',
  title: 'production.saveNote',
  section,
  scope,
  requires: 'staff',
  palette: false,
  when: onMap,
  run: (ctx, args) => ctx.production.saveNote(args.code, args.text),
});

for (const direction of ['left', 'right', 'up', 'down'] as const) {
  defineCommand({
    id: `production.move.${direction}`,
    title: `production.move.${direction}`,
    section,
    scope,
    requires: 'staff',
    palette: false,
    when: onMap,
    run: (ctx) => ctx.production.move(direction satisfies Direction),
  });
}

defineCommand({
  id: 'production.focusMap',
  title: 'production.focusMap',
  section,
  scope,
  keys: ['m'],
  requires: 'staff',
  when: onMap,
  run: (ctx) => ctx.production.focusMap(),
});

defineCommand<{ color: string | null }, OnMap>({
  id: 'production.color',
  title: 'production.color',
  section,
  scope,
  requires: 'staff',
  when: onMap,
  choices: (ctx) => [
    ...selectionColors.map((c) => ({ label: ctx.t('production.color.choice', { color: ctx.t(`production.color.${c.id}`) }), args: { color: c.color } })),
    { label: ctx.t('production.color.none'), args: { color: null } },
  ],
  run: (ctx, args) => {
    if (args?.color === undefined) return;
    productionView.color = args.color ?? 'none';
    return ctx.production.select(ctx.production.selected, productionView.color);
  },
});

// The 'Couverture' layer (issue 27): the map coloured by where a lead arriving now would find a rule.
defineCommand({
  id: 'production.coverage',
  title: 'production.coverage',
  section,
  scope,
  keys: ['c'],
  requires: 'staff',
  when: onMap,
  menus: [{ id: 'production.actions', group: 'tables', order: 8 }],
  run: () => {
    productionView.coverage = !productionView.coverage;
  },
});

// 'Zones sans acheteur' from the palette, anywhere: the map with the layer on, which lists them.
defineCommand({
  id: 'production.uncovered',
  title: 'production.uncovered',
  section,
  requires: 'staff',
  run: (ctx) => {
    productionView.coverage = true;
    if (!ctx.production) ctx.navigate(hrefOf('production', { category: 'pac' }));
    else ctx.production.focusMap();
  },
});

defineCommand({
  id: 'production.toggleStats',
  title: 'production.toggleStats',
  section,
  scope,
  keys: ['s'],
  requires: 'staff',
  when: onMap,
  menus: [{ id: 'production.actions', group: 'tables', order: 9 }],
  run: () => {
    productionView.statsOpen = !productionView.statsOpen;
  },
});

defineCommand<{ code?: DepartmentCode } | undefined, OnMap>({
  id: 'production.openLeads',
  title: 'production.openLeads',
  section,
  scope,
  keys: ['l'],
  requires: 'staff',
  when: (ctx): ctx is OnMap => onMap(ctx) && ctx.production.landings.length > 0,
  menus: [{ id: 'production.actions', group: 'department', order: 3 }],
  run: (ctx, args) => {
    const code = target(ctx, args);
    ctx.navigate(hrefOf('leads', { id: ctx.production.landings.join(',') }, { departement: code.slice(3) }));
  },
});
