// Plain values of the overview, without the schema library: the console's browser code imports them from
// here (docs/decisions/console-performance.md, "A page's first data comes with its HTML").

/** A panel's count stops here: a total of this many reads "at least". */
export const OVERVIEW_COUNT_CAP = 1000;
