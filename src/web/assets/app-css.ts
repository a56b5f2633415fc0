/** The one stylesheet: system fonts, a calm palette, light and dark, readable at any width. */
export const APP_CSS = `
:root {
  --bg: #f7f7f5; --surface: #ffffff; --text: #1f2328; --muted: #5d6470; --border: #e3e3df;
  --accent: #4f46e5; --accent-soft: #eef0ff; --accent-text: #3730a3; --on-accent: #fff;
  --add-bg: #e6f6ea; --add-mark: #1a7f37; --del-bg: #fdecec; --del-mark: #cf222e;
  --danger: #c4302b; --success-bg: #e9f7ef; --success-border: #9fd8b4; --error-bg: #fdf0ef; --error-border: #f0b7b2;
  --code-bg: #f3f3f0; --radius: 10px; --shadow: 0 1px 2px rgba(20, 20, 40, .06), 0 2px 8px rgba(20, 20, 40, .04);
  --sans: ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  --mono: ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace;
  color-scheme: light dark;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #15171c; --surface: #1c1f26; --text: #e6e7ea; --muted: #9ba1ad; --border: #2d313a;
    --accent: #8b8cf8; --accent-soft: #262848; --accent-text: #c7c8ff; --on-accent: #15171c;
    --add-bg: #15321f; --add-mark: #56d37a; --del-bg: #3a1a1c; --del-mark: #ff7b72;
    --danger: #ff6b60; --success-bg: #15321f; --success-border: #2c6a40; --error-bg: #3a1a1c; --error-border: #7a3431;
    --code-bg: #23262e; --shadow: none;
  }
}
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; background: var(--bg); color: var(--text); font: 16px/1.6 var(--sans); display: flex; flex-direction: column; min-height: 100vh; }
a { color: var(--accent); text-decoration-thickness: 1px; text-underline-offset: 2px; }
a:hover { text-decoration-thickness: 2px; }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; border-radius: 4px; }
code, pre, .mono { font-family: var(--mono); font-size: .9em; }
.small { font-size: .85rem; }
.visually-hidden { position: absolute !important; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.skip { position: absolute; left: -999px; top: 0; background: var(--accent); color: var(--on-accent); padding: .5rem 1rem; z-index: 10; }
.skip:focus { left: 1rem; }

header.site { background: var(--surface); border-bottom: 1px solid var(--border); position: sticky; top: 0; z-index: 5; }
header.site .bar { max-width: 1440px; margin: 0 auto; padding: .6rem 1.25rem; display: flex; align-items: center; gap: 1rem; position: relative; }
.brand { font-weight: 700; color: var(--text); text-decoration: none; display: flex; align-items: center; gap: .45rem; letter-spacing: -.01em; min-width: 0; flex: 0 1 auto; white-space: nowrap; }
.brand .logo { color: var(--accent); font-size: 1.1rem; }
.brand .org-name { font-weight: 500; color: var(--muted); border-left: 1px solid var(--border); padding-left: .6rem; margin-left: .15rem; overflow: hidden; text-overflow: ellipsis; max-width: 14rem; }
.site-menu { margin-left: auto; }
.site-menu > summary { list-style: none; cursor: pointer; display: inline-flex; align-items: center; gap: .5rem; font-weight: 600; padding: .4rem .8rem; border: 1px solid var(--border); border-radius: 8px; }
.site-menu > summary::-webkit-details-marker { display: none; }
.menu-icon, .menu-icon::before, .menu-icon::after { display: block; width: 1rem; height: 2px; background: currentColor; border-radius: 1px; }
.menu-icon { position: relative; }
.menu-icon::before, .menu-icon::after { content: ""; position: absolute; left: 0; }
.menu-icon::before { top: -5px; } .menu-icon::after { top: 5px; }
.site-menu[open] > summary { background: var(--accent-soft); color: var(--accent-text); border-color: var(--accent-soft); }
.menu-panel { display: flex; flex-direction: column; gap: .9rem; position: absolute; left: 0; right: 0; top: 100%; background: var(--surface); border-bottom: 1px solid var(--border); padding: .75rem 1.25rem 1rem; box-shadow: var(--shadow); }
ul.menu-links { list-style: none; margin: 0; padding: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(9rem, 1fr)); gap: .25rem; }
header.site nav a { display: block; color: var(--muted); text-decoration: none; padding: .35rem .65rem; border-radius: 8px; font-weight: 500; white-space: nowrap; }
header.site nav a:hover { background: var(--bg); color: var(--text); }
header.site nav a[aria-current="page"] { background: var(--accent-soft); color: var(--accent-text); }
form.search input { width: 100%; }
form.signout { display: flex; align-items: center; gap: .6rem; color: var(--muted); font-size: .9rem; white-space: nowrap; }
.who { overflow: hidden; text-overflow: ellipsis; max-width: 12rem; }
/* Wide screens: the menu's content in one row whether the disclosure is open or not. */
@media (min-width: 1200px) {
  @supports selector(::details-content) {
    .site-menu { flex: 1 1 auto; min-width: 0; margin-left: 0; }
    .site-menu > summary { display: none; }
    .site-menu::details-content { content-visibility: visible; display: block; }
    .menu-panel { position: static; flex-direction: row; align-items: center; gap: 1rem; padding: 0; border: none; box-shadow: none; background: none; }
    .menu-panel > nav, form.signout { flex: none; }
    ul.menu-links { display: flex; gap: .05rem; }
    header.site nav a { padding: .35rem .45rem; }
    form.search { flex: 1 1 12rem; min-width: 7rem; max-width: 22rem; margin-left: auto; }
  }
}
@media (max-width: 700px) {
  header.site { position: static; }
  main { padding-top: 1.25rem; }
}

main { flex: 1; width: 100%; max-width: 1180px; margin: 0 auto; padding: 2rem 1.25rem 3rem; }
main:focus { outline: none; }
footer.site { color: var(--muted); font-size: .85rem; text-align: center; padding: 1.5rem; border-top: 1px solid var(--border); }

h1, h2, h3 { line-height: 1.25; letter-spacing: -.015em; }
h1 { font-size: clamp(1.6rem, 2.5vw + 1rem, 2.2rem); margin: .2rem 0 .5rem; }
h1 a { color: inherit; text-decoration: none; }
h2 { font-size: 1.15rem; margin: 0 0 .8rem; }
h3 { font-size: 1rem; margin: 1.4rem 0 .5rem; }
.page-head { margin-bottom: 1.5rem; }
.eyebrow { margin: 0; color: var(--muted); font-size: .9rem; font-weight: 500; }
.lede { color: var(--muted); max-width: 70ch; margin: .25rem 0 0; }
.meta { color: var(--muted); font-size: .92rem; margin: .25rem 0; }
.meta strong { color: var(--text); font-weight: 600; }
.empty { color: var(--muted); font-style: italic; }

.panel { background: var(--surface); border: 1px solid var(--border); border-radius: var(--radius); padding: 1.25rem 1.4rem; margin-bottom: 1.25rem; box-shadow: var(--shadow); }
.panel h2 .count, .button .count { font-size: .75rem; font-weight: 600; color: var(--muted); background: var(--bg); border: 1px solid var(--border); border-radius: 999px; padding: .05rem .5rem; vertical-align: middle; margin-left: .3rem; }
.home-grid { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 1.25rem; align-items: start; }
@media (max-width: 860px) { .home-grid { grid-template-columns: minmax(0, 1fr); } }

ul.tree { list-style: none; margin: 0; padding: 0; }
ul.tree ul.tree { margin-left: .6rem; padding-left: .9rem; border-left: 1px solid var(--border); }
ul.tree li { margin: .15rem 0; }
@media (max-width: 600px) { ul.tree ul.tree { margin-left: .25rem; padding-left: .55rem; } }
ul.tree a { display: inline-flex; flex-wrap: wrap; max-width: 100%; align-items: baseline; gap: .1rem .5rem; overflow-wrap: anywhere; text-decoration: none; color: var(--text); padding: .15rem .35rem; border-radius: 6px; }
ul.tree a:hover .title { text-decoration: underline; color: var(--accent); }
ul.tree a.more { color: var(--muted); font-size: .85em; }
.node-capability > a { font-weight: 600; }
.folder-name { display: inline-flex; align-items: center; gap: .45rem; font-weight: 600; padding: .15rem .35rem; }
.folder-icon { width: 1rem; height: .75rem; border: 2px solid var(--muted); border-radius: 2px 3px 3px 3px; position: relative; }
.folder-icon::before { content: ""; position: absolute; top: -5px; left: -2px; width: .45rem; height: 3px; border: 2px solid var(--muted); border-bottom: none; border-radius: 2px 2px 0 0; }

.badge { display: inline-block; font-size: .7rem; font-weight: 600; letter-spacing: .03em; text-transform: uppercase; border-radius: 999px; padding: .08rem .5rem; white-space: nowrap; background: var(--bg); color: var(--muted); border: 1px solid var(--border); vertical-align: .1em; }
.type-product, .type-capability { background: #ede9fe; color: #5b21b6; border-color: #ddd6fe; }
.type-feature { background: #e0f2fe; color: #075985; border-color: #bae6fd; }
.type-requirement { background: #fef3c7; color: #92400e; border-color: #fde68a; }
.type-acceptance_criterion { background: #dcfce7; color: #166534; border-color: #bbf7d0; }
.type-user_type { background: #fce7f3; color: #9d174d; border-color: #fbcfe8; }
.type-core_entity { background: #ffedd5; color: #9a3412; border-color: #fed7aa; }
.type-page { background: #f1f5f9; color: #334155; border-color: #e2e8f0; }
.badge.req { margin-left: .35rem; text-transform: none; letter-spacing: 0; }
@media (prefers-color-scheme: dark) { .badge[class*="type-"] { filter: saturate(.8) brightness(.9); } }

.breadcrumb ol { list-style: none; display: flex; flex-wrap: wrap; gap: .3rem; padding: 0; margin: 0 0 1rem; font-size: .9rem; color: var(--muted); }
.breadcrumb li + li::before { content: "›"; margin-right: .3rem; color: var(--muted); }
.breadcrumb a { color: var(--muted); }

.artifact { background: var(--surface); border: 1px solid var(--border); border-radius: var(--radius); box-shadow: var(--shadow); padding: 1.75rem 2rem; max-width: 860px; }
@media (max-width: 600px) { .artifact { padding: 1.2rem 1rem; } }
.artifact-head { border-bottom: 1px solid var(--border); padding-bottom: 1rem; margin-bottom: 1.25rem; }
.badges { margin: 0; }
.artifact-foot { border-top: 1px solid var(--border); margin-top: 1.5rem; color: var(--muted); }
.actions { display: flex; flex-wrap: wrap; gap: .5rem; margin-top: .8rem; }

.markdown { font-size: 1.02rem; line-height: 1.7; overflow-wrap: anywhere; }
.markdown > :first-child { margin-top: 0; }
.markdown h1, .markdown h2, .markdown h3 { margin: 1.6em 0 .5em; }
.markdown h2 { font-size: 1.3rem; padding-bottom: .25rem; border-bottom: 1px solid var(--border); }
.markdown p, .markdown ul, .markdown ol, .markdown table, .markdown pre, .markdown blockquote { margin: 0 0 1em; }
.markdown code { background: var(--code-bg); padding: .1em .35em; border-radius: 5px; }
.markdown pre { background: var(--code-bg); padding: 1rem; border-radius: 8px; overflow-x: auto; }
.markdown pre code { background: none; padding: 0; }
.markdown blockquote { border-left: 3px solid var(--accent); padding: .2rem 1rem; color: var(--muted); }
.markdown table { border-collapse: collapse; display: block; overflow-x: auto; }
.markdown th, .markdown td { border: 1px solid var(--border); padding: .4rem .7rem; }
.markdown th { background: var(--bg); }
.markdown img { max-width: 100%; }

button, .button { font: inherit; font-size: .92rem; font-weight: 600; display: inline-flex; align-items: center; gap: .35rem; padding: .45rem .95rem; border-radius: 8px; border: 1px solid var(--accent); background: var(--accent); color: var(--on-accent); cursor: pointer; text-decoration: none; line-height: 1.3; }
button:hover, .button:hover { filter: brightness(1.08); text-decoration: none; }
button.secondary, .button.secondary, button.copy { background: var(--surface); color: var(--text); border-color: var(--border); }
button.secondary:hover, .button.secondary:hover, button.copy:hover { background: var(--bg); filter: none; }
button.danger, .button.danger { background: var(--danger); border-color: var(--danger); color: var(--on-accent); }
button.small, .button.small { padding: .25rem .6rem; font-size: .82rem; }
button.link { background: none; border: none; color: var(--accent); padding: 0; font-weight: 500; }
button.copied { background: var(--success-bg); border-color: var(--success-border); color: var(--text); }
input, select, textarea { max-width: 100%; }
input, select { font: inherit; padding: .45rem .7rem; border: 1px solid var(--border); border-radius: 8px; background: var(--surface); color: var(--text); min-width: 0; }
input:focus, select:focus { border-color: var(--accent); }
label { font-weight: 600; font-size: .92rem; }

.search-large .row { display: flex; gap: .5rem; margin-top: .35rem; max-width: 640px; }
.search-large input { flex: 1; }
.summary { color: var(--muted); }
.notice { color: var(--muted); font-style: italic; }
ol.results { list-style: none; padding: 0; margin: 0; display: grid; gap: .75rem; }
ol.results li { background: var(--surface); border: 1px solid var(--border); border-radius: var(--radius); padding: .9rem 1.1rem; }
ol.results a { text-decoration: none; font-weight: 600; display: inline-flex; gap: .5rem; align-items: baseline; }
ol.results .preview { margin: .35rem 0 0; color: var(--muted); font-size: .93rem; }

ol.timeline { list-style: none; padding: 0; margin: 0 0 1.5rem; background: var(--surface); border: 1px solid var(--border); border-radius: var(--radius); box-shadow: var(--shadow); }
ol.timeline li { display: flex; justify-content: space-between; align-items: center; gap: 1rem; padding: .8rem 1.1rem; border-top: 1px solid var(--border); }
ol.timeline li:first-child { border-top: none; }
ol.timeline p { margin: 0; }
.change-main { min-width: 0; }
.subject { font-weight: 600; text-decoration: none; }
.verb-revert .subject::before, .verb-restore .subject::before { content: "↶ "; }
.client { font-family: var(--mono); font-size: .82rem; background: var(--bg); border: 1px solid var(--border); border-radius: 6px; padding: 0 .4rem; }
.counts { font-family: var(--mono); font-size: .85rem; white-space: nowrap; }
.counts .added { color: var(--add-mark); }
.counts .removed { color: var(--del-mark); }

.compare { display: flex; flex-wrap: wrap; gap: 1rem; align-items: end; }
.compare p { margin: 0; display: grid; gap: .25rem; }
.compare select { max-width: 320px; }

.diff-wrap { overflow-x: auto; border: 1px solid var(--border); border-radius: var(--radius); background: var(--surface); }
table.diff { width: 100%; border-collapse: collapse; font-family: var(--mono); font-size: .85rem; line-height: 1.5; }
table.diff td { padding: 0 .6rem; vertical-align: top; }
table.diff .ln { width: 1%; text-align: right; color: var(--muted); user-select: none; white-space: nowrap; border-right: 1px solid var(--border); }
table.diff .mark { width: 1%; user-select: none; font-weight: 700; }
table.diff .code { white-space: pre-wrap; word-break: break-word; }
table.diff tr.add { background: var(--add-bg); }
table.diff tr.add .mark { color: var(--add-mark); }
table.diff tr.del { background: var(--del-bg); }
table.diff tr.del .mark { color: var(--del-mark); }
table.diff tr.hunk td { background: var(--accent-soft); color: var(--accent-text); padding: .3rem .6rem; }

.notice { border: 1px solid var(--border); background: var(--surface); border-radius: var(--radius); padding: .8rem 1.1rem; margin-bottom: 1.25rem; }
.notice.success { background: var(--success-bg); border-color: var(--success-border); }
.notice.error { background: var(--error-bg); border-color: var(--error-border); }
form.confirm { display: flex; flex-wrap: wrap; gap: .6rem; align-items: center; margin: 1.25rem 0 1.75rem; }

.org-id-row { display: flex; flex-wrap: wrap; align-items: center; gap: .75rem; }
code.big { font-size: 1.1rem; background: var(--code-bg); padding: .45rem .75rem; border-radius: 8px; word-break: break-all; }
dl.urls { display: grid; grid-template-columns: max-content 1fr; gap: .5rem 1rem; margin: 0; align-items: center; }
dl.urls dt { font-weight: 600; }
dl.urls dd { margin: 0; display: flex; gap: .5rem; align-items: center; flex-wrap: wrap; }
dl.urls code { word-break: break-all; }
@media (max-width: 600px) { dl.urls { grid-template-columns: 1fr; } }
.snippet { border: 1px solid var(--border); border-radius: 8px; overflow: hidden; margin: .5rem 0 1rem; }
.snippet-head { display: flex; justify-content: space-between; align-items: center; background: var(--bg); padding: .35rem .6rem .35rem .9rem; font-size: .82rem; color: var(--muted); border-bottom: 1px solid var(--border); }
.snippet pre { margin: 0; padding: .9rem 1rem; overflow-x: auto; background: var(--code-bg); }
table.listing { width: 100%; border-collapse: collapse; margin: .5rem 0 1rem; font-size: .92rem; }
table.listing th, table.listing td { text-align: left; padding: .45rem .5rem; border-bottom: 1px solid var(--border); }
table.listing form { margin: 0; text-align: right; }
.button.danger-text { color: var(--danger); }
table.tokens { width: 100%; border-collapse: collapse; margin: .5rem 0 1rem; font-size: .92rem; }
table.tokens th, table.tokens td { text-align: left; padding: .45rem .5rem; border-bottom: 1px solid var(--border); }
table.tokens form { margin: 0; text-align: right; }
.scroll-box { position: relative; max-width: 100%; overflow-x: auto; margin: .5rem 0 1rem; }
.scroll-box > table { margin: 0; }
/* On a phone a wide table keeps readable columns and scrolls in its box rather than squeezing every cell. */
@media (max-width: 700px) { .scroll-box > table { min-width: 44rem; } }
.inline-form { display: flex; flex-wrap: wrap; gap: .6rem; align-items: center; }
.inline-form input { flex: 1 1 10rem; }
ul.workspace-list { list-style: none; padding: 0; margin: 0 0 1rem; display: grid; gap: .5rem; max-width: 40rem; }
table.members td, table.members th { vertical-align: top; }
table.members th[scope="row"] { font-weight: normal; }
table.members .member-name { font-weight: 600; }
table.members .member-actions { white-space: nowrap; text-align: right; }
table.members .member-actions form { display: inline-block; margin-left: .4rem; }

ul.cards { list-style: none; padding: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(260px, 1fr)); gap: 1rem; }
a.card { display: grid; gap: .3rem; background: var(--surface); border: 1px solid var(--border); border-radius: var(--radius); padding: 1.1rem 1.25rem; text-decoration: none; color: var(--text); box-shadow: var(--shadow); }
a.card:hover { border-color: var(--accent); }
a.card .mono { color: var(--muted); word-break: break-all; }

main.auth { max-width: 480px; margin: 3rem auto; background: var(--surface); border: 1px solid var(--border); border-radius: var(--radius); box-shadow: var(--shadow); padding: 1.75rem 2rem; flex: 0 0 auto; }
@media (max-width: 520px) { main.auth { margin: 1rem; width: auto; padding: 1.25rem; } }
main.auth form.decision { display: flex; gap: .6rem; flex-wrap: wrap; margin-top: 1.25rem; }
main.auth form.decision button { flex: 1 1 8rem; justify-content: center; }
.error-page { max-width: 560px; margin: 3rem auto; text-align: center; }
.error-page .status { font-size: 3rem; font-weight: 800; color: var(--accent); margin: 0; letter-spacing: -.03em; }
.error-page .message { color: var(--muted); }
.webhook .actions { display: flex; gap: .5rem; margin: .5rem 0 1rem; }
.webhook h3 { word-break: break-all; }
fieldset { border: 1px solid var(--border); border-radius: var(--radius); margin: 0 0 1rem; padding: .5rem 1rem; }
label.check { display: inline-flex; align-items: center; gap: .3rem; margin-right: 1rem; font-weight: normal; }
table.audit td.audit-detail { max-width: 28rem; overflow-wrap: anywhere; }
`;
