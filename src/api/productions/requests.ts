import { apiEnvelope } from '../client';
import type { DepartmentCode, ProductionCategory, ProductionRegion } from './contract';

/** POST /api/productions/:category/change_color: saves the selection and gives it the colour ('#rrggbb', 'none' or 'keep'). */
export const saveSelection = (category: ProductionCategory, departments: readonly DepartmentCode[], color: string) =>
  apiEnvelope<{ data: { selected: DepartmentCode[]; color?: string | null }; message: string }>(
    `/productions/${category}/change_color?${new URLSearchParams({ departement: departments.join(','), color })}`,
    { method: 'POST' },
  );

/** POST /api/productions/:category/:departement/change_text, the note in the body (it may be long). */
export const saveNote = (category: ProductionCategory, region: DepartmentCode, text: string) =>
  apiEnvelope<{ data: ProductionRegion; message: string }>(`/productions/${category}/${region}/change_text`, { method: 'POST', body: { text } });
