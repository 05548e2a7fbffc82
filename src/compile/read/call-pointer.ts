/** Where call `index` sits in the document: its pointer. */

/**
 * The pointer of call `index` in the calls array at `callsPointer` (`''` when the document is
 * the array). An index needs no escaping: one concatenation, not joinPointer's array of tokens.
 */
export function callPointer(callsPointer: string, index: number): string {
  return `${callsPointer}/${index}`;
}
