import express from 'express';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import type { CodeStore, PendingRequest } from './codes.js';
import { csrfProblem, issueCsrfToken } from './csrf.js';
import { escapeHtml, sendPage } from './html.js';
import { CONSENT_PATH } from './provider.js';
import { asksToManage, isReadOnlyGrant, READ_ONLY_SCOPE } from './resource.js';
import { requireWebUser } from './web-session.js';

/** What the screen says to a client that connects at a /manage URL (read-only takes the tools away). */
const MANAGE_NOTE =
  '<p class="asks-manage">It also asks to <strong>delete, move, restore and revert</strong> artifacts: each is a commit in your name that can be undone. Tick read-only below to refuse that and every other change.</p>';

/** The screen where a signed-in user approves or denies an MCP client's request. */
export function consentRouter(deps: {
  baseUrl: string;
  codes: CodeStore;
  clients: OAuthRegisteredClientsStore;
  webSession: express.RequestHandler;
}): express.Router {
  const { baseUrl, codes, clients } = deps;
  const router = express.Router();
  // The consent screen must know the browser's user wherever the app mounts the session middleware.
  router.use(CONSENT_PATH, deps.webSession);

  router.get(CONSENT_PATH, requireWebUser, async (req, res) => {
    const requestId = typeof req.query.request === 'string' ? req.query.request : '';
    const pending = await codes.pending(requestId);
    const client = pending ? await clients.getClient(pending.clientId) : undefined;
    if (!pending || !client) return expired(res);
    const csrf = issueCsrfToken(req, res, baseUrl);
    const clientName = client.client_name ?? 'An unnamed application';
    // A metadata-document client is known by where its document lives: show that host.
    const documentHost = /^https:\/\//.test(client.client_id) ? new URL(client.client_id).host : undefined;
    const redirectHost = describeRedirect(pending.redirectUri);
    const user = req.user!;
    sendPage(
      res,
      'Authorize access',
      `<p><strong>${escapeHtml(clientName)}</strong>${documentHost ? ` <span class="client-host">(from <code>${escapeHtml(documentHost)}</code>)</span>` : ''} wants to use Specbase as <strong>${escapeHtml(user.name)}</strong>
(${escapeHtml(user.email)}), with your permissions in every organization you belong to.</p>
<p>After your decision you will be sent to <code>${escapeHtml(redirectHost)}</code>.</p>
<form class="decision" method="post" action="${CONSENT_PATH}">
<input type="hidden" name="request" value="${escapeHtml(requestId)}">
<input type="hidden" name="csrf" value="${escapeHtml(csrf)}">
${
  isReadOnlyGrant(pending.scopes, pending.resource)
    ? '<p>It asked for <strong>read-only</strong> access: it can search and read, never change anything.</p>'
    : `${asksToManage(pending.resource) ? MANAGE_NOTE : ''}<p><label><input type="checkbox" name="readonly"> Read-only: it can search and read, never change anything</label></p>`
}
<button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" class="secondary" name="decision" value="deny">Deny</button>
</form>`,
    );
  });

  router.post(CONSENT_PATH, express.urlencoded({ extended: false }), requireWebUser, async (req, res) => {
    const problem = csrfProblem(req, baseUrl);
    if (problem) {
      sendPage(res, 'Request refused', `<p>${escapeHtml(problem)}</p>`, 403);
      return;
    }
    const body = req.body as Record<string, unknown>;
    const pending = typeof body.request === 'string' ? await codes.takePending(body.request) : undefined;
    if (!pending) return expired(res);
    const target = new URL(pending.redirectUri);
    if (body.decision === 'approve') {
      const readOnly = body.readonly === 'on' && !pending.scopes.includes(READ_ONLY_SCOPE);
      const granted = readOnly ? { ...pending, scopes: [...pending.scopes, READ_ONLY_SCOPE] } : pending;
      target.searchParams.set('code', await codes.issueCode(granted, req.user!.id));
    } else {
      target.searchParams.set('error', 'access_denied');
      target.searchParams.set('error_description', 'the user denied the request');
    }
    if (pending.state !== undefined) target.searchParams.set('state', pending.state);
    res.redirect(303, target.href);
  });

  return router;
}

function describeRedirect(uri: PendingRequest['redirectUri']): string {
  const url = new URL(uri);
  return url.host ? `${url.protocol}//${url.host}` : url.protocol;
}

function expired(res: express.Response): void {
  sendPage(
    res,
    'Request expired',
    '<p>This authorization request is unknown or has expired. Start the connection again from your application.</p>',
    400,
  );
}
