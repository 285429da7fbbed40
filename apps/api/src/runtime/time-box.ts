import { createContext, Script } from "node:vm";

/** What `timeBoxed` answers when the task ran out of its time. */
export const OUT_OF_TIME: unique symbol = Symbol("out of time");

// One context for every boxed task, made once: making one costs about another millisecond on top of each
// run. The task runs synchronously, so one slot is enough.
const sandbox = createContext({ task: (): unknown => undefined });
const runTask = new Script("task()");

/**
 * Runs a synchronous `task` for at most `ms` milliseconds: past it, V8 stops it wherever it is (inside a
 * backtracking regular expression too) and the answer is `OUT_OF_TIME`. For work whose cost a third party
 * sets, such as checking a value against a JSON Schema a runner relayed from an MCP server. A task's own
 * exception propagates.
 */
export function timeBoxed<T>(task: () => T, ms: number): T | typeof OUT_OF_TIME {
  sandbox.task = task;
  try {
    return runTask.runInContext(sandbox, { timeout: ms }) as T;
  } catch (error) {
    if ((error as { code?: unknown }).code === "ERR_SCRIPT_EXECUTION_TIMEOUT") return OUT_OF_TIME;
    throw error;
  } finally {
    sandbox.task = () => undefined;
  }
}
