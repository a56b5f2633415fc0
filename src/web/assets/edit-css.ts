/** Styles of the pages that change things and of navigation: editor, create forms, children, side tree. */
export const EDIT_CSS = `
.with-side-tree { display: grid; grid-template-columns: minmax(0, 1fr); gap: 1.5rem; align-items: start; }
.side-tree { display: none; }
@media (min-width: 1100px) {
  .with-side-tree { grid-template-columns: 250px minmax(0, 1fr); }
  .with-side-tree > .beside-tree { grid-column: 2; grid-row: 1; }
  .with-side-tree > .side-tree { grid-column: 1; grid-row: 1; }
  .side-tree { display: block; position: sticky; top: 4.5rem; max-height: calc(100vh - 6rem); overflow: auto; font-size: .88rem; }
}
.side-tree-box { background: var(--surface); border: 1px solid var(--border); border-radius: var(--radius); padding: .6rem .7rem; }
.side-tree-title { font-weight: 700; cursor: pointer; color: var(--muted); font-size: .78rem; text-transform: uppercase; letter-spacing: .05em; }
.side-tree-heading { font-weight: 700; color: var(--muted); font-size: .78rem; text-transform: uppercase; letter-spacing: .05em; margin: .8rem 0 .2rem; }
ul.nav-tree, ul.nav-tree ul { list-style: none; margin: 0; padding: 0; }
ul.nav-tree ul { padding-left: .85rem; border-left: 1px solid var(--border); margin-left: .35rem; }
ul.nav-tree li { margin: .05rem 0; }
ul.nav-tree li.branch { position: relative; padding-left: 1rem; }
ul.nav-tree li.branch > details > summary { position: absolute; left: 0; top: .05rem; width: 1rem; cursor: pointer; list-style: none; color: var(--muted); font-size: .8rem; line-height: 1.6; }
ul.nav-tree summary::-webkit-details-marker { display: none; }
ul.nav-tree li.branch > details > ul { margin-left: -.65rem; }
ul.nav-tree li.branch > details > summary::before { content: "▸"; }
ul.nav-tree li.branch > details[open] > summary::before { content: "▾"; }
ul.nav-tree li.leaf { padding-left: 1rem; }
ul.nav-tree a { color: var(--text); text-decoration: none; border-radius: 5px; padding: .05rem .3rem; min-width: 0; overflow-wrap: anywhere; }
ul.nav-tree .folder-name { padding: 0 .3rem; }
ul.nav-tree a:hover { color: var(--accent); }
ul.nav-tree a[aria-current="page"] { background: var(--accent-soft); color: var(--accent-text); font-weight: 600; }

.children { border-top: 1px solid var(--border); margin-top: 1.5rem; padding-top: 1rem; display: grid; gap: 1.1rem; }
.child-head { display: flex; align-items: center; justify-content: space-between; gap: .75rem; flex-wrap: wrap; }
.child-head h2 { margin: 0; font-size: 1.05rem; }
.child-head .count { font-size: .75rem; font-weight: 600; color: var(--muted); background: var(--bg); border: 1px solid var(--border); border-radius: 999px; padding: .05rem .5rem; margin-left: .3rem; }
ul.child-list { list-style: none; margin: .5rem 0 0; padding: 0; border: 1px solid var(--border); border-radius: 8px; }
ul.child-list li { padding: .5rem .8rem; border-top: 1px solid var(--border); display: flex; flex-wrap: wrap; align-items: baseline; gap: .25rem; }
ul.child-list li:first-child { border-top: none; }
ul.child-list a { font-weight: 600; text-decoration: none; }
.muted { color: var(--muted); }
.home-actions { display: flex; flex-wrap: wrap; gap: .5rem; margin-top: .75rem; }

form.editor { display: grid; gap: 1rem; }
.editor-split { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 1rem; }
@media (max-width: 900px) { .editor-split { grid-template-columns: minmax(0, 1fr); } }
.editor-pane { display: grid; grid-template-rows: auto 1fr; gap: .35rem; min-width: 0; }
.pane-label { margin: 0; font-weight: 600; font-size: .92rem; }
form.editor textarea { width: 100%; min-height: 60vh; resize: vertical; font: .92rem/1.55 var(--mono); padding: .8rem .9rem; border: 1px solid var(--border); border-radius: 8px; background: var(--surface); color: var(--text); tab-size: 4; }
form.editor textarea:focus { border-color: var(--accent); }
.editor-preview { background: var(--surface); border: 1px solid var(--border); border-radius: 8px; padding: .9rem 1.2rem; min-height: 60vh; max-height: 75vh; overflow: auto; }
@media (max-width: 900px) { form.editor textarea { min-height: 40vh; } .editor-preview { min-height: 0; max-height: none; } }
.summary-field { display: grid; gap: .3rem; margin: 0; max-width: 640px; }
.optional { color: var(--muted); font-weight: 400; }
.form-actions { display: flex; gap: .6rem; align-items: center; margin: 0; flex-wrap: wrap; }
.conflict-changes { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 1rem; }
@media (max-width: 900px) { .conflict-changes { grid-template-columns: minmax(0, 1fr); } }

form.stacked { display: grid; gap: .9rem; max-width: 560px; }
form.stacked p { display: grid; gap: .3rem; margin: 0; }
form.stacked h2 { margin: 0; }
fieldset { border: 1px solid var(--border); border-radius: 8px; padding: .6rem .9rem; display: grid; gap: .3rem; }
legend { font-weight: 600; font-size: .92rem; padding: 0 .3rem; }
label.choice { font-weight: 400; display: flex; gap: .45rem; align-items: center; }
.two-forms { display: grid; grid-template-columns: repeat(auto-fit, minmax(280px, 1fr)); gap: 1.25rem; align-items: start; }

/* A long document comes in parts: the browser lays out and paints a part only near the screen. */
.doc-part { content-visibility: auto; contain-intrinsic-size: auto 1200px; }
`;
