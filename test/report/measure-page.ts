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
 */
export const MEASURE_PAGE = String.raw`(() => {
  const svg = document.getElementById('graph-svg');
  const rect = svg.getBoundingClientRect();
  const scale = rect.width / svg.viewBox.baseVal.width;
  const px = (sel) => Math.min(...[...svg.querySelectorAll(sel)].map((t) => parseFloat(getComputedStyle(t).fontSize) * scale));
  const labels = [...svg.querySelectorAll('text.el')].map((t) => ({ t, b: t.getBBox(), r: t.getBoundingClientRect() }));
  const name = (t) => t.textContent + ' <- ' + t.getAttribute('data-from') + '>' + t.getAttribute('data-to');
  const crossed = new Set();
  for (const p of svg.querySelectorAll('path.e')) {
    const len = p.getTotalLength();
    for (let s = 0; s <= len; s += 1) {
      const q = p.getPointAtLength(s);
      for (const { t, b } of labels) {
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
