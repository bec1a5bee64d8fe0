import type { Feature, MultiPolygon, Polygon } from 'geojson';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { feature, neighbors } from 'topojson-client';
import type { DepartmentCode } from '../api/productions/contract';

export type DepartmentsTopology = Topology<{ departments: GeometryCollection<{ name: string }> }>;

export interface Department {
  code: DepartmentCode;
  name: string;
  feature: Feature<Polygon | MultiPolygon, { name: string }>;
}

/** The departments of the build's topology, in code order. */
export function departmentsOf(topology: DepartmentsTopology): Department[] {
  return topology.objects.departments.geometries.map((g) => ({
    code: String(g.id) as DepartmentCode,
    name: (g.properties as { name: string }).name,
    feature: feature(topology, g) as Department['feature'],
  }));
}

/** Departments that share a border (an arc of the topology), each list in code order. */
export function neighbourGraph(topology: DepartmentsTopology): Map<DepartmentCode, DepartmentCode[]> {
  const geometries = topology.objects.departments.geometries;
  const graph = new Map<DepartmentCode, DepartmentCode[]>();
  neighbors(geometries).forEach((list, i) => {
    graph.set(String(geometries[i].id) as DepartmentCode, list.map((j) => String(geometries[j].id) as DepartmentCode).sort());
  });
  return graph;
}
