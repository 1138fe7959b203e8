/**
 * Runs tasks with at most `global` in flight in all and at most `perHost` in flight per host. A task
 * waiting for its host does not hold a global slot, so one slow host cannot starve the others.
 */
export class ProbeLimiter {
  private inFlight = 0;
  private readonly hosts = new Map<string, number>();
  private readonly waiting: { host: string; start: () => void }[] = [];

  constructor(
    private readonly global: number,
    private readonly perHost: number,
  ) {}

  run<T>(host: string, task: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        this.inFlight++;
        this.hosts.set(host, (this.hosts.get(host) ?? 0) + 1);
        task()
          .then(resolve, reject)
          .finally(() => {
            this.inFlight--;
            const n = this.hosts.get(host)! - 1;
            if (n === 0) this.hosts.delete(host);
            else this.hosts.set(host, n);
            this.next();
          });
      };
      this.waiting.push({ host, start });
      this.next();
    });
  }

  private next(): void {
    for (let i = 0; i < this.waiting.length && this.inFlight < this.global;) {
      const w = this.waiting[i];
      if ((this.hosts.get(w.host) ?? 0) < this.perHost) {
        this.waiting.splice(i, 1);
        w.start();
      } else i++;
    }
  }
}
