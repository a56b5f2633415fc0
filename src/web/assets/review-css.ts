/** Styles of review pages: filters, paging, change summaries, word-level and side-by-side diffs, blame, change requests. */
export const REVIEW_CSS = `
form.filters { display: flex; flex-wrap: wrap; gap: .6rem 1rem; align-items: end; background: var(--surface); border: 1px solid var(--border); border-radius: var(--radius); padding: .8rem 1rem; margin-bottom: 1rem; }
form.filters p { margin: 0; display: grid; gap: .2rem; flex: 1 1 150px; }
form.filters p.filter-actions { flex: 0 0 auto; display: flex; gap: .75rem; align-items: center; }
form.filters label { font-size: .8rem; color: var(--muted); }
nav.pager { display: flex; justify-content: space-between; gap: 1rem; margin: -0.5rem 0 1.5rem; }
div.first-lines { list-style: none; margin: .35rem 0 .15rem; padding: 0; font: .8rem/1.5 var(--mono); border-left: 3px solid var(--border); }
div.first-lines > div { padding: 0 .5rem; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; max-width: 72ch; }
div.first-lines > .add { background: var(--add-bg); }
div.first-lines > .del { background: var(--del-bg); }
div.first-lines .mark { display: inline-block; width: 1.1em; font-weight: 700; }
div.first-lines .add .mark { color: var(--add-mark); }
div.first-lines .del .mark { color: var(--del-mark); }
.change-summary { font-style: italic; margin: .15rem 0 0; }
.undoes { font-size: .88rem; margin: .15rem 0 0; color: var(--muted); }
ol.timeline li { align-items: flex-start; }

table.diff ins { background: color-mix(in srgb, var(--add-mark) 28%, transparent); text-decoration: none; border-radius: 3px; }
table.diff del { background: color-mix(in srgb, var(--del-mark) 26%, transparent); text-decoration: none; border-radius: 3px; }
table.diff.split { table-layout: fixed; }
table.diff.split col.ln-col { width: 3.2rem; }
table.diff.split td.code.add { background: var(--add-bg); }
table.diff.split td.code.del { background: var(--del-bg); }
table.diff.split td.code.blank { background: repeating-linear-gradient(135deg, transparent 0 6px, var(--bg) 6px 12px); }
nav.segmented { display: inline-flex; border: 1px solid var(--border); border-radius: 8px; overflow: hidden; margin: 0 0 .75rem; background: var(--surface); }
nav.segmented .seg { padding: .3rem .8rem; font-size: .85rem; font-weight: 600; text-decoration: none; color: var(--muted); }
nav.segmented .seg + .seg { border-left: 1px solid var(--border); }
nav.segmented .seg[aria-current] { background: var(--accent-soft); color: var(--accent-text); }
.version-note p { margin: 0 0 .5rem; }
.version-note .actions { margin: 0; }

table.blame { width: 100%; border-collapse: collapse; font: .84rem/1.5 var(--mono); }
table.blame td { padding: 0 .6rem; vertical-align: top; }
table.blame tr.first td { border-top: 1px solid var(--border); }
table.blame td.who { width: 16rem; max-width: 16rem; font-family: var(--sans); font-size: .8rem; color: var(--muted); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; background: var(--bg); }
table.blame td.who a { font-family: var(--mono); }
table.blame td.ln { width: 1%; text-align: right; color: var(--muted); user-select: none; border-right: 1px solid var(--border); }
table.blame td.code { white-space: pre-wrap; word-break: break-word; }
@media (max-width: 700px) { table.blame td.who { width: 8rem; max-width: 8rem; } table.blame .who-extra { display: none; } }

ol.results mark, .crumbs-line mark { background: #fde68a; color: inherit; border-radius: 3px; padding: 0 .1em; }
@media (prefers-color-scheme: dark) { ol.results mark { background: #6b5313; color: var(--text); } }
.crumbs-line { margin: .2rem 0 0; font-size: .82rem; color: var(--muted); }
.search-large .row select { flex: 0 0 auto; }
@media (max-width: 600px) { .search-large .row { flex-wrap: wrap; } .search-large .row input { flex-basis: 100%; } }
.badge.state-open { background: #dcfce7; color: #166534; border-color: #bbf7d0; }
.badge.state-merged { background: #ede9fe; color: #5b21b6; border-color: #ddd6fe; }
.badge.state-closed { background: #fdecec; color: #9f1239; border-color: #f0b7b2; }
.badge.status-added { color: var(--add-mark); }
.badge.status-removed { color: var(--del-mark); }
@media (prefers-color-scheme: dark) { .badge[class*="state-"] { filter: saturate(.8) brightness(.9); } }
button:disabled { opacity: .55; cursor: not-allowed; filter: none; }
.cr-actions form { margin: 0; }
.merge-why { color: var(--muted); font-size: .9rem; margin: .4rem 0 0; max-width: 70ch; }
.cr-branch code { overflow-wrap: anywhere; }
.cr-file + .cr-file { margin-top: 1.5rem; }
.cr-file h3 { display: flex; flex-wrap: wrap; gap: .4rem; align-items: baseline; margin-top: 0; overflow-wrap: anywhere; }
ol.cr-commits, ol.comments { list-style: none; margin: 0; padding: 0; }
ol.comments { margin-bottom: 1rem; }
ol.cr-commits li, ol.comments li { padding: .55rem 0; border-top: 1px solid var(--border); }
ol.cr-commits li:first-child, ol.comments li:first-child { border-top: none; }
ol.comments .meta { margin: 0 0 .2rem; }
.comment-body { white-space: pre-wrap; overflow-wrap: anywhere; }
form.comment-form { display: grid; gap: .6rem; }
form.comment-form p { margin: 0; }
.comment-field { display: grid; gap: .3rem; }
form.comment-form textarea { width: 100%; font: inherit; padding: .5rem .7rem; border: 1px solid var(--border); border-radius: 8px; background: var(--surface); color: var(--text); resize: vertical; }
.cr-conflict .conflict-changes { margin-bottom: 1rem; }
.cr-conflict h3 { margin-top: .5rem; }
form.review-rules fieldset { margin: .4rem 0 .6rem; }
form.review-rules button { justify-self: start; }
`;
