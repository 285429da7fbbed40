// What an executor module imports: the interface it implements and the helpers around it.
export type {
  CapabilityReport,
  GateRequest,
  Memory,
  RunnerGate,
  ScheduleRequest,
  ScheduleView,
} from "./api.ts";
export { awaitApproval } from "./approval.ts";
export type { RunnerConfig } from "./env.ts";
export {
  type ExecutionResult,
  type Executor,
  LeaseLostError,
  type LeaseTools,
  type ModelAccess,
  messageOf,
} from "./executor.ts";
export { createAgentExecutor } from "./executors/agent/agent.ts";
export { createEchoExecutor } from "./executors/echo.ts";
export { ApiError } from "./http.ts";
