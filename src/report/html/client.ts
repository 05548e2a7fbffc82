/**
 * The page's only script, plain ES2020 run in the browser. It draws nothing: the SVGs are
 * already laid out. It reads the data from `<script type="application/json" id="report-data">`,
 * listens once on the document (event delegation: no handler per node), and fills the details
 * panel with `textContent` only, so no data string is ever parsed as HTML.
 *
 * The graph's box reaches down to just above the timeline's heading. The graph opens whole in
 * it when that keeps a call's text at 11 px or more, else fitted to its box's width within the
 * zoom limits of zoom.ts (a wider graph scrolls); `all` shows the whole graph in the box.
 */
import { BELOW_GRAPH_PX, MAX_DEFAULT_ZOOM, MIN_DEFAULT_ZOOM } from './zoom.js';

export const CLIENT_SCRIPT = String.raw`(() => {
  'use strict';
  const data = JSON.parse(document.getElementById('report-data').textContent);
  const calls = data.calls;
  const byIndex = new Map();
  for (const el of document.querySelectorAll('[data-i]')) {
    const i = Number(el.getAttribute('data-i'));
    let list = byIndex.get(i);
    if (!list) byIndex.set(i, (list = []));
    list.push(el);
  }
  const panel = document.getElementById('details');
  const graphBox = document.getElementById('graph');
  const svg = document.getElementById('graph-svg');
  let selected = -1;
  let scenario = 0;

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function row(dl, name, value) {
    if (value === undefined || value === null || value === '') return;
    dl.append(el('dt', '', name));
    const dd = el('dd');
    if (value instanceof Node) dd.append(value);
    else dd.textContent = String(value);
    dl.append(dd);
  }
  function block(title, text, cls) {
    const s = el('section', 'block');
    s.append(el('h3', '', title), el('pre', cls || '', text));
    return s;
  }
  function ms(n) {
    return n >= 1000 ? (n / 1000).toFixed(2) + ' s' : (Math.round(n * 10) / 10) + ' ms';
  }
  function statusText(c) {
    return document.querySelector('.legend [data-status="' + c.view + '"] .lbl')?.textContent || c.view;
  }
  function link(i) {
    const b = el('button', 'go', calls[i].id);
    b.type = 'button';
    b.setAttribute('data-go', String(i));
    return b;
  }

  /** The output path; with alternatives, which one was written (run) or is chosen (scenario). */
  function writes(c, i) {
    if (!c.out || !c.alts) return c.out;
    const sc = data.kind === 'run' ? null : data.scenarios[scenario];
    const k = data.kind === 'run' ? c.branch : sc ? sc.choices[i] : undefined;
    if (k === null || k === undefined || c.alts[k] === undefined) return c.out;
    return c.alts[k] + '  (alternative ' + (k + 1) + ' of ' + c.alts.length + ': ' + c.out + ')';
  }

  function show(i) {
    const c = calls[i];
    panel.replaceChildren();
    panel.append(el('h2', 'did', c.id));
    const dl = el('dl');
    row(dl, 'tool', c.tool);
    row(dl, 'status', statusText(c));
    if (data.kind === 'run') {
      row(dl, 'attempts', c.attempts);
      // The written alternative goes in 'writes' below; the end is the start plus 'took'.
      const t0 = data.startedAt;
      if (c.startedAt) row(dl, 'started', '+' + ms(Date.parse(c.startedAt) - t0) + ' (' + c.startedAt + ')');
      else row(dl, 'started', 'never');
      if (c.startedAt && c.endedAt) row(dl, 'took', ms(Date.parse(c.endedAt) - Date.parse(c.startedAt)));
    } else {
      row(dl, 'step', c.level + 1);
      const runs = data.scenarios.filter((s) => !s.skipped.includes(i)).length;
      row(dl, 'runs in', runs + ' of ' + data.scenarios.length + ' scenarios');
    }
    row(dl, 'writes', writes(c, i));
    if (c.each) {
      row(dl, 'for each', c.each.source);
      row(dl, 'elements', c.each.summary);
    }
    if (c.wf !== undefined) {
      const b = el('button', 'go', 'open its graph');
      b.type = 'button';
      b.setAttribute('data-wf', String(c.wf));
      row(dl, 'workflow', b);
    }
    if (c.deps.length) {
      const span = el('span', 'deps');
      for (const d of c.deps) {
        const item = el('span', 'dep');
        item.append(link(d[0]), el('span', 'dpath', ' ' + d[1] + (d[2] === 'order' ? ' (order)' : '')));
        span.append(item);
      }
      row(dl, 'after', span);
    }
    panel.append(dl);
    if (c.each && c.each.elements.length) {
      const s = el('section', 'block');
      const list = el('ul', 'elist');
      c.each.elements.forEach((e, k) => list.append(el('li', e[0] === 'failed' ? 'failed' : '', '#' + k + ' ' + e[0] + (e[1] === null ? '' : ': ' + e[1]))));
      if (c.each.more) list.append(el('li', '', '… and ' + c.each.more + ' more'));
      s.append(el('h3', '', 'elements'), list);
      panel.append(s);
    }
    if (data.explain) panel.append(explained(data.explain[i]));
    else panel.append(el('p', 'hint', 'Too many calls to explain each here: plan explain <file> ' + c.id + ' answers for this one.'));
    if (data.kind === 'run') {
      if (c.args !== undefined) panel.append(block('arguments (resolved)', c.args));
      else panel.append(block('arguments (as written)', c.raw));
      if (c.error) panel.append(block(c.handled ? 'error (written to ' + c.alts[c.branch] + ')' : 'error', c.error, 'err'));
      if (c.output !== undefined) panel.append(block('output', c.output));
    } else {
      panel.append(block('arguments (as written)', c.raw));
      if (c.sample !== undefined) panel.append(block('sampled output (' + c.sampleSource + ')', c.sample));
      const sc = data.scenarios[scenario];
      const errs = sc ? sc.errors.filter((e) => e[0] === i) : [];
      if (errs.length) panel.append(block('argument errors in scenario ' + scenario, errs.map((e) => (e[1] || '/') + ': ' + e[2]).join('\n'), 'err'));
    }
  }

  /** A list of calls ([indices, more]) as buttons that select them. */
  function callList(list) {
    const span = el('span', 'deps');
    list[0].forEach((j, k) => span.append(...(k > 0 ? [' ', link(j)] : [link(j)])));
    if (list[1] > 0) span.append(el('span', 'dpath', ' … and ' + list[1] + ' more'));
    return span;
  }
  /** plan explain's three answers (explain-data.ts made them when the page was written). */
  function explained(x) {
    const s = el('section', 'explain');
    const why = el('dl');
    if (!x.waits.length) row(why, 'waits for', 'nothing: it can start with the run');
    for (const w of x.waits) {
      const item = el('span', 'dep');
      item.append(link(w[0]), el('span', 'dpath', ' ' + w[1]));
      row(why, 'waits for', item);
    }
    if (x.waitsMore > 0) row(why, 'and', x.waitsMore + ' more');
    if (x.chainLength > 1) {
      const chain = el('span', 'chain');
      if (x.chainLength > x.chain.length) chain.append(el('span', 'dpath', '(' + (x.chainLength - x.chain.length) + ' before) '));
      x.chain.forEach((j, k) => {
        if (k > 0) chain.append(el('span', 'dpath', ' → ' + x.links[k - 1] + ' → '));
        chain.append(link(j));
      });
      row(why, 'longest chain (' + x.chainLength + ')', chain);
    }
    const blocks = el('dl');
    if (!x.descendants) row(blocks, 'blocks', 'nothing: no call depends on it');
    for (const o of x.descendants ? x.outcomes : []) {
      const d = el('span', 'outcome');
      const names = ['upstream_failed', 'skipped', 'may still run'];
      names.forEach((name, k) => {
        const list = o[k + 1];
        if (!list[0].length) return;
        if (d.childNodes.length) d.append('; ');
        d.append(el('span', 'dpath', name + ': '), callList(list));
      });
      row(blocks, o[0], d);
    }
    const parts = el('dl');
    if (x.parts === 1) row(parts, 'independent', 'nothing: every call is connected to this one');
    else {
      row(parts, 'parts', x.parts + ' with no edge between them');
      row(parts, 'this part', callList(x.own));
    }
    s.append(el('h3', '', 'Why it waits'), why, el('h3', '', 'What its failure or skip would block (' + x.descendants + ' downstream)'), blocks, el('h3', '', 'Independent parts'), parts);
    return s;
  }

  function select(i, reveal) {
    for (const e of document.querySelectorAll('.sel')) e.classList.remove('sel');
    selected = i;
    if (i < 0 || !calls[i]) {
      panel.replaceChildren(el('p', 'hint', 'Click a call in the graph or the timeline to see its details.'));
      return;
    }
    for (const e of byIndex.get(i) || []) e.classList.add('sel');
    show(i);
    if (calls[i].wf !== undefined) openWorkflow(calls[i].wf, false);
    if (reveal) {
      const node = (byIndex.get(i) || []).find((e) => e.closest('#graph'));
      if (node) node.scrollIntoView({ block: 'center', inline: 'center' });
    }
  }

  function setScenario(k) {
    const sc = data.scenarios[k];
    if (!sc) return;
    scenario = k;
    const skipped = new Set(sc.skipped);
    const wrong = new Set(sc.errors.map((e) => e[0]));
    calls.forEach((c, i) => {
      const view = skipped.has(i) ? 'skipped' : wrong.has(i) ? 'argument_error' : 'runs';
      if (view === c.view) return;
      for (const e of byIndex.get(i) || []) e.classList.replace('s-' + c.view, 's-' + view);
      c.view = view;
    });
    for (const b of document.querySelectorAll('[data-sc]')) b.classList.toggle('on', Number(b.getAttribute('data-sc')) === k);
    if (selected >= 0) show(selected);
  }

  // A workflow's graph opens below the main one; one opened from inside it can go back.
  const wfView = document.getElementById('wf-view');
  let wfStack = [];
  function openWorkflow(k, nested) {
    const t = document.getElementById('wf-' + k);
    if (!wfView || !t) return;
    if (nested) wfStack.push(k);
    else wfStack = [k];
    document.getElementById('wf-graph').replaceChildren(t.content.cloneNode(true));
    const w = data.workflows[k];
    document.getElementById('wf-title').textContent = 'Workflow ' + w.tool + ' (' + w.calls + ' call' + (w.calls === 1 ? '' : 's') + ')';
    wfView.querySelector('[data-wf-back]').hidden = wfStack.length < 2;
    wfView.hidden = false;
  }
  function closeWorkflow() {
    wfStack = [];
    if (wfView) wfView.hidden = true;
  }

  let zoom = 1;
  function setZoom(z) {
    if (!svg) return;
    zoom = Math.min(2, Math.max(0.1, z));
    // Whole pixels, rounded up: a drawing a fraction of a pixel small draws text under its zoom.
    svg.style.width = Math.ceil(Number(svg.getAttribute('data-w')) * zoom) + 'px';
    svg.style.height = Math.ceil(Number(svg.getAttribute('data-h')) * zoom) + 'px';
    document.getElementById('zoom-level').textContent = Math.round(zoom * 100) + '%';
  }
  /** The box's width, but no smaller than keeps text readable and no larger than crisp. */
  function fitWidth() {
    const w = Number(svg.getAttribute('data-w'));
    return Math.min(${MAX_DEFAULT_ZOOM}, Math.max(${MIN_DEFAULT_ZOOM}, (graphBox.clientWidth - 8) / w));
  }
  /**
   * The whole graph in the box, however small: an overview. The box's height is its largest
   * (a short graph's box shrinks to it), less its borders.
   */
  function fitAll() {
    const w = Number(svg.getAttribute('data-w'));
    const h = Number(svg.getAttribute('data-h'));
    const tall = parseFloat(getComputedStyle(graphBox).maxHeight) - (graphBox.offsetHeight - graphBox.clientHeight);
    return Math.min(${MAX_DEFAULT_ZOOM}, (graphBox.clientWidth - 8) / w, (tall - 8) / h);
  }
  /** Down to just above the timeline's heading on a window of the usual height, 70% of it on a short one. */
  function sizeGraphBox() {
    const top = graphBox.getBoundingClientRect().top + window.scrollY;
    graphBox.style.maxHeight = Math.max(0.7 * window.innerHeight, window.innerHeight - top - ${BELOW_GRAPH_PX}) + 'px';
  }

  document.addEventListener('click', (ev) => {
    const t = ev.target instanceof Element ? ev.target.closest('[data-i],[data-go],[data-sc],[data-zoom],[data-wf],[data-wf-back],[data-wf-close]') : null;
    if (!t) return;
    if (t.hasAttribute('data-wf-close')) closeWorkflow();
    else if (t.hasAttribute('data-wf-back')) {
      wfStack.pop();
      const k = wfStack.pop();
      if (k === undefined) closeWorkflow();
      else openWorkflow(k, true);
    } else if (t.hasAttribute('data-wf')) openWorkflow(Number(t.getAttribute('data-wf')), t.closest('#wf-graph') !== null);
    else if (t.hasAttribute('data-go')) select(Number(t.getAttribute('data-go')), true);
    else if (t.hasAttribute('data-i')) select(Number(t.getAttribute('data-i')), false);
    else if (t.hasAttribute('data-sc')) setScenario(Number(t.getAttribute('data-sc')));
    else {
      const z = t.getAttribute('data-zoom');
      setZoom(z === 'in' ? zoom * 1.25 : z === 'out' ? zoom / 1.25 : z === 'fit' ? fitWidth() : z === 'all' ? fitAll() : 1);
    }
  });
  document.addEventListener('keydown', (ev) => {
    if (ev.key === 'Escape') select(-1, false);
  });
  if (svg) {
    sizeGraphBox();
    const whole = fitAll();
    setZoom(whole >= ${MIN_DEFAULT_ZOOM} ? whole : fitWidth());
    // A top-to-bottom graph wider than its box starts scrolled to its first call, not to an
    // empty left corner (a left-to-right one starts at its left end anyway).
    const first = (byIndex.get(0) || []).find((e) => e.closest('#graph'));
    if (first && svg.getAttribute('data-direction') === 'TB' && graphBox.scrollWidth > graphBox.clientWidth) {
      const box = graphBox.getBoundingClientRect();
      const node = first.getBoundingClientRect();
      graphBox.scrollLeft += node.left + node.width / 2 - (box.left + graphBox.clientWidth / 2);
    }
  }
  // The timeline is drawn 1,000 px wide: shrink it to its box (never below 60%), text and all.
  const tl = document.getElementById('timeline-svg');
  const tlBox = document.getElementById('timeline');
  if (tl && tlBox) {
    const w = Number(tl.getAttribute('width'));
    const s = Math.max(0.6, Math.min(1, (tlBox.clientWidth - 4) / w));
    tl.style.width = w * s + 'px';
    tl.style.height = Number(tl.getAttribute('height')) * s + 'px';
  }
  select(-1, false);
  document.documentElement.setAttribute('data-ready', 'true');
})();
`;
