/**
 * The page around the two SVGs: header, legend, scenario list, details panel, the style sheet
 * and the script, all inline. A Content-Security-Policy admits only this page's own style and
 * script (by hash) and no network at all, so even a string that escaped escaping could neither
 * run nor load anything.
 */
import { createHash } from 'node:crypto';
import { CLIENT_SCRIPT } from './client.js';
import { escapeHtml, jsonForScript } from './escape.js';
import { type ReportStatus, STATUS_STYLES } from './status.js';
import { EDGE_LABEL_FONT_PX, NODE_FONT_PX } from './zoom.js';

export interface PageParts {
  readonly title: string;
  /** Lines under the title (plain text, escaped here). */
  readonly summary: readonly string[];
  /** Statuses in the legend, with their counts. */
  readonly legend: readonly { readonly status: ReportStatus; readonly count: number }[];
  readonly graphSvg: string;
  /** Plain text under the graph's heading. */
  readonly graphNote: string;
  readonly timelineTitle: string;
  readonly timelineSvg: string;
  readonly timelineNote: string;
  /** Escaped markup: the dry run's scenario buttons, or ''. */
  readonly scenarios: string;
  /** Escaped markup: warnings and errors, or ''. */
  readonly diagnostics: string;
  /** Escaped markup: a `<template>` per workflow graph (composed-calls.ts), or '' when none. */
  readonly workflows: string;
  readonly data: unknown;
}

const STATUS_CSS = Object.entries(STATUS_STYLES)
  .map(([status, s]) => `.s-${status}{--f:${s.fill};--s:${s.stroke}}`)
  .join('\n');

const STYLE = `
*{box-sizing:border-box}
[hidden]{display:none!important}
html,body{margin:0;height:100%}
body{font:14px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2430;background:#f6f7f9;display:grid;grid-template-rows:auto 1fr;min-height:100vh}
header{padding:10px 16px;background:#fff;border-bottom:1px solid #d9dde3}
h1{font-size:18px;margin:0 0 2px}
.summary{margin:0;color:#4a5568}
.legend{display:flex;flex-wrap:wrap;gap:4px 14px;margin:6px 0 0;padding:0;list-style:none;font-size:13px}
.legend li{display:flex;align-items:center;gap:5px}
.sw{display:inline-block;width:14px;height:12px;border:1.5px solid var(--s);background:var(--f);border-radius:2px}
.key{color:#4a5568}
main{display:grid;grid-template-columns:minmax(0,1fr) 400px;min-height:0}
.left{display:flex;flex-direction:column;min-width:0;min-height:0;overflow:auto}
section.view{display:flex;flex-direction:column;min-height:0;min-width:0;border-bottom:1px solid #d9dde3;background:#fff}
.bar-head{display:flex;align-items:center;gap:10px;padding:6px 12px;border-bottom:1px solid #eceff3}
.bar-head h2{font-size:14px;margin:0}
.note{color:#5a6578;font-size:12px}
.tools{margin-left:auto;display:flex;gap:4px;align-items:center}
button{font:inherit;font-size:12px;border:1px solid #c3cad4;background:#fff;border-radius:4px;padding:2px 8px;cursor:pointer}
button:hover{background:#eef2f7}
.scroll{overflow:auto;min-height:0;min-width:0;flex:1}
#graph-view{flex:none}
#graph{max-height:70vh;min-height:120px;scrollbar-gutter:stable}
#timeline{max-height:38vh}
#graph-svg,#timeline-svg{display:block}
#graph-svg{margin:0 auto}
svg text{font:${NODE_FONT_PX}px ui-monospace,SFMono-Regular,Menlo,Consolas,"DejaVu Sans Mono",monospace;fill:#1d2430}
.n{cursor:pointer}
.n .shape{fill:var(--f);stroke:var(--s);stroke-width:1.5}
.n.cp .shape{stroke-width:3}
.n:hover .shape{filter:brightness(0.96)}
.n.sel .shape{stroke:#0b57d0;stroke-width:3.5}
.nid{font-weight:700}
.ntool{fill:#3c4656}
.nout{fill:#5a6578}
.nnote{fill:#3c4656;font-style:italic}
.s-static{--f:#fff;--s:#8794a6}
#wf-graph{max-height:60vh;min-height:80px}
[data-wf]{cursor:pointer}
.elist{margin:0;padding-left:0;list-style:none;font:12px/1.35 ui-monospace,Menlo,Consolas,monospace;max-height:40vh;overflow:auto}
.elist .failed{color:#c62828}
.alt.taken{font-weight:700;fill:#1d2430;text-decoration:underline}
.e{fill:none;stroke:#8794a6;stroke-width:1.3}
.e.order{stroke-dasharray:5 4}
.e.cp{stroke:#37474f;stroke-width:2.4}
.e.untaken{stroke:#c5ccd6}
.arrowhead{fill:#8794a6}
.el{font-size:${EDGE_LABEL_FONT_PX}px;fill:#50607a;text-anchor:middle;paint-order:stroke;stroke:#fff;stroke-width:3px;stroke-linejoin:round;pointer-events:none}
.axis line{stroke:#e3e7ec}
.axis text{font-size:10.5px;fill:#5a6578}
.bar{fill:var(--f);stroke:var(--s);stroke-width:1;cursor:pointer}
.bar.cp{stroke-width:2.5}
.bar.sel{stroke:#0b57d0;stroke-width:3}
.bar-labels text{font-size:10.5px;pointer-events:none}
aside{border-left:1px solid #d9dde3;background:#fff;overflow:auto;padding:12px 14px;min-height:0}
aside h2{font:700 15px ui-monospace,Menlo,Consolas,monospace;margin:0 0 8px;word-break:break-all}
aside dl{display:grid;grid-template-columns:auto 1fr;gap:3px 10px;margin:0 0 10px;font-size:13px}
aside dt{color:#5a6578}
aside dd{margin:0;word-break:break-word}
aside h3{font-size:13px;margin:10px 0 3px;color:#3c4656}
aside pre{margin:0;padding:6px 8px;background:#f4f6f8;border:1px solid #e3e7ec;border-radius:4px;font:12px/1.35 ui-monospace,Menlo,Consolas,monospace;white-space:pre-wrap;word-break:break-word;max-height:40vh;overflow:auto}
aside pre.err{background:#fdeeee;border-color:#f3c1c1}
.dep{display:block}
.dpath{color:#5a6578;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px}
button.go{padding:0 5px;font-family:ui-monospace,Menlo,Consolas,monospace}
.hint{color:#5a6578}
.scenarios{display:flex;flex-wrap:wrap;gap:4px;padding:6px 12px;border-bottom:1px solid #eceff3;max-height:120px;overflow:auto}
.scenarios button.on{background:#0b57d0;color:#fff;border-color:#0b57d0}
details.diags{margin-top:4px;font-size:13px}
details.diags li{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px}
${STATUS_CSS}
`;

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('base64');
}

const CSP = [
  "default-src 'none'",
  `style-src 'sha256-${sha256(STYLE)}'`,
  `script-src 'sha256-${sha256(CLIENT_SCRIPT)}'`,
  "img-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/**
 * Where a workflow call's graph opens (the script fills it from a template). A run's result
 * keeps no reports of the calls inside a workflow, so its graph has no statuses to show.
 */
function workflowView(templates: string): string {
  return `<section class="view" id="wf-view" hidden>
<div class="bar-head"><h2 id="wf-title">Workflow</h2><span class="note">in a run, each call as it ended in this call's sub-run; in a dry run (or for a call that ran no sub-run of its own), its plan as compiled, without statuses; a workflow in it opens the same way</span>
<span class="tools"><button type="button" data-wf-back title="the workflow this one was opened from">back</button><button type="button" data-wf-close>close</button></span></div>
<div id="wf-graph" class="scroll"></div>
${templates}
</section>`;
}

export function renderPage(p: PageParts): string {
  const legend = p.legend
    .map(
      ({ status, count }) =>
        `<li data-status="${status}"><span class="sw s-${status}"></span><span class="lbl">${escapeHtml(STATUS_STYLES[status].label)}</span> <span class="cnt">${count}</span></li>`,
    )
    .join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(p.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>${escapeHtml(p.title)}</h1>
${p.summary.map((line) => `<p class="summary">${escapeHtml(line)}</p>`).join('\n')}
<ul class="legend">${legend}<li class="key">hexagon: a branch (alternative written underlined) · dashed edge: order only · thick outline: critical path</li></ul>
${p.diagnostics}
</header>
<main>
<div class="left">
<section class="view" id="graph-view">
<div class="bar-head"><h2>Graph</h2><span class="note">${escapeHtml(p.graphNote)}</span>
<span class="tools"><button type="button" data-zoom="out" title="zoom out">−</button><span id="zoom-level" class="note">100%</span><button type="button" data-zoom="in" title="zoom in">+</button><button type="button" data-zoom="fit" title="fit the width, text at 11 px or more">fit</button><button type="button" data-zoom="all" title="the whole graph in view">all</button><button type="button" data-zoom="1">1:1</button></span></div>
${p.scenarios}
<div id="graph" class="scroll">${p.graphSvg}</div>
</section>
${p.workflows === '' ? '' : workflowView(p.workflows)}
<section class="view">
<div class="bar-head"><h2>${escapeHtml(p.timelineTitle)}</h2><span class="note">${escapeHtml(p.timelineNote)}</span></div>
<div id="timeline" class="scroll">${p.timelineSvg}</div>
</section>
</div>
<aside id="details" aria-live="polite"></aside>
</main>
<script type="application/json" id="report-data">${jsonForScript(p.data)}</script>
<script>${CLIENT_SCRIPT}</script>
</body>
</html>
`;
}
