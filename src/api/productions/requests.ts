import { call } from '../client';
import type { DepartmentCode, ProductionCategory } from './contract';
import { productionsApi } from './endpoints';

/** POST /api/productions/:category/change_color: saves the selection and gives it the colour ('#rrggbb', 'none' or 'keep'). */
export const saveSelection = (category: ProductionCategory, departments: readonly DepartmentCode[], color: string) =>
  call(productionsApi.changeColor, { params: { category }, query: { departement: departments.join(','), color } });

/** POST /api/productions/:category/:departement/change_text, the note in the body (it may be long). */
export const saveNote = (category: ProductionCategory, region: DepartmentCode, text: string) =>
  call(productionsApi.changeText, { params: { category, departement: region }, body: { text } });
