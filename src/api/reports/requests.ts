import { download } from '../download';
import type { BookType } from '../leads/contract';
import { reportsApi } from './endpoints';

/** GET /api/rapports/:id/file?format=…: the day's delivered leads as a file, named by the server, else by the report's date. */
export const downloadReport = (reportId: number, format: BookType, date: string) =>
  download(reportsApi.file, { params: { id: reportId }, query: { format } }, `${date}.${format}`);
