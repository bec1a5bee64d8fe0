import { defineEndpoint } from '../endpoint';
import {
  changeColorQuery,
  changeColorResponse,
  changeTextRequest,
  changeTextResponse,
  coverageQuery,
  coverageResponse,
  productionResponse,
  regionsDataQuery,
  regionsDataResponse,
} from './contract';

export const productionsApi = {
  get: defineEndpoint({
    method: 'GET',
    path: '/api/productions/:category',
    auth: 'user',
    response: productionResponse,
    summary: 'The saved notes, colours and selection of a production map',
  }),
  regionsData: defineEndpoint({
    method: 'POST',
    path: '/api/productions/:category/regions/data',
    auth: 'user',
    query: regionsDataQuery,
    response: regionsDataResponse,
    summary: 'Production per source and status over the chosen departments (a read)',
  }),
  coverage: defineEndpoint({
    method: 'GET',
    path: '/api/productions/:category/coverage',
    auth: 'user',
    query: coverageQuery,
    response: coverageResponse,
    summary: 'Whether a lead of these landings arriving now (or at `at`) in each department would find a rule',
  }),
  changeColor: defineEndpoint({
    method: 'POST',
    path: '/api/productions/:category/change_color',
    auth: 'user',
    query: changeColorQuery,
    response: changeColorResponse,
    summary: 'Saves the selection and gives it a colour',
  }),
  changeText: defineEndpoint({
    method: 'POST',
    path: '/api/productions/:category/:departement/change_text',
    auth: 'user',
    // The note in the body (a long note fits only there) or, as the original sent it, in the query.
    query: changeTextRequest,
    body: changeTextRequest,
    response: changeTextResponse,
    summary: "Saves a department's note",
  }),
};
