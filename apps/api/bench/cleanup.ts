import { stopAllProcesses } from "./processes.ts";

/**
 * Undo steps for everything the bench creates (databases, temp dirs), run newest first after every child
 * process is stopped — on success, on failure and on Ctrl-C alike. Running it twice is harmless.
 */
export class Cleanup {
  private readonly steps: { label: string; run: () => Promise<void> | void }[] = [];
  private running: Promise<void> | null = null;

  defer(label: string, run: () => Promise<void> | void): void {
    this.steps.push({ label, run });
  }

  run(): Promise<void> {
    this.running ??= this.runAll();
    return this.running;
  }

  private async runAll(): Promise<void> {
    // Servers first: a database cannot be dropped cleanly, nor a data dir removed, while one holds it.
    await stopAllProcesses();
    for (let step = this.steps.pop(); step !== undefined; step = this.steps.pop()) {
      try {
        await step.run();
      } catch (error) {
        console.error(`cleanup: ${step.label} failed: ${error instanceof Error ? error.message : error}`);
      }
    }
  }
}
