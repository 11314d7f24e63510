import type { Response } from 'express';

/**
 * An AbortSignal that fires when the client goes away before the response finished, so providers can
 * cancel the upstream call instead of generating for nobody.
 */
export function requestAbortSignal(res: Response): AbortSignal {
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort(new Error('client disconnected'));
  });
  return controller.signal;
}
