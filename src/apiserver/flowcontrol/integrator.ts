// A level's seat demand integrated over time: its time-weighted average and standard deviation between borrowing
// rounds, and its peak (k8s.io/apiserver pkg/util/flowcontrol/fairqueuing/integrator.go).

export interface IntegratorResults {
  /** Seconds integrated. */
  duration: number;
  average: number;
  /** sqrt(avg((x - avg)²)); NaN when rounding makes the variance negative or nothing was integrated. */
  deviation: number;
  min: number;
  max: number;
}

export class Integrator {
  private x = 0;
  private last: number;
  private elapsed = 0;
  private integralX = 0;
  private integralXX = 0;
  private min = 0;
  private max = 0;

  /** `now` in milliseconds (performance.now by default: cheap and monotonic). */
  constructor(private readonly now: () => number) {
    this.last = now();
  }

  /** The variable changes to `x` now (`t`: the caller's reading of the same clock, to save a second one). */
  set(x: number, t = this.now()): void {
    this.advance(t);
    this.x = x;
    if (x < this.min) this.min = x;
    if (x > this.max) this.max = x;
  }

  /** The results so far, then a fresh integration starting from the current value. */
  reset(): IntegratorResults {
    this.advance();
    const duration = this.elapsed;
    let average = NaN;
    let deviation = NaN;
    if (duration > 0) {
      average = this.integralX / duration;
      const variance = this.integralXX / duration - average * average;
      if (variance >= 0) deviation = Math.sqrt(variance);
    }
    const out = { duration, average, deviation, min: this.min, max: this.max };
    this.elapsed = this.integralX = this.integralXX = 0;
    this.min = this.max = this.x;
    return out;
  }

  private advance(t = this.now()): void {
    const dt = (t - this.last) / 1000;
    if (dt <= 0) return; // an earlier reading than the last: nothing to add, and the clock does not go back
    this.last = t;
    this.elapsed += dt;
    this.integralX += this.x * dt;
    this.integralXX += this.x * this.x * dt;
  }
}
