// Plain values of schedules, without the schema library: the console's browser code imports them from
// here (docs/decisions/console-performance.md, "A page's first data comes with its HTML").

/** The longest scheduled message, in characters. */
export const SCHEDULE_MESSAGE_LIMIT = 4096;
