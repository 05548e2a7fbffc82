/**
 * The graph's default zoom, shared by the layout (which picks a direction and a fold for it)
 * and the page (which applies it): the whole graph in its box when that keeps a call's text at
 * {@link MIN_TEXT_PX} or more; otherwise fit the column's width, but never so small that a
 * call's text is under {@link MIN_TEXT_PX}. Never blown up past {@link MAX_DEFAULT_ZOOM}. A
 * graph too wide for that scrolls; a tall one scrolls down.
 */

/** Font size of the text in a call's box (the page's style sheet uses it). */
export const NODE_FONT_PX = 12;
/** Font size of an edge's label. */
export const EDGE_LABEL_FONT_PX = 11;
/** The smallest a call's text may be drawn at the default zoom. */
export const MIN_TEXT_PX = 11;
export const MIN_DEFAULT_ZOOM = MIN_TEXT_PX / NODE_FONT_PX;
export const MAX_DEFAULT_ZOOM = 1.25;
/** The graph's box at a 1280 px wide window, for choosing a direction before any window exists. */
export const TYPICAL_COLUMN_WIDTH = 860;
/**
 * The graph's box at the default window size (1400 x 900: the page's column beside the details
 * panel, from under the header to a strip above the timeline's heading), in CSS px. A layout
 * that fits it at {@link MIN_DEFAULT_ZOOM} is seen whole on the first screen.
 */
export const FIRST_SCREEN_BOX = { w: 970, h: 640 } as const;
/** What the page leaves under the graph's box, so the timeline's heading shows below it. */
export const BELOW_GRAPH_PX = 44;

/** Whether a graph of this size (in the layout's units) is seen whole on the first screen. */
export function fitsFirstScreen(size: { readonly width: number; readonly height: number }): boolean {
  return (
    size.width * MIN_DEFAULT_ZOOM <= FIRST_SCREEN_BOX.w &&
    size.height * MIN_DEFAULT_ZOOM <= FIRST_SCREEN_BOX.h
  );
}
