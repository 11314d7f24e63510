import type { RequestHandler } from 'express';
import { contextOf, type RequestContext } from '../../core/request-context.js';
import { meteredEndpoint } from '../../usage/metering/metered-endpoint.js';
import { clientLeftStatus } from '../../usage/metering/usage-row-of.js';
import { noneLabel, type GatewayMetrics, type UsageLabelValues } from './gateway-metrics.js';

/**
 * The first step of every request when metrics are on: when its response is over, counts it and its
 * duration under its operation, model, provider and status (499 when the client left first, as the
 * ledger has it). The model is the one that served, else the one named if it is configured, else
 * `unknown`; operations that call no model get `none`.
 *
 * A WebSocket handshake the gateway accepted (status 101) is no request answered: its response stays open
 * as long as the socket (up to an hour), and each of its turns is a request of its own, counted here as
 * the same request over HTTP is. Only the open sockets are counted (`gateway_open_websockets`); a refused
 * handshake (401, 404) is an answered request like any.
 */
export function observeRequests(metrics: GatewayMetrics): RequestHandler {
  return (req, res, next) => {
    const startedAt = process.hrtime.bigint();
    const context = contextOf(req);
    context.metrics = { metrics, startedAt };
    res.once('close', () => {
      if (res.statusCode === 101) return;
      const seconds = Number(process.hrtime.bigint() - startedAt) / 1e9;
      const [operation, model, provider] = modelLabels(metrics, context, req.body);
      metrics.requestEnded([operation, model, provider, String(res.writableFinished ? res.statusCode : clientLeftStatus)], seconds);
    });
    next();
  };
}

/** The operation, model and provider labels of a request, from what its context says so far. */
export function modelLabels(metrics: GatewayMetrics, context: RequestContext, body: unknown): UsageLabelValues {
  const operation = context.operation?.operationId ?? noneLabel;
  if (!context.operation?.metering) return [operation, noneLabel, noneLabel];
  if (context.route) return [operation, context.route.model, metrics.providerLabel(context.route.deployment)];
  return [operation, metrics.modelLabel(meteredEndpoint(context, body)?.requestedModel), metrics.providerLabel(undefined)];
}
