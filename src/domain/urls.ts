/** Web application addresses; the web routes serve exactly these. */
export const artifactUrl = (baseUrl: string, orgId: string, id: string): string => `${baseUrl}/o/${orgId}/a/${id}`;

export const orgUrl = (baseUrl: string, orgId: string): string => `${baseUrl}/o/${orgId}`;

/** A change request's review page. */
export const changeRequestUrl = (baseUrl: string, orgId: string, number: number): string =>
  `${baseUrl}/o/${orgId}/cr/${number}`;
