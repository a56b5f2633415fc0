/**
 * Styles of the MCP Apps: the web application's colors and diff marks, in light and dark as the
 * host says (`data-theme`, set from the host context), under the host's own style variables
 * when it sends them. One column that reads at 390 px; a wide diff scrolls on its own.
 */
export const APP_CSS = `
:root {
  color-scheme: light;
  --bg: var(--color-background-primary, #ffffff); --soft: var(--color-background-secondary, #f7f7f5);
  --text: var(--color-text-primary, #1f2328); --muted: var(--color-text-secondary, #5d6470);
  --border: var(--color-border-primary, #e3e3df); --accent: #4f46e5; --code-bg: #f1f1ee;
  --add-bg: #e6f6ea; --add-mark: #1a7f37; --del-bg: #fdecec; --del-mark: #cf222e; --danger: #b42318;
  --sans: var(--font-sans, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif);
  --mono: var(--font-mono, ui-monospace, SFMono-Regular, Menlo, Consolas, monospace);
}
[data-theme="dark"] {
  color-scheme: dark;
  --bg: var(--color-background-primary, #1c1f26); --soft: var(--color-background-secondary, #15171c);
  --text: var(--color-text-primary, #e6e7ea); --muted: var(--color-text-secondary, #9ba1ad);
  --border: var(--color-border-primary, #2d313a); --accent: #a5b4fc; --code-bg: #262a33;
  --add-bg: #15321f; --add-mark: #56d37a; --del-bg: #3a1a1c; --del-mark: #ff7b72; --danger: #ff7b72;
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--text); font: 15px/1.6 var(--sans); }
main { padding: 1rem 1.1rem 1.25rem; max-width: 880px; }
h1 { font-size: 1.35rem; line-height: 1.3; margin: .2rem 0 .3rem; overflow-wrap: anywhere; }
h2 { font-size: 1.05rem; margin: 0 0 .4rem; }
a { color: var(--accent); }
code { font-family: var(--mono); font-size: .9em; }
.muted, .meta, .eyebrow { color: var(--muted); }
.meta { font-size: .9rem; margin: 0; }
.eyebrow { margin: 0; font-size: .85rem; display: flex; gap: .4rem; align-items: center; }
.head { border-bottom: 1px solid var(--border); padding-bottom: .75rem; margin-bottom: 1rem; }
.crumbs ol { list-style: none; display: flex; flex-wrap: wrap; gap: .25rem; padding: 0; margin: 0 0 .5rem; font-size: .85rem; color: var(--muted); }
.crumbs li + li::before { content: "›"; margin-right: .25rem; }
.badge { display: inline-block; font-size: .68rem; font-weight: 600; letter-spacing: .03em; text-transform: uppercase; border-radius: 999px; padding: .05rem .5rem; white-space: nowrap; border: 1px solid var(--border); background: var(--soft); color: var(--muted); }
.badge.type-product { color: #6d28d9; } .badge.type-capability { color: #1d4ed8; } .badge.type-feature { color: #047857; }
.badge.type-requirement { color: #b45309; } .badge.type-acceptance_criterion { color: #be185d; } .badge.type-user_type { color: #0e7490; }
.badge.type-core_entity { color: #4d7c0f; } .badge.type-page { color: #475569; }
[data-theme="dark"] .badge[class*="type-"] { filter: brightness(1.7) saturate(.8); }
.markdown { overflow-wrap: anywhere; }
.markdown > :first-child { margin-top: 0; }
.markdown h1, .markdown h2, .markdown h3 { margin: 1.3em 0 .4em; }
.markdown h2 { font-size: 1.15rem; border-bottom: 1px solid var(--border); padding-bottom: .2rem; }
.markdown code { background: var(--code-bg); padding: .1em .3em; border-radius: 4px; }
.markdown pre { background: var(--code-bg); padding: .8rem; border-radius: 8px; overflow-x: auto; }
.markdown pre code { background: none; padding: 0; }
.markdown blockquote { border-left: 3px solid var(--accent); margin: 0 0 1em; padding: .1rem .9rem; color: var(--muted); }
.markdown table { border-collapse: collapse; display: block; overflow-x: auto; }
.markdown th, .markdown td { border: 1px solid var(--border); padding: .3rem .6rem; }
.markdown img { max-width: 100%; }
.diff-wrap { overflow-x: auto; border: 1px solid var(--border); border-radius: 8px; }
table.diff { border-collapse: collapse; width: 100%; font: 13px/1.5 var(--mono); }
table.diff td { padding: 0 .5rem; vertical-align: top; }
table.diff td.ln { color: var(--muted); text-align: right; user-select: none; width: 1%; white-space: nowrap; }
table.diff td.mark { width: 1%; user-select: none; }
table.diff td.code { white-space: pre-wrap; overflow-wrap: anywhere; }
table.diff tr.add { background: var(--add-bg); } table.diff tr.add td.mark { color: var(--add-mark); }
table.diff tr.del { background: var(--del-bg); } table.diff tr.del td.mark { color: var(--del-mark); }
table.diff tr.hunk td { color: var(--muted); background: var(--soft); }
table.diff ins { background: color-mix(in srgb, var(--add-mark) 28%, transparent); text-decoration: none; border-radius: 3px; }
table.diff del { background: color-mix(in srgb, var(--del-mark) 26%, transparent); text-decoration: none; border-radius: 3px; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.meta .added { color: var(--add-mark); } .meta .removed { color: var(--del-mark); }
.actions { margin-top: 1rem; }
.confirm { border: 1px solid var(--border); border-radius: 10px; padding: .8rem 1rem; background: var(--soft); }
.confirm p { margin: 0 0 .75rem; color: var(--muted); }
.buttons { display: flex; gap: .5rem; flex-wrap: wrap; }
button { font: inherit; border-radius: 8px; padding: .45rem .9rem; border: 1px solid var(--border); background: var(--soft); color: var(--text); cursor: pointer; }
button.danger { background: var(--danger); border-color: var(--danger); color: #fff; font-weight: 600; }
[data-theme="dark"] button.danger { color: #1c1f26; }
button:disabled { opacity: .6; cursor: progress; }
button.back { margin-bottom: .75rem; }
.notice { border-radius: 8px; padding: .6rem .8rem; margin: 0 0 .75rem; border: 1px solid var(--border); background: var(--soft); }
.notice.error { border-color: var(--del-mark); background: var(--del-bg); }
.notice.ok { border-color: var(--add-mark); background: var(--add-bg); }
.results-head { font-size: 1.05rem; }
ul.results { list-style: none; padding: 0; margin: 0; display: grid; gap: .5rem; }
button.result { display: grid; gap: .15rem; width: 100%; text-align: left; background: var(--bg); padding: .6rem .75rem; }
button.result:hover, button.result:focus-visible { border-color: var(--accent); }
button.result .line { display: flex; gap: .5rem; align-items: baseline; flex-wrap: wrap; }
button.result .title { font-weight: 600; overflow-wrap: anywhere; }
button.result .place { color: var(--muted); font-size: .8rem; }
button.result .place:empty { display: none; }
button.result .preview { color: var(--muted); font-size: .88rem; overflow-wrap: anywhere; }
@media (max-width: 480px) { main { padding: .75rem; } h1 { font-size: 1.2rem; } table.diff td.ln { display: none; } }
`;
