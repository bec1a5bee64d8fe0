declare module 'virtual:departments-topology' {
  import type { GeometryCollection, Topology } from 'topojson-specification';
  /** Made at build time by scripts/geodata.mjs. */
  const topology: Topology<{ departments: GeometryCollection<{ name: string }> }>;
  export default topology;
}

declare module 'virtual:department-names' {
  /** [code, French name] of every department of the map, made at build time by scripts/geodata.mjs. */
  const names: Array<[string, string]>;
  export default names;
}
