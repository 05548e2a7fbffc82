/**
 * The graph's default zoom, shared by the layout (which picks a direction for it) and the page
 * (which applies it): fit the column's width, but never so small that a call's text is under
 * {@link MIN_TEXT_PX}, and never blown up past {@link MAX_DEFAULT_ZOOM}. A graph too wide for
 * that scrolls; a tall one scrolls down.
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
