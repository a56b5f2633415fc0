/**
 * Progressive enhancement only: every page works without it. Copy buttons put text on the
 * clipboard; forms marked `data-confirm` ask before submitting; times read in the reader's
 * time zone (UTC stays on hover); the editor's preview follows the typing (a very long document's
 * on request), rendered by the server's sanitizing renderer; a form marked `data-autosubmit`
 * submits when a choice in it changes (its button does it without script); what scrolls on its
 * own can be scrolled by keyboard.
 */
export const APP_JS = `(() => {
  'use strict';
  const announce = (button, text) => {
    const original = button.dataset.label || button.textContent;
    button.dataset.label = original;
    button.textContent = text;
    button.classList.add('copied');
    setTimeout(() => { button.textContent = original; button.classList.remove('copied'); }, 1600);
  };
  const fallbackCopy = (text) => {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    return ok ? Promise.resolve() : Promise.reject(new Error('copy failed'));
  };
  document.addEventListener('click', (event) => {
    const button = event.target.closest('[data-copy], [data-copy-target]');
    if (!button) return;
    const target = button.dataset.copyTarget && document.getElementById(button.dataset.copyTarget);
    const text = button.dataset.copy ?? (target ? target.textContent : '');
    const copy = navigator.clipboard && window.isSecureContext ? navigator.clipboard.writeText(text) : fallbackCopy(text);
    copy.then(() => announce(button, 'Copied'), () => {
      if (target) {
        const range = document.createRange();
        range.selectNodeContents(target);
        const selection = window.getSelection();
        selection.removeAllRanges();
        selection.addRange(range);
      }
      announce(button, 'Press Ctrl+C');
    });
  });
  const localTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  document.querySelectorAll('time[datetime][data-local]').forEach((el) => {
    const date = new Date(el.getAttribute('datetime'));
    if (Number.isNaN(date.getTime())) return;
    el.textContent = localTime.format(date);
  });
  const LIVE_CHARS = 100000;
  document.querySelectorAll('textarea[data-preview-url]').forEach((area) => {
    const target = document.getElementById(area.dataset.previewTarget);
    const csrf = area.form && area.form.elements.csrf ? area.form.elements.csrf.value : '';
    if (!target) return;
    let timer;
    let latest = 0;
    let button;
    const update = () => {
      const ticket = ++latest;
      fetch(area.dataset.previewUrl, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ csrf, body: area.value }),
      })
        .then((response) => (response.ok ? response.text() : Promise.reject(new Error(String(response.status)))))
        .then((markup) => { if (ticket === latest) { target.innerHTML = markup; target.removeAttribute('data-stale'); } })
        .catch(() => target.setAttribute('data-stale', ''));
    };
    // Past LIVE_CHARS each pause in typing sent the whole document and laid out its rendering
    // again (a 1 MiB changelog: seconds of a frozen page); there the preview waits to be asked.
    const offerUpdate = () => {
      target.setAttribute('data-stale', '');
      if (button) return;
      button = document.createElement('button');
      button.type = 'button';
      button.className = 'secondary small preview-update';
      button.textContent = 'Update preview';
      button.addEventListener('click', update);
      target.before(button);
    };
    // Reading a typed-in textarea's value or length copies its whole text (a 1 MiB text: 50-100
    // ms each keystroke): a text long from the start is measured once, as it loads unchanged.
    let onRequest = area.textLength > LIVE_CHARS;
    area.addEventListener('input', () => {
      clearTimeout(timer);
      if (onRequest) return offerUpdate();
      timer = setTimeout(() => {
        onRequest = area.textLength > LIVE_CHARS;
        if (onRequest) offerUpdate();
        else update();
      }, 250);
    });
  });
  document.addEventListener('change', (event) => {
    const form = event.target.closest('form[data-autosubmit]');
    if (form) form.requestSubmit();
  });
  // What scrolls on its own (code, wide tables, diffs) takes keyboard focus, so arrow keys can
  // scroll it; a region is named after its caption, or by what it holds. A long document's parts
  // are laid out only near the screen (content-visibility: auto), and measuring what is in one
  // lays it out at once: a 1 MiB document's every part, in one task of 60-150 ms. What is in a
  // part is looked at when the part is laid out, and again on a resize only if it is.
  const reachable = (el) => {
    if (el.hasAttribute('tabindex') || (el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight)) return;
    el.setAttribute('tabindex', '0');
    if (el.tagName === 'TABLE' || el.hasAttribute('aria-label')) return;
    const caption = el.querySelector('caption');
    el.setAttribute('role', 'region');
    el.setAttribute('aria-label', caption ? caption.textContent.trim() : el.tagName === 'PRE' ? 'Code' : 'Changes');
  };
  const laidOut = new WeakSet();
  const reachableNow = () => document.querySelectorAll('main pre, main .diff-wrap, main .markdown table').forEach((el) => {
    const part = el.closest('.doc-part');
    if (!part || laidOut.has(part)) reachable(el);
  });
  document.addEventListener('contentvisibilityautostatechange', (event) => {
    const part = event.target;
    if (!part.classList.contains('doc-part')) return;
    if (event.skipped) return laidOut.delete(part);
    laidOut.add(part);
    part.querySelectorAll('pre, table').forEach(reachable);
  }, true);
  reachableNow();
  let resized;
  window.addEventListener('resize', () => { clearTimeout(resized); resized = setTimeout(reachableNow, 200); });
  document.addEventListener('submit', (event) => {
    const form = event.target.closest('form[data-confirm]');
    if (form && !window.confirm(form.dataset.confirm)) event.preventDefault();
  });
})();
`;
