import { geoMercator, geoPath, type GeoPermissibleObjects, type GeoProjection } from 'd3-geo';
import type { DepartmentCode } from '../api/productions/contract';
import type { Department } from './departments';

/** The map's own coordinates (the SVG viewBox); the SVG scales to its box. */
export const MAP_WIDTH = 1000;
export const MAP_HEIGHT = 860;

/** Paris and its inner suburbs: too small on the mainland to click, drawn again in an inset. */
export const parisCodes: readonly DepartmentCode[] = ['FR-75', 'FR-92', 'FR-93', 'FR-94'];
export const overseasCodes: readonly DepartmentCode[] = ['FR-971', 'FR-972', 'FR-973', 'FR-974', 'FR-976'];

export type Box = readonly [readonly [number, number], readonly [number, number]];

/** One frame of the map: mainland France with Corsica, the Paris inset, or one overseas department. */
export interface Inset {
  id: 'mainland' | 'paris' | DepartmentCode;
  box: Box;
  codes: DepartmentCode[];
  projection: GeoProjection;
}

const COLUMN = 190;
const GAP = 12;
const PARIS_HEIGHT = 190;

/**
 * Mercator (d3-geo) fitted into each frame: mainland and Corsica on the right, a column on the
 * left with Paris and its inner suburbs enlarged, then the five overseas departments one under
 * the other. Each frame has its own projection, so an island keeps its shape at its own scale.
 */
export function layoutInsets(departments: readonly Department[]): Inset[] {
  const byCode = new Map(departments.map((d) => [d.code, d]));
  const collection = (codes: readonly DepartmentCode[]): GeoPermissibleObjects => ({
    type: 'FeatureCollection',
    features: codes.map((c) => byCode.get(c)!.feature),
  });
  const fit = (box: Box, codes: readonly DepartmentCode[]) =>
    geoMercator().fitExtent(box as [[number, number], [number, number]], collection(codes) as Parameters<GeoProjection['fitExtent']>[1]);

  const mainlandCodes = departments.map((d) => d.code).filter((c) => !overseasCodes.includes(c));
  const mainlandBox: Box = [
    [COLUMN + 2 * GAP, GAP],
    [MAP_WIDTH - GAP, MAP_HEIGHT - GAP],
  ];
  const parisBox: Box = [
    [GAP, GAP],
    [GAP + COLUMN, GAP + PARIS_HEIGHT],
  ];
  const insets: Inset[] = [
    { id: 'mainland', box: mainlandBox, codes: mainlandCodes, projection: fit(mainlandBox, mainlandCodes) },
    { id: 'paris', box: parisBox, codes: [...parisCodes], projection: fit(parisBox, parisCodes) },
  ];
  const top = 2 * GAP + PARIS_HEIGHT + GAP;
  const height = (MAP_HEIGHT - top - GAP * overseasCodes.length) / overseasCodes.length;
  overseasCodes.forEach((code, i) => {
    const y = top + i * (height + GAP);
    // Room at the bottom of each frame for its name.
    const box: Box = [
      [GAP, y],
      [GAP + COLUMN, y + height - 14],
    ];
    insets.push({ id: code, box, codes: [code], projection: fit(box, [code]) });
  });
  return insets;
}

/** Where each department is drawn: its path in each frame that shows it. */
export interface DrawnDepartment {
  department: Department;
  inset: Inset['id'];
  d: string;
  centroid: [number, number];
}

export function drawDepartments(departments: readonly Department[], insets: readonly Inset[]): DrawnDepartment[] {
  const byCode = new Map(departments.map((d) => [d.code, d]));
  return insets.flatMap((inset) => {
    const path = geoPath(inset.projection);
    return inset.codes.map((code) => {
      const department = byCode.get(code)!;
      return { department, inset: inset.id, d: path(department.feature) ?? '', centroid: path.centroid(department.feature) };
    });
  });
}

/** The shape a department is clicked and focused on: Paris and its suburbs in their inset, the others where they are. */
export const isPrimary = (drawn: DrawnDepartment) => (parisCodes.includes(drawn.department.code) ? drawn.inset === 'paris' : true);
