/**
 * A pass run soon on this instance when told there is work (an outbox's deliverer), rather than at the
 * next periodic pass. Kicks while a pass is under way coalesce into one more pass; a failed pass is told to
 * `onError` and the next kick runs again.
 */
export class CoalescedRun {
  private running = false;
  private again = false;

  constructor(
    private readonly pass: () => Promise<unknown>,
    private readonly onError: (error: unknown) => void,
  ) {}

  kick(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    void this.run();
  }

  private async run(): Promise<void> {
    try {
      do {
        this.again = false;
        await this.pass();
      } while (this.again);
    } catch (error) {
      this.onError(error);
    } finally {
      this.running = false;
    }
  }
}
