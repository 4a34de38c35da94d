/**
 * One upstream attempt's abort signal: the caller's signal or a timeout, whichever comes first.
 *
 * Not `AbortSignal.any([signal, AbortSignal.timeout(ms)])`: Node holds a timeout signal only
 * weakly (its timer and the composite both keep WeakRefs), so a garbage collection while the
 * request hangs can collect it and the request then never times out (nodejs/node#55428,
 * nodejs/undici#4068). A bulk load's churn made that happen every time in the fault test. Here
 * the timer's closure holds the controller, and `done()` clears the timer and the listener.
 */
export interface AttemptSignal {
  signal: AbortSignal;
  /** Stops the timer and lets go of the caller's signal; call it once the attempt has settled. */
  done(): void;
}

export function attemptSignal(timeoutMs: number, outer?: AbortSignal): AttemptSignal {
  const controller = new AbortController();
  const timer = setTimeout(() => {
    controller.abort(new DOMException(`no answer within ${timeoutMs} ms`, 'TimeoutError'));
  }, timeoutMs);
  const onAbort = () => controller.abort(outer?.reason);
  if (outer?.aborted) onAbort();
  else outer?.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    done() {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onAbort);
    },
  };
}
