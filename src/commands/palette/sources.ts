/**
 * Data the palette lists for "jump to": the landings, the customers with their rules, the users
 * with their exports… Each list is declared once, beside its screen's commands, with the query
 * that fetches it (fetched when the palette opens, from react-query's cache when fresh) and the
 * command its entries run:
 *
 *   definePaletteSource({
 *     id: 'customers', order: 40, requires: 'admin',      // group title: commands.palette.group.<id>
 *     query: customersQuery,                              // react-query options: key + fetcher
 *     entries: (customers) => customers.map((c) => ({ key: String(c.id), label: c.name, hint: c.email, command: 'nav.rules', args: { customerId: c.id } })),
 *   });
 */
import type { UseQueryOptions } from '@tanstack/react-query';
import type { Translate } from '../../i18n';
import type { Role } from '../registry';

export interface SourceEntry {
  /** Unique within the source. */
  key: string;
  label: string;
  hint?: string;
  /** Searched but not shown (a landing's category, a customer's rules…). */
  keywords?: string;
  command: string;
  args?: unknown;
}

export interface PaletteSource<T = unknown> {
  id: string;
  /** Groups follow this order, after the actions (0) and the screens (10). */
  order: number;
  requires: Role;
  // Any key shape: each resource's queryOptions types its own key.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  query: UseQueryOptions<T[], Error, T[], any>;
  /** `t`: the catalog, for entries that say more than a name ('Relevé de Dupont'). */
  entries: (items: readonly T[], t: Translate) => SourceEntry[];
}

const sources: PaletteSource[] = [];

export function definePaletteSource<T>(source: PaletteSource<T>) {
  if (sources.some((s) => s.id === source.id)) throw new Error(`Palette source "${source.id}" is already defined`);
  sources.push(source as PaletteSource);
  sources.sort((a, b) => a.order - b.order);
}

export const paletteSources = (): readonly PaletteSource[] => sources;
