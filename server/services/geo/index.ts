/** Postal code → department → climate zone, from real reference data (docs/decisions.md §6). */
export { departementFor, normalizePostalCode, postalCodesByDepartement, loadPostalCodes, type PostalCode } from './postal-codes';
export { CLIMATE_ZONES, zoneFor, type ClimateZone } from './climate-zones';
