// Path-based decisions made before routing (error shape, public routes) must agree with the contract.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { operationRoutes } from '../../generated/operations.js';
import { isPublicRoute } from './authenticate.js';
import { protocolFamilyForPath } from './protocol-family.js';

/** A concrete path for a spec path template. */
const sample = (path: string) => path.replace(/\{[^}]+\}/g, 'org/some-model.png');

for (const route of operationRoutes) {
  test(`${route.operationId}: family and security agree with the spec`, () => {
    assert.equal(protocolFamilyForPath(sample(route.path)), route.protocol);
    assert.equal(isPublicRoute(route.method.toUpperCase(), sample(route.path)), route.security === 'public');
    if (route.security === 'admin') assert.ok(route.path.startsWith('/admin/'));
  });
}
