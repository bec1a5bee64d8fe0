declare module 'virtual:departments-topology' {
  import type { GeometryCollection, Topology } from 'topojson-specification';
  /** Made at build time by scripts/geodata.mjs. */
  const topology: Topology<{ departments: GeometryCollection<{ name: string }> }>;
  export default topology;
}
