/**
 * Ctrl-C while a command runs a plan or an agent: the first one cancels the run (which still
 * ends with its summary); with the handler then gone, a second one ends the process the
 * default way.
 */
export class FirstInterrupt {
  readonly #controller = new AbortController();
  #interrupted = false;
  readonly #onSignal = (): void => {
    this.#interrupted = true;
    this.#controller.abort();
  };

  /** Listens for the first SIGINT from now on, until {@link dispose}. */
  constructor() {
    process.once('SIGINT', this.#onSignal);
  }

  /** Aborted by the first Ctrl-C: the run's signal. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** True once a Ctrl-C came. */
  get interrupted(): boolean {
    return this.#interrupted;
  }

  /** Stops listening; calling it again does nothing. */
  dispose(): void {
    process.removeListener('SIGINT', this.#onSignal);
  }
}
