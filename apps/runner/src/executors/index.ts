import { isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { RunnerConfig } from "../env.ts";
import type { Executor } from "../executor.ts";
import { createAgentExecutor } from "./agent/agent.ts";
import { createAutoExecutor } from "./auto.ts";
import { createEchoExecutor } from "./echo.ts";

/**
 * The executor `FLEET_RUNNER_EXECUTOR` names: `echo`, `agent`, `auto` (agent for a fleet that declares
 * tools, echo otherwise), or a path to a module exporting
 * `createExecutor(config): Executor | Promise<Executor>` (resolved against the working directory).
 */
export async function loadExecutor(config: RunnerConfig): Promise<Executor> {
  if (config.executor === "echo") return createEchoExecutor({ delayMs: config.echoDelayMs });
  const agent = () => createAgentExecutor({ maxSteps: config.agentMaxSteps, maxRunMs: config.agentMaxRunMs });
  if (config.executor === "agent") return agent();
  if (config.executor === "auto")
    return createAutoExecutor({ agent: agent(), echo: createEchoExecutor({ delayMs: config.echoDelayMs }) });
  if (!/[/\\]/.test(config.executor)) {
    throw new Error(`unknown executor "${config.executor}": use echo, agent, auto, or a path to a module`);
  }
  const path = isAbsolute(config.executor) ? config.executor : resolve(config.executor);
  const module = (await import(pathToFileURL(path).href)) as {
    createExecutor?: (config: RunnerConfig) => Executor | Promise<Executor>;
  };
  if (typeof module.createExecutor !== "function") {
    throw new Error(`executor module ${path} does not export createExecutor`);
  }
  return module.createExecutor(config);
}
