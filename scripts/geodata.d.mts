import type { Plugin } from 'vite';
import type { Topology, GeometryCollection } from 'topojson-specification';

export type DepartmentsTopology = Topology<{ departments: GeometryCollection<{ name: string }> }>;
export const geodataLicence: string;
export const virtualId: string;
export function buildDepartmentsTopology(): DepartmentsTopology;
export function departmentsGeodata(): Plugin;
