import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { toDepartement, type DepartmentCode } from '../../../src/api/productions/contract';
import { notFound } from '../../errors';

let codes: Set<string> | undefined;

/** The departments of the map (INSEE list): mainland, Corsica (2A, 2B) and the five overseas departments. */
function mapDepartements(): Set<string> {
  if (codes) return codes;
  const file = createRequire(import.meta.url).resolve('@etalab/decoupage-administratif/data/departements.json');
  const all = JSON.parse(readFileSync(file, 'utf8')) as Array<{ code: string; zone: string }>;
  codes = new Set(all.filter((d) => d.zone === 'metro' || d.zone === 'drom').map((d) => d.code));
  return codes;
}

export const isMapDepartement = (departement: string) => mapDepartements().has(departement);

/** Every department of the map, in INSEE order ('01' … '19', '2A', '2B', '21' … '976'). */
export const mapDepartementList = () => [...mapDepartements()];

/** 'FR-30' → '30'; a code the map does not have → 404. */
export function departementOf(region: DepartmentCode): string {
  const departement = toDepartement(region);
  if (!isMapDepartement(departement)) throw notFound(`Département inconnu : ${region}`);
  return departement;
}
