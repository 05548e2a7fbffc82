/**
 * What the readability test measures in the browser, as plain JavaScript for `page.evaluate`
 * (the test project has no DOM types). Everything is DOM geometry at the page's default view.
 */

export interface PageMeasures {
  /** Smallest rendered size (computed font size times the graph's scale) of any text in a node. */
  readonly minNodeTextPx: number;
  readonly minEdgeLabelPx: number;
  /** Edges drawn, and labels drawn: a label with no clear spot would be left out. */
  readonly edges: number;
  readonly edgeLabels: number;
  /** Edge labels with a point of some edge's path inside their box: `label <- from>to`. */
  readonly labelsCrossed: readonly string[];
  /** Edge labels whose box overlaps a node's box or another label's box. */
  readonly labelsOverlapping: readonly string[];
  /** Timeline axis labels not wholly inside the timeline's SVG and its visible box. */
  readonly axisClipped: readonly string[];
  /** The graph's box over the main column's width. */
  readonly graphBoxShare: number;
  /** The drawn graph's width over its box's inner width. */
  readonly svgShare: number;
  /** The drawing is as tall as its box can be (the whole graph shown, fitted to the height). */
  readonly fillsHeight: boolean;
  readonly zoom: string;
  readonly scrollsSideways: boolean;
}

/**
 * A point of a path counts as inside a label when it lies more than half a pixel within the
 * label's text box (getBBox: the glyph cells, in the SVG's own units, as the paths are): a
 * stroke merely grazing the box's edge is not a crossing.
 *
 * Every path is still sampled at each unit of its length, but a point is compared only with the
 * labels whose box covers its cell of a coarse grid, and a path whose box meets no label's is
 * not sampled: the same crossings, in the same order, as comparing every point with every
 * label (a 50-call plan has about 100,000 points and 100 labels: that was most of a test).
 */
export const MEASURE_PAGE = String.raw`(() => {
  const svg = document.getElementById('graph-svg');
  const rect = svg.getBoundingClientRect();
  const scale = rect.width / svg.viewBox.baseVal.width;
  const px = (sel) => Math.min(...[...svg.querySelectorAll(sel)].map((t) => parseFloat(getComputedStyle(t).fontSize) * scale));
  const labels = [...svg.querySelectorAll('text.el')].map((t) => ({ t, b: t.getBBox(), r: t.getBoundingClientRect() }));
  const name = (t) => t.textContent + ' <- ' + t.getAttribute('data-from') + '>' + t.getAttribute('data-to');
  const CELL = 32;
  const cells = new Map();
  labels.forEach(({ b }, k) => {
    for (let cx = Math.floor((b.x + 0.5) / CELL); cx <= Math.floor((b.x + b.width - 0.5) / CELL); cx++)
      for (let cy = Math.floor((b.y + 0.5) / CELL); cy <= Math.floor((b.y + b.height - 0.5) / CELL); cy++) {
        const key = cx + ',' + cy;
        if (!cells.has(key)) cells.set(key, []);
        cells.get(key).push(k);
      }
  });
  const crossed = new Set();
  for (const p of svg.querySelectorAll('path.e')) {
    const pb = p.getBBox();
    const near = labels.some(({ b }) => pb.x - 1 < b.x + b.width - 0.5 && pb.x + pb.width + 1 > b.x + 0.5 && pb.y - 1 < b.y + b.height - 0.5 && pb.y + pb.height + 1 > b.y + 0.5);
    if (!near) continue;
    const len = p.getTotalLength();
    for (let s = 0; s <= len; s += 1) {
      const q = p.getPointAtLength(s);
      for (const k of cells.get(Math.floor(q.x / CELL) + ',' + Math.floor(q.y / CELL)) ?? []) {
        const { t, b } = labels[k];
        if (q.x > b.x + 0.5 && q.x < b.x + b.width - 0.5 && q.y > b.y + 0.5 && q.y < b.y + b.height - 0.5)
          crossed.add(name(t) + ' by ' + p.getAttribute('data-from') + '>' + p.getAttribute('data-to'));
      }
    }
  }
  const overlap = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
  const nodes = [...svg.querySelectorAll('g.n .shape')].map((s) => s.getBoundingClientRect());
  const overlapping = [];
  labels.forEach((l, k) => {
    if (nodes.some((n) => overlap(l.r, n))) overlapping.push(name(l.t) + ' on a node');
    for (const o of labels.slice(k + 1)) if (overlap(l.r, o.r)) overlapping.push(name(l.t) + ' on ' + name(o.t));
  });
  const tl = document.getElementById('timeline-svg').getBoundingClientRect();
  const box = document.getElementById('timeline');
  const boxRect = box.getBoundingClientRect();
  const visibleRight = boxRect.left + box.clientLeft + box.clientWidth;
  const axisClipped = [...document.querySelectorAll('#timeline-svg .axis text')]
    .filter((t) => {
      const r = t.getBoundingClientRect();
      return r.left < tl.left - 0.5 || r.right > tl.right + 0.5 || r.top < tl.top - 0.5 || r.bottom > tl.bottom + 0.5 || r.right > visibleRight + 0.5;
    })
    .map((t) => t.textContent);
  const graphBox = document.getElementById('graph');
  const column = document.querySelector('main > .left').getBoundingClientRect().width;
  return {
    minNodeTextPx: px('g.n text, g.n tspan'),
    minEdgeLabelPx: labels.length ? px('text.el') : Infinity,
    edges: svg.querySelectorAll('path.e').length,
    edgeLabels: labels.length,
    labelsCrossed: [...crossed],
    labelsOverlapping: overlapping,
    axisClipped,
    graphBoxShare: graphBox.getBoundingClientRect().width / column,
    svgShare: rect.width / graphBox.clientWidth,
    fillsHeight: rect.height >= parseFloat(getComputedStyle(graphBox).maxHeight) - (graphBox.offsetHeight - graphBox.clientHeight) - 12,
    zoom: document.getElementById('zoom-level').textContent,
    scrollsSideways: graphBox.scrollWidth > graphBox.clientWidth + 1,
  };
})()`;
