import topology from 'virtual:departments-topology';
import type { DepartmentCode } from '../api/productions/contract';

/** Code and French name of every department of the map, without the outlines (palette, tables). */
export const departmentList = (): Array<{ code: DepartmentCode; name: string }> =>
  topology.objects.departments.geometries.map((g) => ({ code: String(g.id) as DepartmentCode, name: (g.properties as { name: string }).name }));
