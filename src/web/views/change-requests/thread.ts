import type { ChangeRequestDetailView } from '../../../domain/index.js';
import { html, type SafeHtml } from '../../html.js';
import { when } from '../format.js';

/** The conversation under a change request, and the form to add to it. */
export function commentThread(orgId: string, cr: ChangeRequestDetailView, csrf: string): SafeHtml {
  return html`<section class="panel" aria-labelledby="h-comments"><h2 id="h-comments">Comments <span class="count">${cr.comments.length}</span></h2>
${
  cr.comments.length === 0
    ? html`<p class="empty">No comments yet.</p>`
    : html`<ol class="comments">${cr.comments.map(
        (c) =>
          html`<li class="comment"><p class="meta"><strong class="author">${c.author?.name ?? 'A former member'}</strong> · ${when(c.createdAt)}</p><div class="comment-body">${c.body}</div></li>`,
      )}</ol>`
}
<form class="comment-form" method="post" action="/o/${orgId}/cr/${cr.number}/comments">
  <input type="hidden" name="csrf" value="${csrf}">
  <p class="comment-field"><label for="comment-body">Add a comment</label><textarea id="comment-body" name="body" rows="4" required maxlength="10000"></textarea></p>
  <p class="form-actions"><button type="submit">Comment</button></p>
</form>
</section>`;
}
