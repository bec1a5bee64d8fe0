// The departments' outlines for the production map, made at build time: amCharts 5's
// franceDepartments2Low (overseas departments already drawn small near the mainland) as
// TopoJSON, shared borders stored once and coordinates quantized. That file merges Bas-Rhin and
// Haut-Rhin into the European Collectivity of Alsace (FR-6AE); the leads carry 67 and 68, so
// their outlines come from franceDepartmentsLow of the same package. French Polynesia (not a
// department) and the dividing lines are left out; each feature carries the INSEE name.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { topology } from 'topojson-server';

const require = createRequire(import.meta.url);
const readJson = (id) => JSON.parse(readFileSync(require.resolve(id), 'utf8'));

export const geodataLicence = require.resolve('@amcharts/amcharts5-geodata/LICENSE');
export const virtualId = 'virtual:departments-topology';

/** The TopoJSON topology of the map's 101 departments: object `departments`, ids 'FR-30', names in French. */
export function buildDepartmentsTopology() {
  const base = readJson('@amcharts/amcharts5-geodata/json/franceDepartments2Low.json').features;
  const alsace = readJson('@amcharts/amcharts5-geodata/json/franceDepartmentsLow.json').features.filter((f) => f.id === 'FR-67' || f.id === 'FR-68');
  const names = new Map(
    readJson('@etalab/decoupage-administratif/data/departements.json')
      .filter((d) => d.zone === 'metro' || d.zone === 'drom')
      .map((d) => [`FR-${d.code}`, d.nom]),
  );
  const features = [...base.filter((f) => names.has(f.id)), ...alsace].map((f) => ({
    type: 'Feature',
    id: f.id,
    properties: { name: names.get(f.id) },
    geometry: f.geometry,
  }));
  const missing = [...names.keys()].filter((id) => !features.some((f) => f.id === id));
  if (missing.length) throw new Error(`Géodonnées : départements sans contour : ${missing.join(', ')}`);
  features.sort((a, b) => a.id.localeCompare(b.id));
  return topology({ departments: { type: 'FeatureCollection', features } }, 1e5);
}

/** Vite plugin: `import topology from 'virtual:departments-topology'`, and the licence beside the build. */
export function departmentsGeodata() {
  const resolved = `\0${virtualId}`;
  return {
    name: 'departments-geodata',
    resolveId: (id) => (id === virtualId ? resolved : undefined),
    load: (id) => (id === resolved ? `export default ${JSON.stringify(buildDepartmentsTopology())};` : undefined),
    generateBundle() {
      // The amCharts licence asks to ship it with its data (the map shows the attribution link).
      this.emitFile({ type: 'asset', fileName: 'licenses/amcharts5-geodata-LICENSE.txt', source: readFileSync(geodataLicence, 'utf8') });
    },
  };
}
