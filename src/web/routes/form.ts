import express, { type Request, type Response } from 'express';
import { sendHtml } from '../context.js';
import { errorPageFor } from '../errors.js';
import { csrfProblem } from '../security.js';

/** Small forms: names, titles, commit ids. */
export const smallForm = express.urlencoded({ extended: false, limit: '8kb' });

/** A form carrying a whole document: url-encoding may triple its bytes. */
export const documentForm = (maxDocumentBytes: number) =>
  express.urlencoded({ extended: false, limit: maxDocumentBytes * 3 + 16 * 1024 });

/** Refuses a state-changing POST that did not come from our own page; true when it answered. */
export function refusedForgery(req: Request, res: Response, baseUrl: string): boolean {
  const problem = csrfProblem(req, baseUrl);
  if (problem) sendHtml(res, errorPageFor(403, 'Request refused', problem, req.user), 403);
  return Boolean(problem);
}

export const field = (req: Request, name: string): string => {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
};
