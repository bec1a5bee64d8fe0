import topology from 'virtual:departments-topology';
import type { DepartmentCode } from '../api/productions/contract';
import { departmentsOf, neighbourGraph, type Department } from './departments';
import { neighbourInDirection, type Direction } from './navigation';
import { drawDepartments, layoutInsets, type DrawnDepartment, type Inset } from './projection';

interface MapGeometry {
  departments: Department[];
  byCode: Map<DepartmentCode, Department>;
  insets: Inset[];
  drawn: DrawnDepartment[];
  /** Which department an arrow key leads to from `from`. */
  move: (from: DepartmentCode, direction: Direction) => DepartmentCode | null;
}

let geometry: MapGeometry | undefined;

/** The map's departments, frames and paths, worked out once from the build's topology. */
export function mapGeometry(): MapGeometry {
  if (geometry) return geometry;
  const departments = departmentsOf(topology);
  const insets = layoutInsets(departments);
  const drawn = drawDepartments(departments, insets);
  const graph = neighbourGraph(topology);
  // Arrows follow geography: Paris and its suburbs where they are on the mainland, not in their inset.
  const positions = new Map(drawn.filter((d) => d.inset !== 'paris').map((d) => [d.department.code, d.centroid] as [DepartmentCode, [number, number]]));
  geometry = {
    departments,
    byCode: new Map(departments.map((d) => [d.code, d])),
    insets,
    drawn,
    move: (from, direction) => neighbourInDirection(from, direction, graph, positions),
  };
  return geometry;
}
