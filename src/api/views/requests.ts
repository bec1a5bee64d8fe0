import { call } from '../client';
import { queryClient } from '../queryClient';
import type { ViewCreateRequest, ViewUpdateRequest } from './contract';
import { viewsApi } from './endpoints';
import { viewsQuery } from './queries';

/** Every change reloads the list: names, order and counts come from the server. */
const reloaded = <T>(answer: T) => {
  void queryClient.invalidateQueries({ queryKey: viewsQuery.queryKey });
  return answer;
};

export const createView = (body: ViewCreateRequest) => call(viewsApi.create, { body }).then(reloaded);

export const updateView = (id: number, body: ViewUpdateRequest) => call(viewsApi.update, { params: { id }, body }).then(reloaded);

export const deleteView = (id: number) => call(viewsApi.remove, { params: { id } }).then(reloaded);
