import type { Landing, LandingColumn } from '../../../../../src/api/landings/contract';

/** A form column of that type, named and labelled by its key. */
export const column = (key: string, type: LandingColumn['type']): LandingColumn => ({ key, label: key, type, required: false });

/** A standard landing with these columns. */
export const landing = (id: number, columns: LandingColumn[]): Landing => ({
  id,
  key: `lp-${id}`,
  name: `Landing ${id}`,
  kind: 'standard',
  category: 'pac',
  zone_climatique: false,
  columns,
  thank_you_url: null,
  max_buyers: 1,
});
