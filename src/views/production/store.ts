// State of the production screen shared by its components and its commands (production.commands.ts).
import { proxy } from 'valtio';
import { defaultSelectionColor, type DepartmentCode, type ProductionCategory } from '../../api/productions/contract';
import type { Direction } from '../../map/navigation';
import { last90Days } from '../../shared/dates';

/** The colours a selection can be given (the first is the server's default when a request names none). */
export const selectionColors = [
  { id: 'orange', color: defaultSelectionColor },
  { id: 'red', color: '#dc2626' },
  { id: 'green', color: '#16a34a' },
  { id: 'purple', color: '#7c3aed' },
  { id: 'pink', color: '#db2777' },
  { id: 'teal', color: '#0d9488' },
] as const;

const [start, end] = last90Days();

export const productionView = proxy({
  start,
  end,
  /** The landings chosen per category; undefined until the user changes the default (all of them). */
  landings: {} as Partial<Record<ProductionCategory, number[]>>,
  /**
   * The colour chosen for the selection: '#rrggbb', 'none' (taken off), or null until the user
   * chooses one: selecting departments then saves the selection and leaves their colours alone.
   */
  color: null as string | null,
  /** The department whose notes dialog is open. */
  noteFor: null as DepartmentCode | null,
  statsOpen: true,
  /** The 'Couverture' layer: the map coloured by where a lead arriving now would be sold, instead of the counts. */
  coverage: false,
});

/** What the production commands see of the mounted screen (CommandContext.production). */
export interface ProductionCommandContext {
  category: ProductionCategory;
  selected: readonly DepartmentCode[];
  active: DepartmentCode;
  landings: readonly number[];
  /** Replaces the selection; saved with the colour chosen ('keep' when none was) once the screen has loaded (1.5 s). */
  select: (codes: readonly DepartmentCode[], color?: string) => Promise<void>;
  setActive: (code: DepartmentCode) => void;
  move: (direction: Direction) => void;
  focusMap: () => void;
  saveNote: (code: DepartmentCode, text: string) => Promise<void>;
  noteOf: (code: DepartmentCode) => string;
  nameOf: (code: DepartmentCode) => string;
}
