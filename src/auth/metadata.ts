import express from 'express';
import { isUuid } from '../ids.js';
import { MCP_BASE_PATH } from './resource.js';

/**
 * RFC 9728 protected resource metadata for every MCP route. Each document names exactly the
 * route it describes (the RFC requires it, and the SDK client checks it).
 */
export function protectedResourceMetadataRouter(deps: {
  baseUrl: string;
  issuer: string;
  scopes: string[];
}): express.Router {
  const router = express.Router();
  const prefix = `/.well-known/oauth-protected-resource${MCP_BASE_PATH}`;
  const send = (res: express.Response, mcpPath: string): void => {
    res.set({ 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'public, max-age=3600' }).json({
      resource: `${deps.baseUrl}${mcpPath}`,
      authorization_servers: [deps.issuer],
      scopes_supported: deps.scopes,
      bearer_methods_supported: ['header'],
      resource_name: 'Specbase',
    });
  };
  // The read-only and manage forms (`…/readonly/mcp`, `…/manage/mcp`) are routes of their own, so they have documents too.
  for (const readOnly of ['', '/readonly', '/manage']) {
    router.get(`${prefix}${readOnly}/:transport`, (req, res, next) => {
      const { transport } = req.params;
      if (transport !== 'mcp' && transport !== 'sse') return next();
      send(res, `${MCP_BASE_PATH}${readOnly}/${transport}`);
    });
    router.get(`${prefix}/o/:orgId${readOnly}/:transport`, (req, res, next) => {
      const { orgId, transport } = req.params;
      if (!isUuid(orgId) || (transport !== 'mcp' && transport !== 'sse')) return next();
      send(res, `${MCP_BASE_PATH}/o/${orgId}${readOnly}/${transport}`);
    });
  }
  return router;
}
