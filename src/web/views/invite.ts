import type { User } from '../../control/types.js';
import { html, type SafeHtml } from '../html.js';

/** The form behind an invitation link: the invited person chooses their password, once. */
export function invitePage(user: User, csrf: string, problem?: string): SafeHtml {
  return html`<section class="panel invite">
<h1>Welcome to Specbase</h1>
<p>You were added as <strong>${user.email}</strong>. Choose a password to sign in with; this link works once.</p>
${problem ? html`<p class="notice error" role="alert">${problem}</p>` : ''}
<form class="stacked" method="post">
  <input type="hidden" name="csrf" value="${csrf}">
  <p><label for="password">Password <span class="optional">(at least 8 characters)</span></label><input id="password" name="password" type="password" autocomplete="new-password" minlength="8" required></p>
  <p><label for="confirm">The same password again</label><input id="confirm" name="confirm" type="password" autocomplete="new-password" minlength="8" required></p>
  <p class="form-actions"><button type="submit">Set password</button></p>
</form></section>`;
}

export function invitationDonePage(email: string): SafeHtml {
  return html`<section class="panel invite" role="status"><h1>Your password is set</h1>
<p>Sign in as <strong>${email}</strong> with it.</p><p><a class="button" href="/">Sign in</a></p></section>`;
}

export function invitationGonePage(): SafeHtml {
  return html`<section class="error-page"><p class="status">404</p><h1>This link no longer works</h1>
<p class="message" role="alert">An invitation sets a password once and lasts a week. Ask the person who added you for a new one.</p></section>`;
}
