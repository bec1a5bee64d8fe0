/**
 * Climate zones of metropolitan France by department, as fixed by the thermal regulation
 * (arrêté du 26 octobre 2010, RT 2012, kept by RE 2020). Overseas departments have none.
 */
export type ClimateZone = 'H1a' | 'H1b' | 'H1c' | 'H2a' | 'H2b' | 'H2c' | 'H2d' | 'H3';

export const CLIMATE_ZONES: Record<ClimateZone, readonly string[]> = {
  H1a: ['02', '14', '27', '59', '60', '61', '62', '75', '76', '77', '78', '80', '91', '92', '93', '94', '95'],
  H1b: ['08', '10', '45', '51', '52', '54', '55', '57', '58', '67', '68', '70', '88', '89', '90'],
  H1c: ['01', '03', '05', '15', '19', '21', '23', '25', '38', '39', '42', '43', '63', '69', '71', '73', '74', '87'],
  H2a: ['22', '29', '35', '50', '56'],
  H2b: ['16', '17', '18', '28', '36', '37', '41', '44', '49', '53', '72', '79', '85', '86'],
  H2c: ['09', '12', '24', '31', '32', '33', '40', '46', '47', '64', '65', '81', '82'],
  H2d: ['04', '07', '26', '48', '84'],
  H3: ['06', '11', '13', '2A', '2B', '30', '34', '66', '83'],
};

const zoneByDepartement = new Map(Object.entries(CLIMATE_ZONES).flatMap(([zone, deps]) => deps.map((d) => [d, zone as ClimateZone] as const)));

/** The climate zone of a department code ('30', '2A', …); '' overseas or when unknown. */
export function zoneFor(departement: string): ClimateZone | '' {
  return zoneByDepartement.get(departement) ?? '';
}
