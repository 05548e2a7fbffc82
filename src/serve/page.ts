/**
 * The approval page at `GET /`: one self-contained HTML page (inline style and script, nothing
 * fetched from anywhere but this server). It lists the pending approvals, each plan with its
 * dry-run report (graph, scenarios, critical path) drawn by renderReport, and answers them:
 * approve, reject with feedback, or approve an edited plan. Below, the runs with their status,
 * kept live by the server's one event stream (`/api/events`). With a token, open the page as
 * `/#token=<token>` (the fragment never leaves the browser) or type it in.
 */
import { PAGE_SCRIPT } from './page-script.js';

export interface ApprovalPageOptions {
  /** Show the agents section. @default false */
  readonly agents?: boolean;
}

const STYLE = `
:root { color-scheme: light dark; --line: #8884; --muted: #888; --ok: #1a7f37; --bad: #cf222e; --warn: #9a6700; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, sans-serif; margin: 0; padding: 16px 24px 48px; }
h1 { font-size: 20px; margin: 0 0 4px; }
h2 { font-size: 16px; margin: 28px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
.muted { color: var(--muted); }
#connection[data-state="live"] { color: var(--ok); }
#connection[data-state="down"] { color: var(--bad); }
.card { border: 1px solid var(--line); border-radius: 8px; padding: 12px 14px; margin: 10px 0; }
.card h3 { font-size: 15px; margin: 0 0 6px; }
.card .reason { margin: 0 0 8px; }
.card iframe { width: 100%; height: 560px; border: 1px solid var(--line); border-radius: 6px; background: #fff; }
.card textarea { width: 100%; min-height: 220px; font: 12px/1.4 ui-monospace, monospace; }
.card input.feedback { width: min(520px, 100%); }
.actions { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin-top: 10px; }
button { font: inherit; padding: 4px 12px; border-radius: 6px; border: 1px solid var(--line); cursor: pointer; }
button.approve { background: var(--ok); color: #fff; border-color: var(--ok); }
button.reject { background: var(--bad); color: #fff; border-color: var(--bad); }
pre { font: 12px/1.4 ui-monospace, monospace; white-space: pre-wrap; overflow-wrap: anywhere; margin: 6px 0; max-height: 320px; overflow: auto; }
.diagnostic { color: var(--bad); }
.summary span { margin-right: 14px; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
td.status[data-status="succeeded"] { color: var(--ok); }
td.status[data-status="failed"], td.status[data-status="error"], td.status[data-status="rejected"] { color: var(--bad); }
td.status[data-status="awaiting_approval"] { color: var(--warn); }
#token-form { display: none; margin: 8px 0; }
#token-form[data-shown="true"] { display: block; }
.error { color: var(--bad); }
`;

/** The page's HTML. */
export function approvalPage(options: ApprovalPageOptions = {}): string {
  const agents = options.agents === true;
  return `<!doctype html>
<html lang="en" data-ready="false" data-agents="${agents}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>planmode: approvals</title>
<style>${STYLE}</style>
</head>
<body>
<h1>planmode approvals</h1>
<div class="muted">Plans and calls waiting for a person, and the runs of this server. <span id="connection" data-state="connecting">connecting…</span></div>
<form id="token-form"><label>Token <input id="token" type="password" autocomplete="off"></label> <button type="submit">Use</button></form>
<div id="page-error" class="error" role="alert"></div>
<h2>Waiting for approval <span id="approval-count" class="muted"></span></h2>
<div id="approvals"><p class="muted">Nothing is waiting.</p></div>
<h2>Runs</h2>
<table><thead><tr><th>run</th><th>status</th><th>mode</th><th>calls</th><th>started</th></tr></thead><tbody id="runs"></tbody></table>
${agents ? '<h2>Agents</h2>\n<table><thead><tr><th>agent</th><th>task</th><th>status</th><th>latch</th></tr></thead><tbody id="agents"></tbody></table>' : ''}
<script>${PAGE_SCRIPT}</script>
</body>
</html>
`;
}
