import names from 'virtual:department-names';
import type { DepartmentCode } from '../api/productions/contract';

/** Code and French name of every department of the map, without the outlines (the palette). */
export const departmentList = (): Array<{ code: DepartmentCode; name: string }> => names.map(([code, name]) => ({ code: code as DepartmentCode, name }));
